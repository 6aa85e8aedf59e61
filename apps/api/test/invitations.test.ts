import { schema } from '@cp/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto.ts';
import { invitationMail } from '../src/modules/members/invitation-mail.ts';
import { maskEmail, sendInvitationMail } from '../src/modules/members/invitations.service.ts';
import { INVITATION_MAIL_QUEUE } from '../src/modules/members/invitations.worker.ts';
import * as organizationsService from '../src/modules/organizations/organizations.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';
import { mailsTo, waitForMails } from './support/mailbox.ts';
import { jobsSettled } from './support/wait.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** An organization with its admin (first name Ines, so the mails name the inviter). */
async function organization(name: string) {
  const admin = await buildUser(t, { firstName: 'Ines' });
  const org = await buildOrganization(t, admin.user.id, name);
  const headers = { ...admin.auth, currentidentity: org.id };
  const invite = (payload: Record<string, unknown>, extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/organizations/${org.id}/invitations`,
      headers: { ...headers, ...extra },
      payload,
    });
  return { admin, org, headers, invite };
}

const accept = (token: string, auth: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: `/api/invitations/${token}/accept`, headers: auth });
const lookup = (token: string) => t.app.inject({ url: `/api/invitations/${token}` });

async function invitationRows(organizationId: string) {
  return db()
    .select()
    .from(schema.organizationInvitations)
    .where(eq(schema.organizationInvitations.organizationId, organizationId));
}

describe('inviting', () => {
  it('e-mails a 7-day link in the language asked for, once, and stores only the SHA-256 of its token', async () => {
    const { org, invite } = await organization('Lumen Labs');
    const response = await invite({ email: 'kenji@example.com', role: 'member', locale: 'ja' });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ email: 'kenji@example.com', role: 'member', status: 'PENDING' });
    expect(body.invited_by).toMatchObject({ first_name: 'Ines' });
    const token = tokenOf(body.url);
    expect(body.url).toBe(`${t.config.publicUrl}/invitations/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const [row] = await invitationRows(org.id);
    expect(row!.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const [mail] = await waitForMails(t, 'kenji@example.com');
    expect(mail!.subject).toBe('Ines LovelaceさんからLumen Labsへの招待が届きました');
    expect(mail!.text).toContain(body.url);
    expect(mail!.text).toContain('メンバーとして参加するよう招待されました');
    expect(mail!.html).toContain(`href="${body.url}"`);
    await jobsSettled(t, INVITATION_MAIL_QUEUE); // whatever a duplicate job would have sent, it has sent
    expect(await mailsTo(t, 'kenji@example.com')).toHaveLength(1);
  });

  it('writes the e-mail in the best language of Accept-Language when the request names none', async () => {
    const { invite } = await organization('Sol');
    const response = await invite(
      { email: 'lucia@example.com', role: 'admin' },
      { 'accept-language': 'es-MX,en;q=0.5' },
    );
    expect(response.statusCode).toBe(201);
    const [mail] = await waitForMails(t, 'lucia@example.com');
    expect(mail!.subject).toBe('Ines Lovelace te ha invitado a unirte a Sol');
    expect(mail!.text).toContain('con el rol de administrador');
  });

  it('replaces the pending invitation of the same address (one row, old link gone, new role)', async () => {
    const { org, invite } = await organization('Replace');
    const first = await invite({ email: 'sam@example.com', role: 'member' });
    const second = await invite({ email: 'SAM@example.com', role: 'admin' });
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(first.json().id);
    const rows = await invitationRows(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.role).toBe('admin');
    expect((await lookup(tokenOf(first.json().url))).statusCode).toBe(404);
    expect((await lookup(tokenOf(second.json().url))).json().role).toBe('admin');
  });

  it('answers 409 ORGANIZATION_ALREADY_MEMBER for a member, whatever the case of the address', async () => {
    const { admin, org, invite } = await organization('Members');
    const response = await invite({ email: admin.user.email!.toUpperCase(), role: 'member' });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('ORGANIZATION_ALREADY_MEMBER');
    expect(await invitationRows(org.id)).toHaveLength(0);
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const { org, invite } = await organization('Bad');
    for (const payload of [
      { email: 'not-an-address', role: 'member' },
      { email: 'a@example.com', role: 'owner' },
      { email: 'a@example.com' },
      { email: `${'a'.repeat(320)}@example.com`, role: 'member' },
      { email: 'a@example.com', role: 'member', locale: 'fr' },
      { email: 'a@example.com', role: 'member', extra: true },
    ]) {
      const response = await invite(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('REQUEST_INVALID');
    }
    expect(await invitationRows(org.id)).toHaveLength(0);
  });

  it('lists pending invitations (expired ones marked), not accepted or revoked ones', async () => {
    const { org, headers, invite } = await organization('Pending');
    const joiner = await buildUser(t, { email: 'joiner@example.com' });
    const accepted = await invite({ email: 'joiner@example.com', role: 'member' });
    await accept(tokenOf(accepted.json().url), joiner.auth);
    const revoked = await invite({ email: 'gone@example.com', role: 'member' });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/organizations/${org.id}/invitations/${revoked.json().id}`,
      headers,
    });
    const expired = await invite({ email: 'late@example.com', role: 'member' });
    await db()
      .update(schema.organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.organizationInvitations.id, expired.json().id));
    const pending = await invite({ email: 'soon@example.com', role: 'admin' });
    const list = await t.app.inject({ url: `/api/organizations/${org.id}/invitations`, headers });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 2, page: 1, limit: 10 });
    expect(list.json().results.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [pending.json().id, 'PENDING'],
      [expired.json().id, 'EXPIRED'],
    ]);
    expect(list.body).not.toContain('url');
  });
});

describe('the invitation link', () => {
  it('shows the organization, its logo, the inviter, the role and the expiry, and nothing else', async () => {
    const { invite } = await organization('Public Org');
    const sent = await invite({ email: 'viewer@example.com', role: 'member' });
    const response = await lookup(tokenOf(sent.json().url));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      organization: { name: 'Public Org', logo_url: null },
      inviter: { first_name: 'Ines', last_name: 'Lovelace' },
      role: 'member',
      expires_at: sent.json().expires_at,
    });
  });

  it('answers 404 for an unknown link and 400 for a malformed one', async () => {
    const unknown = await lookup('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('INVITATION_NOT_FOUND');
    expect((await lookup('short')).statusCode).toBe(400);
    expect((await lookup(`${'A'.repeat(42)}*`)).statusCode).toBe(400);
  });

  it('answers 410 once expired, revoked or used, on the page and on accept', async () => {
    const { org, headers, invite } = await organization('Gone');
    const invitee = await buildUser(t, { email: 'late-comer@example.com' });
    const expired = await invite({ email: 'late-comer@example.com', role: 'member' });
    await db()
      .update(schema.organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.organizationInvitations.id, expired.json().id));
    const expiredToken = tokenOf(expired.json().url);
    expect((await lookup(expiredToken)).json()).toMatchObject({ status: 410, code: 'INVITATION_EXPIRED' });
    expect((await accept(expiredToken, invitee.auth)).json().code).toBe('INVITATION_EXPIRED');

    const revoked = await invite({ email: 'late-comer@example.com', role: 'member' });
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/organizations/${org.id}/invitations/${revoked.json().id}`,
      headers,
    });
    expect(revoke.statusCode).toBe(204);
    const revokedToken = tokenOf(revoked.json().url);
    expect((await lookup(revokedToken)).json()).toMatchObject({ status: 410, code: 'INVITATION_REVOKED' });
    expect((await accept(revokedToken, invitee.auth)).statusCode).toBe(410);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/organizations/${org.id}/invitations/${revoked.json().id}`,
      headers,
    });
    expect(again.statusCode).toBe(404);

    const used = await invite({ email: 'late-comer@example.com', role: 'member' });
    const usedToken = tokenOf(used.json().url);
    expect((await accept(usedToken, invitee.auth)).statusCode).toBe(200);
    expect((await lookup(usedToken)).json()).toMatchObject({ status: 410, code: 'INVITATION_ALREADY_USED' });
    expect((await accept(usedToken, invitee.auth)).json().code).toBe('INVITATION_ALREADY_USED');
  });
});

describe('accepting', () => {
  it('joins the invited address (any case) with the role, and the organization lists the new member', async () => {
    const { org, headers, invite } = await organization('Join');
    const invitee = await buildUser(t, { email: 'Mixed.Case@Example.com' });
    const sent = await invite({ email: 'mixed.case@example.com', role: 'admin' });
    const response = await accept(tokenOf(sent.json().url), invitee.auth);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ organization_id: org.id, role: 'admin' });
    const organizations = await t.app.inject({ url: '/api/organizations', headers: invitee.auth });
    expect(organizations.json().results).toEqual([expect.objectContaining({ id: org.id, role: 'admin' })]);
    const members = await t.app.inject({ url: `/api/organizations/${org.id}/members`, headers });
    expect(members.json().results).toContainEqual(
      expect.objectContaining({ user_id: invitee.user.id, role: 'admin', source: 'local' }),
    );
    const [row] = await invitationRows(org.id);
    expect(row).toMatchObject({ acceptedByUserId: invitee.user.id, acceptedAt: expect.any(Date) });
  });

  it('refuses another account (403, naming the invited address masked) and keeps the invitation usable', async () => {
    const { org, invite } = await organization('Mismatch');
    const wrong = await buildUser(t, { email: 'someone-else@example.com' });
    const sent = await invite({ email: 'theinvitee@example.com', role: 'member' });
    const token = tokenOf(sent.json().url);
    const response = await accept(token, wrong.auth);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'INVITATION_EMAIL_MISMATCH',
      errors: [{ path: 'invitation.email', message: 'th***@example.com' }],
    });
    expect(response.json().detail).toContain('th***@example.com');
    expect(response.body).not.toContain('theinvitee');
    const memberships = await db()
      .select()
      .from(schema.memberships)
      .where(and(eq(schema.memberships.organizationId, org.id), eq(schema.memberships.userId, wrong.user.id)));
    expect(memberships).toHaveLength(0);
    expect((await lookup(token)).statusCode).toBe(200);
    const right = await buildUser(t, { email: 'theinvitee@example.com' });
    expect((await accept(token, right.auth)).statusCode).toBe(200);
  });

  it('needs a signed-in user: no session is 401, an API key is refused', async () => {
    const { invite } = await organization('Anonymous');
    const sent = await invite({ email: 'anon@example.com', role: 'member' });
    const token = tokenOf(sent.json().url);
    expect((await t.app.inject({ method: 'POST', url: `/api/invitations/${token}/accept` })).statusCode).toBe(401);
    const basic = `Basic ${Buffer.from('ck_000000000000000000000000:cs_x').toString('base64')}`;
    expect((await accept(token, { authorization: basic })).statusCode).toBe(401);
    expect((await lookup(token)).statusCode).toBe(200);
  });

  it('is single use: of two accepts at the same moment one joins, the other gets 410', async () => {
    const { org, invite } = await organization('Once');
    // Two accounts of the same address at two providers: both may accept, only one does.
    const one = await buildUser(t, { email: 'twice@example.com' });
    const two = await buildUser(t, { email: 'twice@example.com' });
    const sent = await invite({ email: 'twice@example.com', role: 'member' });
    const token = tokenOf(sent.json().url);
    const results = await Promise.all([accept(token, one.auth), accept(token, two.auth)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410]);
    const joined = await db().select().from(schema.memberships).where(eq(schema.memberships.organizationId, org.id));
    expect(joined).toHaveLength(2); // the admin and one of the two
  });

  it('keeps the role of someone who joined meanwhile', async () => {
    const { org, invite } = await organization('Already');
    const person = await buildUser(t, { email: 'meanwhile@example.com' });
    const sent = await invite({ email: 'meanwhile@example.com', role: 'admin' });
    await organizationsService.insertMembership(db(), {
      organizationId: org.id,
      userId: person.user.id,
      source: 'provider',
      role: 'member',
    });
    const response = await accept(tokenOf(sent.json().url), person.auth);
    expect(response.json()).toEqual({ organization_id: org.id, role: 'member' });
  });
});

describe('resending and revoking', () => {
  it('resends with a new link and 7 more days: the old link stops working, a new mail goes out', async () => {
    const { org, headers, invite } = await organization('Resend');
    const sent = await invite({ email: 'again@example.com', role: 'member', locale: 'ko' });
    await waitForMails(t, 'again@example.com');
    const resent = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${org.id}/invitations/${sent.json().id}/resend`,
      headers,
      payload: { locale: 'ko' },
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().id).toBe(sent.json().id);
    expect(resent.json().url).not.toBe(sent.json().url);
    expect((await lookup(tokenOf(sent.json().url))).statusCode).toBe(404);
    expect((await lookup(tokenOf(resent.json().url))).statusCode).toBe(200);
    const mails = await waitForMails(t, 'again@example.com', { count: 2 });
    expect(mails.map((m) => m.text?.includes(resent.json().url))).toContain(true);
    expect(mails[0]!.subject).toBe('Ines Lovelace님이 Resend에 초대했습니다');
  });

  it('does not send the mail of a link replaced before the job ran', async () => {
    const { org, invite } = await organization('Stale');
    const sent = await invite({ email: 'stale@example.com', role: 'member' });
    await waitForMails(t, 'stale@example.com');
    const [row] = await invitationRows(org.id);
    const box = t.runtime.ctx.secretBox;
    let sentMails = 0;
    const mailer = {
      send: async () => {
        sentMails += 1;
      },
    };
    const deps = { db: db(), publicUrl: t.config.publicUrl, secretBox: box, mailer };
    const current = tokenOf(sent.json().url);
    const job = (token: string) => ({
      invitationId: row!.id,
      sealedToken: box.seal(token, `invitation-token:${row!.id}`),
    });
    expect(await sendInvitationMail(deps, job('B'.repeat(43)))).toBe('skipped');
    expect(await sendInvitationMail(deps, job(current))).toBe('sent');
    await db()
      .update(schema.organizationInvitations)
      .set({ revokedAt: new Date() })
      .where(eq(schema.organizationInvitations.id, row!.id));
    expect(await sendInvitationMail(deps, job(current))).toBe('skipped');
    expect(sentMails).toBe(1);
  });

  it("keeps each organization's invitations its own (404 from another organization)", async () => {
    const a = await organization('Alpha Team');
    const b = await organization('Bravo Team');
    const sent = await a.invite({ email: 'secret-hire@example.com', role: 'member' });
    const id = sent.json().id as string;
    const attempts = [
      { method: 'GET' as const, url: `/api/organizations/${a.org.id}/invitations`, headers: b.headers },
      { method: 'DELETE' as const, url: `/api/organizations/${a.org.id}/invitations/${id}`, headers: b.headers },
      { method: 'DELETE' as const, url: `/api/organizations/${b.org.id}/invitations/${id}`, headers: b.headers },
      {
        method: 'POST' as const,
        url: `/api/organizations/${b.org.id}/invitations/${id}/resend`,
        headers: b.headers,
        payload: {},
      },
      {
        method: 'POST' as const,
        url: `/api/organizations/${a.org.id}/invitations`,
        headers: b.headers,
        payload: { email: 'x@example.com', role: 'admin' },
      },
    ];
    for (const attempt of attempts) {
      const response = await t.app.inject(attempt);
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(404);
      expect(response.body).not.toContain('secret-hire');
    }
    expect((await lookup(tokenOf(sent.json().url))).statusCode).toBe(200);
    expect(await invitationRows(b.org.id)).toHaveLength(0);
  });
});

describe('the invitation e-mail', () => {
  const base = {
    invitationId: '00000000-0000-4000-8000-000000000000',
    tokenTag: 'abc',
    to: 'x@example.com',
    organizationName: '<Acme & Co>',
    organizationLogoUrl: null,
    inviter: { firstName: '太郎', lastName: '山田' },
    role: 'admin' as const,
    url: 'https://platform.example/invitations/token',
    expiresAt: new Date('2030-01-08T00:00:00Z'),
  };

  it('escapes names in the HTML, orders CJK names family first and dates the expiry in the language', () => {
    const ja = invitationMail({ ...base, locale: 'ja' });
    expect(ja.text).toContain('山田 太郎さんから、<Acme & Co>に管理者として参加するよう招待されました。');
    expect(ja.text).toContain('2030年1月8日');
    expect(ja.html).toContain('&lt;Acme &amp; Co&gt;');
    expect(ja.html).not.toContain('<Acme');
    expect(ja.messageId).toBe('<invitation-00000000-0000-4000-8000-000000000000-abc@platform.example>');
    const en = invitationMail({ ...base, locale: 'en', inviter: null, role: 'member' });
    expect(en.subject).toBe("You're invited to join <Acme & Co>");
    expect(en.text).toContain('as Member.');
    expect(en.text).toContain('January 8, 2030');
    const ko = invitationMail({ ...base, locale: 'ko' });
    expect(ko.text).toContain('山田太郎님이 회원님을 <Acme & Co>의 관리자로 초대했습니다.');
  });

  it('masks the invited address in mismatch answers', () => {
    expect(maskEmail('alice@example.com')).toBe('al***@example.com');
    expect(maskEmail('bob@example.com')).toBe('b***@example.com');
    expect(maskEmail('x@example.com')).toBe('x***@example.com');
    expect(maskEmail('broken')).toBe('***');
  });
});

describe('the activity log', () => {
  it('records who invited, who joined, role changes, removals and revoked invitations', async () => {
    const { admin, org, headers, invite } = await organization('Logged');
    const invitee = await buildUser(t, { firstName: 'Jun', email: 'jun.oh@example.com' });
    const sent = await invite({ email: 'jun.oh@example.com', role: 'member' });
    expect((await accept(tokenOf(sent.json().url), invitee.auth)).statusCode).toBe(200);
    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/api/organizations/${org.id}/members/${invitee.user.id}`,
      headers,
      payload: { role: 'admin' },
    });
    expect(promote.statusCode, promote.body).toBe(200);
    const leave = await t.app.inject({
      method: 'DELETE',
      url: `/api/organizations/${org.id}/members/${invitee.user.id}`,
      headers: { ...invitee.auth, currentidentity: org.id },
    });
    expect(leave.statusCode, leave.body).toBe(204);
    const other = await invite({ email: 'never.joins@example.com', role: 'admin' });
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/organizations/${org.id}/invitations/${other.json().id}`,
      headers,
    });
    expect(revoked.statusCode, revoked.body).toBe(204);

    const log = await t.app.inject({ url: '/api/audit-events?filter.action=members.*&limit=100', headers });
    expect(log.statusCode, log.body).toBe(200);
    const events = (
      log.json().results as {
        action: string;
        actor: { id: string };
        target: { id: string; label: string };
        details: object;
      }[]
    ).map((e) => [e.action, e.actor.id, e.target.label, e.details]);
    expect(events).toEqual([
      ['invitation.revoked', admin.user.id, 'never.joins@example.com', {}],
      ['member.invited', admin.user.id, 'never.joins@example.com', { role: 'admin' }],
      ['member.removed', invitee.user.id, 'Jun Lovelace', {}],
      ['member.role_changed', admin.user.id, 'Jun Lovelace', { role: 'admin', previous_role: 'member' }],
      ['member.joined', invitee.user.id, 'Jun Lovelace', { role: 'member' }],
      ['member.invited', admin.user.id, 'jun.oh@example.com', { role: 'member' }],
    ]);
  });
});
