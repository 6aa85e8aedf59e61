import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../src/cli/commands/index.ts';
import { assertOrganizationVerified } from '../src/modules/kyb/kyb.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';
import { mailsTo } from './support/mailbox.ts';

/** A PDF by its signature (the API judges files by their first bytes). */
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);

async function upload(headers: Record<string, string>, bytes: Buffer, filename: string, purpose: string) {
  const boundary = `----kyb${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: 'admin@example.com', RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await t?.close();
});

async function member(name = 'Acme', email?: string) {
  const user = await buildUser(t, email ? { email } : {});
  const organization = await buildOrganization(t, user.user.id, name);
  return { ...user, organization, headers: { ...user.auth, currentidentity: organization.id } };
}

async function kybDocument(headers: Record<string, string>, filename = 'registry.pdf') {
  const response = await upload(headers, pdf, filename, 'kyb_document');
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}

async function apply(who: Awaited<ReturnType<typeof member>>, documents?: string[]) {
  return t.app.inject({
    method: 'POST',
    url: `/api/kyb/${who.organization.id}`,
    headers: who.auth,
    payload: { documents: documents ?? [await kybDocument(who.headers)] },
  });
}

let admin: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  admin = await buildUser(t, { email: 'admin@example.com' });
});

describe('KYB application', () => {
  it('submits documents: PENDING, visible in GET kyb and on the organization; a second one is 409', async () => {
    const alice = await member();
    expect((await t.app.inject({ url: `/api/kyb/${alice.organization.id}`, headers: alice.auth })).json()).toEqual({
      application: null,
    });
    const documentId = await kybDocument(alice.headers);
    const submitted = await apply(alice, [documentId]);
    expect(submitted.statusCode).toBe(201);
    expect(submitted.json()).toMatchObject({
      organization_id: alice.organization.id,
      status: 'PENDING',
      reason: null,
      documents: [{ id: documentId, filename: 'registry.pdf', content_type: 'application/pdf' }],
    });

    const latest = await t.app.inject({ url: `/api/kyb/${alice.organization.id}`, headers: alice.auth });
    expect(latest.json().application).toMatchObject({ id: submitted.json().id, status: 'PENDING' });
    const organization = await t.app.inject({
      url: `/api/organizations/${alice.organization.id}`,
      headers: alice.auth,
    });
    expect(organization.json()).toMatchObject({ verification_status: 'PENDING', verified: false });

    const again = await apply(alice);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'KYB_ALREADY_PENDING' });
  });

  it('validates the documents: 1 to 5, uploaded by this organization as kyb_document', async () => {
    const alice = await member();
    const bob = await member('Globex');
    expect((await apply(alice, [])).statusCode).toBe(400);
    const six = await Promise.all(Array.from({ length: 6 }, () => kybDocument(alice.headers)));
    expect((await apply(alice, six)).statusCode).toBe(400);
    expect((await apply(alice, ['not-a-uuid'])).statusCode).toBe(400);

    const foreign = await apply(alice, [await kybDocument(bob.headers)]);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'KYB_DOCUMENT_INVALID' });

    const logo = (await upload(alice.headers, png, 'logo.png', 'logo')).json();
    const notDocument = await apply(alice, [logo.id]);
    expect(notDocument.statusCode).toBe(400);
    expect(notDocument.json()).toMatchObject({ code: 'KYB_DOCUMENT_INVALID' });
  });

  it("does not let another organization's member submit or read an application", async () => {
    const alice = await member();
    const bob = await member('Globex');
    await apply(alice);
    const read = await t.app.inject({ url: `/api/kyb/${alice.organization.id}`, headers: bob.auth });
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain('registry');
    const submit = await t.app.inject({
      method: 'POST',
      url: `/api/kyb/${alice.organization.id}`,
      headers: bob.auth,
      payload: { documents: [await kybDocument(bob.headers)] },
    });
    expect(submit.statusCode).toBe(404);
  });
});

describe('KYB review', () => {
  it('is for platform administrators only (403 KYB_REVIEW_FORBIDDEN)', async () => {
    const alice = await member();
    const application = (await apply(alice)).json();
    for (const request of [
      { method: 'GET' as const, url: '/api/kyb-reviews' },
      { method: 'POST' as const, url: `/api/kyb-reviews/${application.id}/approve` },
      { method: 'POST' as const, url: `/api/kyb-reviews/${application.id}/reject`, payload: { reason: 'no' } },
    ]) {
      const response = await t.app.inject({ ...request, headers: alice.auth });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'KYB_REVIEW_FORBIDDEN' });
    }
    expect((await t.app.inject({ url: '/api/kyb-reviews' })).statusCode).toBe(401);
  });

  it('counts an ADMIN_EMAILS address only when the identity provider verified it', async () => {
    // Anyone can sign up at a provider with any address: an unverified one names no administrator.
    const impostor = await buildUser(t, { email: 'admin@example.com', emailVerified: false });
    const queue = await t.app.inject({ url: '/api/kyb-reviews', headers: impostor.auth });
    expect(queue.statusCode).toBe(403);
    expect(queue.json()).toMatchObject({ code: 'KYB_REVIEW_FORBIDDEN' });
    const profile = await t.app.inject({ url: '/api/users', headers: impostor.auth });
    expect(profile.json()).toMatchObject({ email: 'admin@example.com', is_platform_admin: false });
    const real = await t.app.inject({ url: '/api/users', headers: admin.auth });
    expect(real.json()).toMatchObject({ is_platform_admin: true });
  });

  it('lists pending applications; approval verifies the organization and e-mails its members', async () => {
    const alice = await member('Approved Org');
    const application = (await apply(alice)).json();

    const queue = await t.app.inject({ url: '/api/kyb-reviews?status=PENDING&page=1&limit=100', headers: admin.auth });
    expect(queue.statusCode).toBe(200);
    const row = queue.json().results.find((r: { id: string }) => r.id === application.id);
    expect(row).toMatchObject({ organization_name: 'Approved Org', status: 'PENDING' });
    expect(row.documents).toHaveLength(1);
    // The administrator can open the private document.
    const document = await t.app.inject({ url: `/api/media/${row.documents[0].id}`, headers: admin.auth });
    expect(document.statusCode).toBe(200);

    await expect(assertOrganizationVerified(t.runtime.ctx.database.db, alice.organization.id)).rejects.toMatchObject({
      code: 'ORGANIZATION_NOT_VERIFIED',
      status: 403,
    });

    const approved = await t.app.inject({
      method: 'POST',
      url: `/api/kyb-reviews/${application.id}/approve`,
      headers: admin.auth,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'APPROVED', reason: null });
    const organization = (
      await t.app.inject({ url: `/api/organizations/${alice.organization.id}`, headers: alice.auth })
    ).json();
    expect(organization).toMatchObject({ verification_status: 'APPROVED', verified: true });
    await expect(assertOrganizationVerified(t.runtime.ctx.database.db, alice.organization.id)).resolves.toBeUndefined();

    await expect
      .poll(async () => (await mailsTo(t, alice.user.email!)).length, { timeout: 15_000, interval: 250 })
      .toBe(1);
    expect(JSON.stringify(await mailsTo(t, alice.user.email!))).toContain('Approved Org is verified');

    const twice = await t.app.inject({
      method: 'POST',
      url: `/api/kyb-reviews/${application.id}/approve`,
      headers: admin.auth,
    });
    expect(twice.statusCode).toBe(409);
    const afterApproval = await apply(alice);
    expect(afterApproval.statusCode).toBe(409);
    expect(afterApproval.json()).toMatchObject({ code: 'KYB_ALREADY_APPROVED' });
    const pendingIds = (await t.app.inject({ url: '/api/kyb-reviews?limit=100', headers: admin.auth }))
      .json()
      .results.map((r: { id: string }) => r.id);
    expect(pendingIds).not.toContain(application.id);
  });

  it('rejection needs a reason, records it, e-mails members, and allows a new application', async () => {
    const alice = await member('Rejected Org');
    const application = (await apply(alice)).json();
    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/kyb-reviews/${application.id}/reject`,
      headers: admin.auth,
      payload: { reason: '  ' },
    });
    expect(noReason.statusCode).toBe(400);

    const rejected = await t.app.inject({
      method: 'POST',
      url: `/api/kyb-reviews/${application.id}/reject`,
      headers: admin.auth,
      payload: { reason: 'The registry extract is older than three months.' },
    });
    expect(rejected.statusCode).toBe(200);
    const latest = (await t.app.inject({ url: `/api/kyb/${alice.organization.id}`, headers: alice.auth })).json();
    expect(latest.application).toMatchObject({
      status: 'REJECTED',
      reason: 'The registry extract is older than three months.',
    });
    const organization = (
      await t.app.inject({ url: `/api/organizations/${alice.organization.id}`, headers: alice.auth })
    ).json();
    expect(organization).toMatchObject({ verification_status: 'REJECTED', verified: false });
    await expect
      .poll(async () => (await mailsTo(t, alice.user.email!)).length, { timeout: 15_000, interval: 250 })
      .toBe(1);
    expect(JSON.stringify(await mailsTo(t, alice.user.email!))).toContain('older than three months');

    const resubmitted = await apply(alice);
    expect(resubmitted.statusCode).toBe(201);
    expect(resubmitted.json().status).toBe('PENDING');
  });

  it('answers 404 for an unknown application and 400 for a malformed id', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/kyb-reviews/00000000-0000-4000-8000-000000000000/approve',
      headers: admin.auth,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'POST', url: '/api/kyb-reviews/nope/approve', headers: admin.auth });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('KYB admin CLI', () => {
  const deps = () => ({
    db: t.runtime.ctx.database.db,
    config: t.runtime.ctx.config,
    secretBox: t.runtime.ctx.secretBox,
    jobs: t.runtime.ctx.jobs,
  });

  it('lists pending applications, approves and rejects them', async () => {
    const alice = await member('Cli Approve');
    const bob = await member('Cli Reject');
    const a = (await apply(alice)).json();
    const b = (await apply(bob)).json();
    const listed = await adminCommands['kyb list']!.run(deps(), {});
    const line = listed.split('\n').find((l) => l.startsWith(a.id));
    expect(line).toBe(`${a.id} ${alice.organization.id} Cli Approve ${a.submitted_at.replace(/\+00:00$/, 'Z')}`);

    expect(await adminCommands['kyb approve']!.run(deps(), { id: a.id })).toContain('APPROVED');
    expect(await adminCommands['kyb reject']!.run(deps(), { id: b.id, reason: 'Unreadable scan' })).toContain(
      'REJECTED',
    );
    const after = await adminCommands['kyb list']!.run(deps(), {});
    expect(after).not.toContain(a.id);
    expect(after).not.toContain(b.id);
    const bobs = (await t.app.inject({ url: `/api/kyb/${bob.organization.id}`, headers: bob.auth })).json();
    expect(bobs.application).toMatchObject({ status: 'REJECTED', reason: 'Unreadable scan' });
    await expect(adminCommands['kyb approve']!.run(deps(), { id: 'nope' })).rejects.toMatchObject({
      code: 'KYB_APPLICATION_NOT_FOUND',
    });
  });
});
