import type { AuditEvent } from '@cp/contracts';
import { makeCertificate } from '@cp/credentials/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../src/cli/commands/index.ts';
import { AUDIT_LABEL_MAX, credentialTargetSql } from '../src/modules/audit-events/audit-events.repository.ts';
import { credentialTarget } from '../src/modules/audit-events/audit-events.service.ts';
import { buildOrganization, buildUser, buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { basicAuth, multipart, pdf } from './security-fixtures.ts';
import { claimCredential, makeHolder } from './support/wallet.ts';

/**
 * The activity log: every change is recorded with its actor and target in the change's own transaction,
 * nothing is recorded for a refused or rolled-back change, the log cannot be rewritten, it never holds
 * claim values or secrets, and it is read (filtered, paged) by its own organization only.
 */

let t: TestApp;
const db = () => t.runtime.ctx.database.db;
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);

/** Values that must never reach the log, collected as the scenario makes them. */
const secrets: string[] = [];
/** Short secrets (PINs), looked for as whole JSON values: six digits also occur inside timestamps. */
const pins: string[] = [];
const CLAIM_VALUE = 'Confidential-Claim-7Q2X';
const MAIL_NOTE = 'Private-note-for-the-recipient-93KD';
const RECIPIENT_EMAIL = 'kim.lee.private@example.com';

beforeAll(async () => {
  t = await startTestApp({
    env: {
      ADMIN_EMAILS: 'admin@example.com',
      RATE_LIMIT_PER_MINUTE: '100000',
      API_KEY_RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  headers: Headers,
  payload?: unknown,
) {
  return t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as string }) });
}

async function ok(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  headers: Headers,
  payload?: unknown,
) {
  const response = await call(method, url, headers, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.statusCode === 204 ? null : response.json();
}

/** Every event of an organization as stored, oldest first. */
async function storedEvents(organizationId: string) {
  const result = await db().execute(
    sql`select * from audit_events where organization_id = ${organizationId} order by occurred_at, id`,
  );
  return (result as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** The log as the API answers it (one page of up to 100, newest first). */
async function log(headers: Headers, query = ''): Promise<{ results: AuditEvent[]; total: number }> {
  return ok('GET', `/api/audit-events?limit=100${query}`, headers);
}

const byAction = (events: AuditEvent[], action: string) => events.filter((e) => e.action === action);

async function organization(name: string, firstName = 'Grace') {
  const org = await buildVerifiedOrganization(t, name, {
    name: 'Work Certificate',
    attributes: [
      { name: 'employee', type: 'TEXT' },
      { name: 'years', type: 'NUMBER' },
    ],
  });
  await db().execute(sql`update users set first_name = ${firstName} where id = ${org.member.user.id}`);
  const key = await ok('POST', '/api/integrations/keys', org.headers, { name: `${name} CRM` });
  secrets.push(key.secret);
  return { ...org, key, keyAuth: { authorization: basicAuth(key.key, key.secret) } };
}
type Org = Awaited<ReturnType<typeof organization>>;

async function issue(org: Org, headers: Headers, recipient = { first_name: 'Kim', last_name: 'Lee' }, extra = {}) {
  return ok('POST', '/api/credentials/with-recipient', headers, {
    credential: {
      name: 'Work Certificate',
      schema_id: org.schemaRecord.schema.id,
      claims: { employee: CLAIM_VALUE, years: '7' },
    },
    recipient: { email: RECIPIENT_EMAIL, ...recipient },
    ...extra,
  });
}

async function waitForImport(headers: Headers, id: string) {
  for (let i = 0; i < 200; i += 1) {
    const state = await ok('GET', `/api/credentials/import/${id}`, headers);
    if (state.status === 'COMPLETED' || state.status === 'FAILED') return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not finish');
}

describe('who did what: the actor and the target of each change', () => {
  let acme: Org;
  beforeAll(async () => {
    acme = await organization('Acme', 'Grace');
  });

  it('records a schema created and deleted by a member (USER, their name) and by an API key (API_KEY, its name)', async () => {
    const bySchemaName = async (name: string) =>
      (await log(acme.headers, '&filter.target_type=credential_schema')).results.filter((e) => e.target.label === name);
    const mine = await ok('POST', '/api/schemas', acme.headers, {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    const theirs = await ok('POST', '/api/schemas', acme.keyAuth, {
      name: 'Badge',
      attributes: [
        { name: 'level', type: 'TEXT' },
        { name: 'color', type: 'TEXT' },
      ],
    });
    await ok('DELETE', `/api/schemas/${theirs.id}`, acme.keyAuth);
    expect(await bySchemaName('Membership')).toEqual([
      expect.objectContaining({
        action: 'credential_schema.created',
        actor: { type: 'USER', id: acme.member.user.id, label: 'Grace Lovelace' },
        target: { type: 'credential_schema', id: mine.id, label: 'Membership' },
        details: { attribute_count: 1 },
      }),
    ]);
    const badge = await bySchemaName('Badge');
    expect(badge.map((e) => e.action)).toEqual(['credential_schema.deleted', 'credential_schema.created']);
    for (const event of badge) {
      expect(event.actor).toEqual({ type: 'API_KEY', id: acme.key.id, label: 'Acme CRM' });
    }
  });

  it('keeps the actor label as it was when the actor acted', async () => {
    await ok('POST', '/api/schemas', acme.headers, {
      name: 'Before rename',
      attributes: [{ name: 'a', type: 'TEXT' }],
    });
    await db().execute(sql`update users set first_name = 'Renamed' where id = ${acme.member.user.id}`);
    await ok('POST', '/api/schemas', acme.headers, { name: 'After rename', attributes: [{ name: 'a', type: 'TEXT' }] });
    await db().execute(sql`update users set first_name = 'Grace' where id = ${acme.member.user.id}`);
    const events = (await log(acme.headers, '&filter.action=credential_schema.created')).results;
    expect(events.find((e) => e.target.label === 'Before rename')?.actor.label).toBe('Grace Lovelace');
    expect(events.find((e) => e.target.label === 'After rename')?.actor.label).toBe('Renamed Lovelace');
  });

  it('names a user without a name by their e-mail', async () => {
    const nameless = await buildUser(t, { email: 'no-name@example.com' });
    await db().execute(sql`update users set first_name = null, last_name = null where id = ${nameless.user.id}`);
    const org = await buildOrganization(t, nameless.user.id, 'Nameless Co');
    const [created] = (await log({ ...nameless.auth, currentidentity: org.id })).results;
    expect(created).toMatchObject({
      action: 'organization.created',
      actor: { type: 'USER', label: 'no-name@example.com' },
      target: { type: 'organization', id: org.id, label: 'Nameless Co' },
    });
  });

  it('records each credential issued, revoked and deleted, naming its type and recipient', async () => {
    const one = await issue(acme, acme.headers, { first_name: 'Kim', last_name: 'Lee' }, { tx_code: true });
    pins.push(one.tx_code);
    const two = await issue(acme, acme.keyAuth, { first_name: 'Ana', last_name: 'Ruiz' });
    const three = await issue(acme, acme.headers, { first_name: 'Min', last_name: 'Park' });
    await ok('PATCH', '/api/credentials/revoke', acme.keyAuth, { credentials: [one.id, two.id] });
    await ok('DELETE', `/api/credentials/${three.id}`, acme.headers);
    const events = (await log(acme.headers, '&filter.target_type=credential')).results;
    const of = (id: string) => events.filter((e) => e.target.id === id).map((e) => [e.action, e.actor.type]);
    expect(of(one.id)).toEqual([
      ['credential.revoked', 'API_KEY'],
      ['credential.issued', 'USER'],
    ]);
    expect(of(two.id)).toEqual([
      ['credential.revoked', 'API_KEY'],
      ['credential.issued', 'API_KEY'],
    ]);
    expect(of(three.id)).toEqual([
      ['credential.deleted', 'USER'],
      ['credential.issued', 'USER'],
    ]);
    // Issuing stores the event in the credential's own statement: the actor is labelled there as everywhere.
    expect(events.find((e) => e.target.id === two.id && e.action === 'credential.issued')?.actor).toEqual({
      type: 'API_KEY',
      id: acme.key.id,
      label: 'Acme CRM',
    });
    expect(events.find((e) => e.target.id === one.id && e.action === 'credential.issued')).toMatchObject({
      actor: { type: 'USER', id: acme.member.user.id, label: 'Grace Lovelace' },
      target: { type: 'credential', label: 'Work Certificate — Kim Lee' },
      details: {
        credential_name: 'Work Certificate',
        recipient_name: 'Kim Lee',
        schema_id: acme.schemaRecord.schema.id,
        tx_code: true,
      },
    });
    expect(events.find((e) => e.target.id === one.id && e.action === 'credential.revoked')?.details).toEqual({
      credential_name: 'Work Certificate',
      recipient_name: 'Kim Lee',
    });
  });

  it('records one event per credential of a bulk revocation (at most 100 ids a call)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push((await issue(acme, acme.keyAuth, { first_name: `P${i}`, last_name: 'Q' })).id);
    const before = (await log(acme.headers, '&filter.action=credential.revoked')).total;
    await ok('PATCH', '/api/credentials/revoke', acme.headers, { credentials: [...ids, ids[0]] });
    // Revoking again changes nothing and records nothing.
    await ok('PATCH', '/api/credentials/revoke', acme.headers, { credentials: ids });
    const after = await log(acme.headers, '&filter.action=credential.revoked');
    expect(after.total - before).toBe(5);
    expect(new Set(after.results.slice(0, 5).map((e) => e.target.id))).toEqual(new Set(ids));
    const tooMany = await call('PATCH', '/api/credentials/revoke', acme.headers, {
      credentials: Array.from({ length: 101 }, () => ids[0]),
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('records a CSV import as two events (started by its actor, completed by SYSTEM), not one per row', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `R${i},Imported,r${i}@example.com,${CLAIM_VALUE},${i}`);
    rows.push('Bad,Row,not-an-email,x,not-a-number');
    const csv = multipart([
      { name: 'schema_id', value: acme.schemaRecord.schema.id },
      {
        name: 'file',
        value: `recipient_first_name,recipient_last_name,recipient_email,employee,years\n${rows.join('\n')}\n`,
        filename: 'staff.csv',
        type: 'text/csv',
      },
    ]);
    const before = (await log(acme.headers)).total;
    const started = await ok(
      'POST',
      '/api/credentials/import',
      { ...acme.keyAuth, 'content-type': csv.contentType },
      csv.payload,
    );
    const state = await waitForImport(acme.headers, started.id);
    expect(state).toMatchObject({ status: 'COMPLETED', succeeded_count: 30, failed_count: 1 });
    const events = (await log(acme.headers, `&filter.target_id=${started.id}`)).results;
    expect(events.map((e) => [e.action, e.actor.type])).toEqual([
      ['credential_import.completed', 'SYSTEM'],
      ['credential_import.started', 'API_KEY'],
    ]);
    expect(events[0]).toMatchObject({
      actor: { id: null, label: null },
      target: { type: 'credential_import', id: started.id, label: 'Work Certificate' },
      details: { total_count: 31, succeeded_count: 30, failed_count: 1 },
    });
    expect(events[1]?.details).toEqual({ schema_id: acme.schemaRecord.schema.id, total_count: 31 });
    // Thirty credentials, two events: none per imported row.
    expect((await log(acme.headers)).total - before).toBe(2);
  });

  it('records a Send as `credential.sent` with its count, and a Send with nothing left to send as nothing', async () => {
    const org = await organization('Sender Co');
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await issue(org, org.headers, { first_name: `S${i}`, last_name: 'Send' })).id);
    const send = { schema_id: org.schemaRecord.schema.id, credential_ids: ids, message: MAIL_NOTE, locale: 'en' };
    expect(await ok('POST', '/api/credentials/notify/via-schema', org.headers, send)).toEqual({ queued: 3 });
    expect(await ok('POST', '/api/credentials/notify/via-schema', org.headers, send)).toEqual({ queued: 0 });
    const sent = (await log(org.headers, '&filter.action=credential.sent')).results;
    expect(sent).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'USER', id: org.member.user.id }),
        target: { type: 'credential_schema', id: org.schemaRecord.schema.id, label: 'Work Certificate' },
        details: { count: 3 },
      }),
    ]);
  });

  it('records a claim through the real OpenID4VCI flow as the HOLDER', async () => {
    const credential = await issue(acme, acme.headers, { first_name: 'Hana', last_name: 'Sato' });
    const connect = await ok('GET', `/api/credentials/${credential.id}/connect`, {});
    await claimCredential(t, connect.connection_url, await makeHolder());
    const events = (await log(acme.headers, `&filter.target_type=credential&filter.target_id=${credential.id}`))
      .results;
    expect(events[0]).toMatchObject({
      action: 'credential.claimed',
      actor: { type: 'HOLDER', id: null, label: null },
      target: { type: 'credential', id: credential.id, label: 'Work Certificate — Hana Sato' },
      details: { credential_name: 'Work Certificate', recipient_name: 'Hana Sato' },
    });
    expect(byAction(events, 'credential.claimed')).toHaveLength(1);
  });

  it('records verifications created, updated, deleted and their link secret replaced', async () => {
    const attribute = acme.schemaRecord.attributes.find((a) => a.name === 'years')!;
    const body = {
      name: 'Senior staff',
      schema_id: acme.schemaRecord.schema.id,
      type: 'MULTI',
      attributes: [{ attribute_id: attribute.id, operator: 'BIGGER', value: '5' }],
    };
    const verification = await ok('POST', '/api/verifications', acme.keyAuth, body);
    await ok('PUT', `/api/verifications/${verification.id}`, acme.headers, {
      ...body,
      name: 'Senior staff (10y)',
      type: 'SINGLE',
    });
    const secret = await ok('POST', `/api/verifications/${verification.id}/link-secret`, acme.headers);
    secrets.push(secret.secret);
    // Reading the secret changes nothing: no event.
    await ok('GET', `/api/verifications/${verification.id}/link-secret`, acme.headers);
    await ok('DELETE', `/api/verifications/${verification.id}`, acme.headers);
    const events = (await log(acme.headers, `&filter.target_id=${verification.id}`)).results;
    expect(events.map((e) => [e.action, e.actor.type, e.target.label, e.details])).toEqual([
      ['verification.deleted', 'USER', 'Senior staff (10y)', {}],
      ['verification.link_secret_rotated', 'USER', 'Senior staff (10y)', {}],
      ['verification.updated', 'USER', 'Senior staff (10y)', { type: 'SINGLE' }],
      ['verification.created', 'API_KEY', 'Senior staff', { type: 'MULTI' }],
    ]);
  });

  it('records API keys created, renamed and deleted by a member', async () => {
    const key = await ok('POST', '/api/integrations/keys', acme.headers, { name: 'Payroll' });
    secrets.push(key.secret);
    await ok('PUT', `/api/integrations/keys/${key.id}`, acme.headers, { name: 'Payroll v2' });
    await ok('DELETE', `/api/integrations/keys/${key.id}`, acme.headers);
    const events = (await log(acme.headers, `&filter.target_type=api_key&filter.target_id=${key.id}`)).results;
    expect(events.map((e) => [e.action, e.target.label, e.details])).toEqual([
      ['api_key.deleted', 'Payroll v2', {}],
      ['api_key.updated', 'Payroll v2', { previous_name: 'Payroll' }],
      ['api_key.created', 'Payroll', {}],
    ]);
    expect(events.every((e) => e.actor.type === 'USER' && e.actor.id === acme.member.user.id)).toBe(true);
  });

  it('records webhooks by the host of their URL only (paths and queries may carry tokens)', async () => {
    const url = 'https://hooks.example.com/in/T0K3N-in-the-path?token=query-secret-55';
    secrets.push('T0K3N-in-the-path', 'query-secret-55');
    const hook = await ok('POST', '/api/webhooks', acme.headers, { url, events: ['credential.claimed'] });
    secrets.push(hook.secret);
    await ok('PATCH', `/api/webhooks/${hook.id}`, acme.headers, { enabled: false, description: 'paused' });
    await ok('PATCH', `/api/webhooks/${hook.id}`, acme.headers, {}); // no change, no event
    await ok('DELETE', `/api/webhooks/${hook.id}`, acme.headers);
    const events = (await log(acme.headers, `&filter.target_id=${hook.id}`)).results;
    expect(events.map((e) => [e.action, e.actor.type, e.target.label, e.details])).toEqual([
      ['webhook.deleted', 'USER', 'hooks.example.com', {}],
      ['webhook.updated', 'USER', 'hooks.example.com', { fields: ['description', 'enabled'], enabled: false }],
      ['webhook.created', 'USER', 'hooks.example.com', { events: ['credential.claimed'] }],
    ]);
  });

  it('records trust anchors added and removed', async () => {
    const ca = await makeCertificate({ subject: 'CN=Partner Root CA', ca: true });
    const anchor = await ok('POST', '/api/trust-anchors', acme.headers, {
      kind: 'CERTIFICATE',
      name: 'Partner Root',
      certificate_pem: ca.pem,
    });
    // Reading a CA certificate again changes nothing (only trusted lists are read again): no event.
    await ok('POST', `/api/trust-anchors/${anchor.id}/refresh`, acme.headers);
    await ok('DELETE', `/api/trust-anchors/${anchor.id}`, acme.headers);
    const events = (await log(acme.headers, `&filter.target_id=${anchor.id}`)).results;
    expect(events.map((e) => [e.action, e.actor.type, e.target.label, e.details])).toEqual([
      ['trust_anchor.deleted', 'USER', 'Partner Root', { kind: 'CERTIFICATE' }],
      ['trust_anchor.created', 'USER', 'Partner Root', { kind: 'CERTIFICATE' }],
    ]);
  });

  it('records profile changes by field name (the new name, never other values) and a new logo apart', async () => {
    const org = await organization('Profile Co');
    const id = org.organization.id;
    await ok('PUT', `/api/organizations/${id}`, org.member.auth, { name: 'Profile Company' });
    await ok('PUT', `/api/organizations/${id}`, org.member.auth, { description: 'We certify things.' });
    await ok('PUT', `/api/organizations/${id}`, org.member.auth, { description: 'We certify things.' }); // unchanged
    const upload = multipart([
      { name: 'purpose', value: 'logo' },
      { name: 'file', value: png, filename: 'logo.png', type: 'image/png' },
    ]);
    const logo = await ok(
      'POST',
      '/api/media/upload',
      { ...org.headers, 'content-type': upload.contentType },
      upload.payload,
    );
    await ok('PUT', `/api/organizations/${id}`, org.member.auth, { logo: logo.id });
    const events = (await log(org.headers, '&filter.target_type=organization')).results;
    expect(events.map((e) => [e.action, e.target.label, e.details])).toEqual([
      ['organization.logo_changed', 'Profile Company', { media_id: logo.id }],
      ['organization.updated', 'Profile Company', { fields: ['description'] }],
      ['organization.updated', 'Profile Company', { fields: ['name'], name: 'Profile Company' }],
      ['organization.created', 'Profile Co', { name: 'Profile Co' }],
    ]);
  });

  it('records KYB submitted by a member, approved by an administrator (USER) and rejected by the admin CLI (SYSTEM)', async () => {
    const admin = await buildUser(t, { email: 'admin@example.com', firstName: 'Ida' });
    const submit = async (who: Awaited<ReturnType<typeof buildUser>>, organizationId: string) => {
      const headers = { ...who.auth, currentidentity: organizationId };
      const document = multipart([
        { name: 'purpose', value: 'kyb_document' },
        { name: 'file', value: pdf, filename: 'registry.pdf', type: 'application/pdf' },
      ]);
      const media = await ok(
        'POST',
        '/api/media/upload',
        { ...headers, 'content-type': document.contentType },
        document.payload,
      );
      return ok('POST', `/api/kyb/${organizationId}`, who.auth, { documents: [media.id] });
    };
    const approvedMember = await buildUser(t);
    const approvedOrg = await buildOrganization(t, approvedMember.user.id, 'To Approve');
    const approved = await submit(approvedMember, approvedOrg.id);
    await ok('POST', `/api/kyb-reviews/${approved.id}/approve`, admin.auth);
    const rejectedMember = await buildUser(t);
    const rejectedOrg = await buildOrganization(t, rejectedMember.user.id, 'To Reject');
    const rejected = await submit(rejectedMember, rejectedOrg.id);
    const deps = { db: db(), config: t.config, secretBox: t.runtime.ctx.secretBox, jobs: t.runtime.ctx.jobs };
    await adminCommands['kyb reject']!.run(deps, { id: rejected.id, reason: 'The registry extract is unreadable.' });

    const approvedEvents = (
      await log({ ...approvedMember.auth, currentidentity: approvedOrg.id }, '&filter.target_type=kyb_application')
    ).results;
    expect(approvedEvents.map((e) => [e.action, e.actor])).toEqual([
      ['kyb.approved', { type: 'USER', id: admin.user.id, label: 'Ida Lovelace' }],
      ['kyb.submitted', { type: 'USER', id: approvedMember.user.id, label: 'Ada Lovelace' }],
    ]);
    expect(approvedEvents[1]?.details).toEqual({ document_count: 1 });
    const rejectedEvents = (
      await log({ ...rejectedMember.auth, currentidentity: rejectedOrg.id }, '&filter.action=kyb.rejected')
    ).results;
    expect(rejectedEvents).toEqual([
      expect.objectContaining({
        actor: { type: 'SYSTEM', id: null, label: 'admin CLI' },
        target: { type: 'kyb_application', id: rejected.id, label: 'To Reject' },
        details: { reason: 'The registry extract is unreadable.' },
      }),
    ]);
  });
});

describe('nothing is recorded for a change that did not happen', () => {
  let org: Org;
  let count: () => Promise<number>;
  beforeAll(async () => {
    org = await organization('Strict Co');
    count = async () => (await storedEvents(org.organization.id)).length;
  });

  it('records nothing for requests refused by validation or not found', async () => {
    const before = await count();
    const refused = [
      await call('POST', '/api/schemas', org.headers, { name: '', attributes: [] }),
      await call('POST', '/api/credentials/with-recipient', org.headers, {
        credential: { name: 'X', schema_id: org.schemaRecord.schema.id, claims: { employee: 'x', years: 'many' } },
        recipient: { email: 'x@example.com', first_name: 'X', last_name: 'Y' },
      }),
      await call('PATCH', '/api/credentials/revoke', org.headers, { credentials: [crypto.randomUUID()] }),
      await call('DELETE', `/api/verifications/${crypto.randomUUID()}`, org.headers),
      await call('POST', '/api/webhooks', org.headers, { url: 'ftp://nope', events: ['credential.claimed'] }),
      await call('PUT', `/api/integrations/keys/${crypto.randomUUID()}`, org.headers, { name: 'X' }),
      await call('DELETE', `/api/trust-anchors/${crypto.randomUUID()}`, org.headers),
      await call('PUT', `/api/organizations/${org.organization.id}`, org.member.auth, { name: '' }),
    ];
    expect(refused.map((r) => r.statusCode >= 400 && r.statusCode < 500)).toEqual(refused.map(() => true));
    expect(await count()).toBe(before);
  });

  it('records nothing when the change rolls back after its event was written', async () => {
    const credential = await issue(org, org.headers);
    await ok('POST', '/api/webhooks', org.headers, {
      url: 'https://hooks.example.com/x',
      events: ['credential.revoked'],
    });
    // The revocation writes its audit events, then its webhook deliveries: make the latter fail.
    await db().execute(sql`
      create function fail_deliveries() returns trigger language plpgsql as $$
      begin raise exception 'delivery store unavailable'; end; $$`);
    await db().execute(
      sql`create trigger fail_deliveries before insert on webhook_deliveries for each row execute function fail_deliveries()`,
    );
    try {
      const before = await count();
      const response = await call('PATCH', '/api/credentials/revoke', org.headers, { credentials: [credential.id] });
      expect(response.statusCode).toBe(500);
      expect(await count()).toBe(before);
      expect((await ok('GET', `/api/credentials/${credential.id}`, org.headers)).status).not.toBe('REVOKED');
    } finally {
      await db().execute(sql`drop trigger fail_deliveries on webhook_deliveries`);
      await db().execute(sql`drop function fail_deliveries()`);
    }
  });

  it('keeps no change whose event cannot be written (a committed change always has its event)', async () => {
    await db().execute(sql`
      create function fail_audit() returns trigger language plpgsql as $$
      begin if new.target_label = 'Unloggable' then raise exception 'audit store unavailable'; end if; return new; end; $$`);
    await db().execute(
      sql`create trigger fail_audit before insert on audit_events for each row execute function fail_audit()`,
    );
    try {
      const response = await call('POST', '/api/schemas', org.headers, {
        name: 'Unloggable',
        attributes: [{ name: 'a', type: 'TEXT' }],
      });
      expect(response.statusCode).toBe(500);
      const rows = await db().execute(sql`select id from credential_schemas where name = 'Unloggable'`);
      expect((rows as unknown as { rows: unknown[] }).rows).toEqual([]);
    } finally {
      await db().execute(sql`drop trigger fail_audit on audit_events`);
      await db().execute(sql`drop function fail_audit()`);
    }
  });

  it('refuses to rewrite the log: UPDATE on audit_events fails in the database', async () => {
    const [event] = await storedEvents(org.organization.id);
    // The database's own message (drizzle wraps it as the cause of "Failed query").
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'accepted',
        (err: { cause?: { message?: string }; message: string }) => err.cause?.message ?? err.message,
      );
    expect(
      await refusal(
        db().execute(sql`update audit_events set action = 'credential.deleted' where id = ${event!.id as string}`),
      ),
    ).toMatch(/audit_events is append-only/);
    expect(
      await refusal(
        db().execute(
          sql`update audit_events set actor_label = 'Someone else' where organization_id = ${org.organization.id}`,
        ),
      ),
    ).toMatch(/audit_events is append-only/);
    const [after] = await storedEvents(org.organization.id);
    expect(after).toEqual(event);
  });
});

describe('no claim value, e-mail, message or secret in any event', () => {
  it('scans every event recorded by the whole scenario', async () => {
    const rows = await db().execute(sql`select * from audit_events`);
    const all = (rows as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(all.length).toBeGreaterThan(40);
    const text = JSON.stringify(all);
    const forbidden = [CLAIM_VALUE, MAIL_NOTE, RECIPIENT_EMAIL, ...secrets];
    expect(secrets.length).toBeGreaterThan(5);
    expect(forbidden.filter((value) => value && text.includes(value))).toEqual([]);
    expect(pins).toHaveLength(1);
    expect(pins.filter((pin) => text.includes(`"${pin}"`))).toEqual([]);
    // Nor any secret-looking value: API key secrets (cs_), webhook secrets (whsec_), PEM bodies, JWTs.
    expect(text).not.toMatch(/cs_[A-Za-z0-9_-]{20}|whsec_|BEGIN CERTIFICATE|eyJ[A-Za-z0-9_-]{10,}\./);
  });
});

describe('reading the log: filters, paging, isolation', () => {
  let org: Org;
  let other: Org;
  beforeAll(async () => {
    org = await organization('Paging Co');
    other = await organization('Other Co');
    for (let i = 0; i < 12; i += 1) {
      await ok('POST', '/api/schemas', i % 3 === 0 ? org.keyAuth : org.headers, {
        name: `Schema ${i}`,
        attributes: [{ name: 'a', type: 'TEXT' }],
      });
    }
    await issue(other, other.headers);
  });

  it('pages newest first, 10 by default and at most 100', async () => {
    const first = await ok('GET', '/api/audit-events', org.headers);
    // organization.created, credential_schema.created (harness), api_key.created, then the 12 schemas.
    expect(first).toMatchObject({ total: 15, total_exact: true, page: 1, limit: 10 });
    expect(first.results).toHaveLength(10);
    expect(first.results[0].target.label).toBe('Schema 11');
    const second = await ok('GET', '/api/audit-events?page=2', org.headers);
    expect(second.results).toHaveLength(5);
    expect(second.results.at(-1).action).toBe('organization.created');
    const ids = [...first.results, ...second.results].map((e: AuditEvent) => e.id);
    expect(new Set(ids).size).toBe(15);
    const times = [...first.results, ...second.results].map((e: AuditEvent) => Date.parse(e.occurred_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await call('GET', '/api/audit-events?limit=101', org.headers)).statusCode).toBe(400);
    expect((await call('GET', '/api/audit-events?page=0', org.headers)).statusCode).toBe(400);
  });

  it('counts up to 10,000 events (total_exact false beyond) and pages at most 1,000 deep', async () => {
    const big = await organization('Busy Co');
    await db().execute(sql`
      insert into audit_events (organization_id, occurred_at, actor_type, action, target_type, target_id, target_label)
      select ${big.organization.id}::uuid, now() - make_interval(secs => g), 'SYSTEM', 'credential_import.completed',
        'credential_import', gen_random_uuid()::text, 'Bulk ' || g
      from generate_series(1, 10050) g`);
    const capped = await ok('GET', '/api/audit-events', big.headers);
    expect(capped).toMatchObject({ total: 10_000, total_exact: false });
    expect(capped.results).toHaveLength(10);
    const deepest = await ok('GET', '/api/audit-events?page=1000&limit=10', big.headers);
    expect(deepest.results).toHaveLength(10);
    expect((await call('GET', '/api/audit-events?page=1001', big.headers)).statusCode).toBe(400);
    // A narrower question is counted exactly.
    const recent = await ok('GET', '/api/audit-events?filter.action=api_key.created', big.headers);
    expect(recent).toMatchObject({ total: 1, total_exact: true });
  });

  it('filters by action, category, actor, target and time', async () => {
    const total = async (query: string) => (await ok('GET', `/api/audit-events?${query}`, org.headers)).total;
    expect(await total('filter.action=credential_schema.created')).toBe(13);
    expect(await total('filter.action=api_key.created,organization.created')).toBe(2);
    expect(await total('filter.action=organization.*')).toBe(1);
    expect(await total('filter.action=integrations.*,credential_schemas.*')).toBe(14);
    expect(await total('filter.actor_type=API_KEY')).toBe(4);
    expect(await total(`filter.actor_id=${org.key.id}`)).toBe(4);
    expect(await total(`filter.actor_id=${org.member.user.id}`)).toBe(11);
    expect(await total(`filter.target_type=organization&filter.target_id=${org.organization.id}`)).toBe(1);
    expect(await total(`filter.target_id=${org.key.id}`)).toBe(1);
    const all = (await ok('GET', '/api/audit-events?limit=100', org.headers)).results as AuditEvent[];
    const middle = all[7]!.occurred_at;
    const newer = all.filter((e) => e.occurred_at >= middle).length;
    expect(await total(`filter.from=${encodeURIComponent(middle)}`)).toBe(newer);
    expect(await total(`filter.to=${encodeURIComponent(middle)}`)).toBe(15 - newer);
    expect(await total('filter.from=2000-01-01&filter.to=2000-01-02')).toBe(0);
    for (const bad of [
      'filter.action=credential.exploded',
      'filter.action=nope.*',
      'filter.actor_type=ROBOT',
      'filter.actor_id=not-a-uuid',
      'filter.target_type=planet',
      'filter.from=yesterday',
      'filter.from=2026-02-01&filter.to=2026-01-01',
    ]) {
      const response = await call('GET', `/api/audit-events?${bad}`, org.headers);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().code).toBe('REQUEST_INVALID');
    }
  });

  it('is documented in OpenAPI, with the security of the other organization routes and every filter', async () => {
    const spec = (await t.app.inject({ url: '/api/docs/json' })).json();
    const operation = spec.paths['/api/audit-events'].get;
    // Admins only: the log names members; API keys (member rights) may not read it.
    expect(operation.security).toEqual([{ bearer: [], currentIdentity: [] }]);
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        'page',
        'limit',
        'filter.action',
        'filter.actor_type',
        'filter.actor_id',
        'filter.target_type',
        'filter.target_id',
        'filter.from',
        'filter.to',
      ]),
    );
  });

  it("never shows another organization's events to its admins, and none to API keys", async () => {
    const otherCredential = (await log(other.headers, '&filter.action=credential.issued')).results[0]!;
    expect((await call('GET', '/api/audit-events', org.keyAuth)).statusCode).toBe(401);
    for (const headers of [org.headers]) {
      const page = await log(headers);
      expect(page.results.every((e) => !JSON.stringify(e).includes('Other Co'))).toBe(true);
      const targeted = await log(headers, `&filter.target_id=${otherCredential.target.id}`);
      expect(targeted).toMatchObject({ results: [], total: 0 });
      const byActor = await log(headers, `&filter.actor_id=${other.member.user.id}`);
      expect(byActor.total).toBe(0);
    }
    const foreign = await call('GET', '/api/audit-events', {
      ...org.member.auth,
      currentidentity: other.organization.id,
    });
    expect(foreign.statusCode).toBe(403);
    const keyForeign = await call('GET', '/api/audit-events', {
      ...org.keyAuth,
      currentidentity: other.organization.id,
    });
    expect(keyForeign.statusCode).toBe(401);
    expect((await call('GET', '/api/audit-events', {})).statusCode).toBe(401);
    expect((await call('GET', '/api/audit-events', org.member.auth)).statusCode).toBe(400);
  });
});

describe('a credential as a target, in SQL and in TypeScript', () => {
  it('labels and details a credential alike in both (the claim statement writes them in SQL)', async () => {
    const target = credentialTargetSql('c');
    const cases: [string, string, string][] = [
      ['Work Certificate', 'Hana', 'Sato'],
      ['Work Certificate', '', ''],
      ['Library card', 'Ada', ''],
      ['Library card', '', 'Lovelace'],
      ['Membership', '  Kim ', ' Lee  '],
      ['Membership', '   ', 'Lee'],
      ['証明書', '花子', '佐藤'],
      ['N'.repeat(250), 'Very-long-first-name'.repeat(3), 'Very-long-last-name'.repeat(3)],
    ];
    for (const [name, recipientFirstName, recipientLastName] of cases) {
      const result = await db().execute(
        sql`select ${sql.raw(target.label)} as "label", ${sql.raw(target.details)} as "details"
              from (select ${name}::text as name, ${recipientFirstName}::text as recipient_first_name,
                           ${recipientLastName}::text as recipient_last_name) c`,
      );
      const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
        label: string;
        details: unknown;
      }[];
      const expected = credentialTarget({ id: 'x', name, recipientFirstName, recipientLastName });
      // As recordAuditEvent stores it: the label cut to its longest form.
      expect(row).toEqual({ label: expected.target.label.slice(0, AUDIT_LABEL_MAX), details: expected.details });
    }
  });
});
