import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kybDecisionMail } from '../src/modules/kyb/kyb.mail.ts';
import * as usersService from '../src/modules/users/users.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';
import { waitForMails } from './support/mailbox.ts';

/** A person's language (users.locale): from the provider's claim, then the console; the KYB e-mail uses it. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: 'reviewer@example.com', RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;

describe("the person's language", () => {
  it('is stored from the console (PUT users) and read back; an unsupported one is a 400', async () => {
    const { auth } = await buildUser(t);
    expect((await t.app.inject({ url: '/api/users', headers: auth })).json().locale).toBeNull();
    const saved = await t.app.inject({ method: 'PUT', url: '/api/users', headers: auth, payload: { locale: 'ja' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().locale).toBe('ja');
    expect((await t.app.inject({ url: '/api/users', headers: auth })).json().locale).toBe('ja');
    for (const locale of ['fr', 'ja-JP', '', 3]) {
      const bad = await t.app.inject({ method: 'PUT', url: '/api/users', headers: auth, payload: { locale } });
      expect(bad.statusCode).toBe(400);
    }
    expect((await t.app.inject({ url: '/api/users', headers: auth })).json().locale).toBe('ja');
  });

  it("fills from the provider's locale claim at sign-in, without overriding the console's choice", async () => {
    const identity = {
      issuer: 'https://issuer.test',
      subject: `locale-${Date.now()}`,
      email: 'claim@example.com',
      username: 'claim',
      firstName: 'Min',
      lastName: 'Kim',
    };
    const first = await usersService.upsertUserFromIdentity(db(), { ...identity, locale: 'ko-KR' });
    expect(first.locale).toBe('ko');
    await usersService.updateUserProfile(db(), first.id, { locale: 'es' });
    const again = await usersService.upsertUserFromIdentity(db(), { ...identity, locale: 'ja-JP' });
    expect(again.locale).toBe('es');
    const other = await usersService.upsertUserFromIdentity(db(), {
      ...identity,
      subject: `${identity.subject}-2`,
      locale: 'de-DE',
    });
    expect(other.locale).toBeNull();
    expect(usersService.localeFromClaim('es_MX')).toBe('es');
    expect(usersService.localeFromClaim(42)).toBeNull();
  });
});

describe('the KYB decision e-mail', () => {
  it('reaches each member in their own language (English when unknown)', async () => {
    const reviewer = await buildUser(t, { email: 'reviewer@example.com' });
    const owner = await buildUser(t, { firstName: '花子' });
    const colleague = await buildUser(t, { firstName: 'Lucía' });
    const newcomer = await buildUser(t, { firstName: 'Sam' });
    const organization = await buildOrganization(t, owner.user.id, '京都クラブ');
    for (const person of [colleague, newcomer]) {
      await db().insert(schema.memberships).values({ organizationId: organization.id, userId: person.user.id });
    }
    await t.app.inject({ method: 'PUT', url: '/api/users', headers: owner.auth, payload: { locale: 'ja' } });
    await t.app.inject({ method: 'PUT', url: '/api/users', headers: colleague.auth, payload: { locale: 'es' } });
    const [application] = await db()
      .insert(schema.kybApplications)
      .values({ organizationId: organization.id, status: 'PENDING', documentIds: [] })
      .returning();
    await db()
      .update(schema.organizations)
      .set({ verificationStatus: 'PENDING' })
      .where(eq(schema.organizations.id, organization.id));
    const rejected = await t.app.inject({
      method: 'POST',
      url: `/api/kyb-reviews/${application!.id}/reject`,
      headers: reviewer.auth,
      payload: { reason: '登記簿謄本が古すぎます' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);

    const ja = (await waitForMails(t, owner.user.email!))[0]!;
    expect(ja.subject).toBe('京都クラブの組織認証は承認されませんでした');
    expect(ja.text).toContain('花子 様');
    expect(ja.text).toContain('理由：登記簿謄本が古すぎます');
    const es = (await waitForMails(t, colleague.user.email!))[0]!;
    expect(es.subject).toBe('京都クラブ: verificación no aprobada');
    expect(es.text).toContain('Hola, Lucía:');
    expect(es.text).toContain('Motivo: 登記簿謄本が古すぎます');
    const en = (await waitForMails(t, newcomer.user.email!))[0]!;
    expect(en.subject).toBe('京都クラブ: verification not approved');
    expect(en.text).toContain('Hello Sam,');
  });

  it('is written in each language for an approval', () => {
    const job = {
      to: 'x@example.com',
      firstName: '민준',
      organizationId: '00000000-0000-4000-8000-000000000001',
      organizationName: 'Acme',
      status: 'APPROVED' as const,
      reason: null,
    };
    const url = 'https://cp.example';
    expect(kybDecisionMail({ ...job, locale: 'ko' }, url).subject).toBe('Acme 조직 인증이 완료되었습니다');
    expect(kybDecisionMail({ ...job, locale: 'ko' }, url).text).toContain('민준님, 안녕하세요.');
    expect(kybDecisionMail({ ...job, locale: 'ja' }, url).subject).toBe('Acmeの組織認証が完了しました');
    expect(kybDecisionMail({ ...job, locale: 'es' }, url).subject).toBe('Acme ya está verificada');
    expect(kybDecisionMail({ ...job, locale: 'fr' }, url).subject).toBe('Acme is verified');
    expect(kybDecisionMail({ ...job, locale: null }, url).subject).toBe('Acme is verified');
    for (const locale of ['en', 'ja', 'es', 'ko']) {
      expect(kybDecisionMail({ ...job, locale }, url).text).toContain(`${url}/organization/${job.organizationId}`);
    }
  });
});
