/**
 * GET /api/verifications/{id}/individuals/export: a verification's attempts as CSV, with who vouched for the
 * customer id, the outcome, why the issuer was admitted, the failed checks and one column per claim asked for.
 */
import type { Verification } from '@cp/contracts';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { basicAuth } from './security-fixtures.ts';
import { claimCredential, type Holder, makeHolder, presentCredential } from './support/wallet.ts';

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let credential: string;

const sqlOf = (text: string, values?: unknown[]) => t.runtime.ctx.database.executor.executeSql(text, values);

const FIXED = [
  'attempt_id',
  'customer_id',
  'customer_id_source',
  'customer_id_vouched',
  'status',
  'created_at',
  'verified_at',
  'failed_at',
  'issuer',
  'issuer_admitted',
  'issuer_trust_reason',
  'issuer_trust_detail',
  'failed_checks',
];

beforeAll(async () => {
  t = await startTestApp();
  issuer = await buildVerifiedOrganization(t, 'History Society', {
    name: 'Membership',
    attributes: [
      { name: 'full_name', type: 'TEXT' },
      { name: 'age', type: 'NUMBER' },
      { name: 'member', type: 'BOOLEAN' },
    ],
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: { full_name: '=1+2 Lovelace', age: '36', member: 'true' },
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  holder = await makeHolder();
  credential = await claimCredential(t, connect.connection_url, holder);
});
afterAll(async () => {
  await t?.close();
});

const attributeId = (name: string) => issuer.schemaRecord.attributes.find((a) => a.name === name)!.id;

function readCsv(body: string) {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parse(body.slice(1)) as string[][];
  return { header: header!, rows: rows.map((row) => Object.fromEntries(header!.map((c, i) => [c, row[i]!]))) };
}

async function exportOf(verificationId: string, headers: Record<string, string> = issuer.headers, query = '') {
  return t.app.inject({ url: `/api/verifications/${verificationId}/individuals/export${query}`, headers });
}

async function answer(individualId: string, options: Parameters<typeof presentCredential>[4] = {}) {
  const connect = (await t.app.inject({ url: `/api/verifications/${individualId}/connect` })).json();
  const response = await presentCredential(t, connect.connection_url, credential, holder, options);
  expect(response.status, response.body).toBe(200);
}

describe('verification history export', () => {
  it('writes each attempt with its customer binding, outcome, issuer trust, failed checks and claims', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: issuer.headers,
      payload: {
        name: 'Adults',
        schema_id: issuer.schemaRecord.schema.id,
        type: 'MULTI',
        attributes: [{ attribute_id: attributeId('age'), operator: 'BIGGER', value: '18' }],
        requested_attribute_ids: [attributeId('full_name')],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const verification = created.json() as Verification;

    // 1. The integrator's own customer (vouched for), verified; its id is a phone number a spreadsheet would
    // read as a formula.
    const vouched = (
      await t.app.inject({
        method: 'POST',
        url: `/api/verifications/${verification.id}/individuals`,
        headers: issuer.headers,
        payload: { customer_id: '+1-555-0100' },
      })
    ).json();
    await answer(vouched.id);
    // 2. An unsigned ?customer= label, answered for another request's nonce: failed.
    const labelled = (
      await t.app.inject({
        method: 'POST',
        url: '/api/verifications/individuals',
        payload: { verification_id: verification.id, customer_id: 'label-7' },
      })
    ).json();
    await answer(labelled.id, { nonce: 'not-this-request' });
    // The verification now also asks for `member`: later attempts get it, earlier ones keep what they asked.
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/verifications/${verification.id}`,
      headers: issuer.headers,
      payload: {
        name: 'Adults',
        schema_id: issuer.schemaRecord.schema.id,
        type: 'MULTI',
        attributes: [{ attribute_id: attributeId('age'), operator: 'BIGGER', value: '18' }],
        requested_attribute_ids: [attributeId('member')],
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    // 3. A generated customer id, verified with the new request; 4. one never answered.
    const generated = (
      await t.app.inject({
        method: 'POST',
        url: '/api/verifications/individuals',
        payload: { verification_id: verification.id },
      })
    ).json();
    await answer(generated.id);
    const waiting = (
      await t.app.inject({
        method: 'POST',
        url: '/api/verifications/individuals',
        payload: { verification_id: verification.id, customer_id: 'waiting' },
      })
    ).json();

    const response = await exportOf(verification.id, issuer.headers, '?timezone=Asia/Seoul');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="verification-${verification.present_id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const { header, rows } = readCsv(response.body);
    // The claims asked for now (age, member), then those only earlier attempts asked for (full_name).
    expect(header).toEqual([...FIXED, 'claim:age', 'claim:member', 'claim:full_name']);
    expect(rows.map((r) => r.attempt_id)).toEqual([waiting.id, generated.id, labelled.id, vouched.id]);
    const issuerUrl = `${t.config.publicUrl}/orgs/${issuer.organization.id}`;
    const [w, g, l, v] = rows;
    expect(v).toMatchObject({
      customer_id: "'+1-555-0100",
      customer_id_source: 'API',
      customer_id_vouched: 'true',
      status: 'VERIFIED',
      failed_at: '',
      issuer: issuerUrl,
      issuer_admitted: 'true',
      issuer_trust_reason: 'PLATFORM_VERIFIED_ORGANIZATION',
      issuer_trust_detail: 'Admitted: History Society is an organization of this platform that passed KYB',
      failed_checks: '',
      'claim:age': '36',
      'claim:member': '',
      // A disclosed value that looks like a formula is neutralised too.
      'claim:full_name': "'=1+2 Lovelace",
    });
    expect(v!.verified_at).toMatch(/\+09:00$/);
    expect(v!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+09:00$/);
    expect(l).toMatchObject({
      customer_id: 'label-7',
      customer_id_source: 'LABEL',
      customer_id_vouched: 'false',
      status: 'FAILED',
      verified_at: '',
    });
    expect(l!.failed_at).toMatch(/\+09:00$/);
    expect(l!.failed_checks!.split(' ')).toContain('NONCE');
    expect(g).toMatchObject({
      customer_id_source: 'GENERATED',
      customer_id_vouched: 'false',
      status: 'VERIFIED',
      'claim:age': '36',
      'claim:member': 'true',
      'claim:full_name': '',
    });
    expect(w).toMatchObject({
      customer_id: 'waiting',
      status: 'CREATED',
      verified_at: '',
      failed_at: '',
      issuer: '',
      issuer_admitted: '',
      failed_checks: '',
      'claim:age': '',
    });

    // A failed rule names its attribute.
    await sqlOf(
      `update verification_individuals set status = 'FAILED',
         checks = '[{"code":"RULE","passed":false,"rule":{"attribute":"age","operator":"BIGGER","value":"18","presented":15}},{"code":"STATUS","passed":false}]'
       where id = $1`,
      [generated.id],
    );
    const again = readCsv((await exportOf(verification.id)).body).rows;
    expect(again[1]).toMatchObject({ status: 'FAILED', failed_checks: 'RULE:age STATUS', verified_at: '' });
    expect(again[1]!.failed_at).toMatch(/Z$/);
  });

  it("is the organization's alone: another organization's member, API key or header answers no data", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: issuer.headers,
      payload: { name: 'Private history', schema_id: issuer.schemaRecord.schema.id, type: 'SINGLE' },
    });
    const verification = created.json() as Verification;
    await t.app.inject({
      method: 'POST',
      url: `/api/verifications/${verification.id}/individuals`,
      headers: issuer.headers,
      payload: { customer_id: 'private-customer' },
    });
    const rival = await buildVerifiedOrganization(t, 'Rival Society', {
      name: 'Other',
      attributes: [{ name: 'x', type: 'TEXT' }],
    });
    const rivalKey = (
      await t.app.inject({
        method: 'POST',
        url: '/api/integrations/keys',
        headers: rival.headers,
        payload: { name: 'Rival robot' },
      })
    ).json();
    const ownKey = (
      await t.app.inject({
        method: 'POST',
        url: '/api/integrations/keys',
        headers: issuer.headers,
        payload: { name: 'Own robot' },
      })
    ).json();
    for (const headers of [
      rival.headers,
      { authorization: basicAuth(rivalKey.key, rivalKey.secret) },
      { ...rival.member.auth, currentidentity: issuer.organization.id },
    ]) {
      const response = await exportOf(verification.id, headers);
      expect([403, 404]).toContain(response.statusCode);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body).not.toContain('private-customer');
    }
    expect((await exportOf(verification.id, rival.headers)).json().code).toBe('VERIFICATION_NOT_FOUND');
    const own = await exportOf(verification.id, { authorization: basicAuth(ownKey.key, ownKey.secret) });
    expect(own.statusCode).toBe(200);
    expect(readCsv(own.body).rows.map((r) => r.customer_id)).toEqual(['private-customer']);
    // A deleted verification's history is gone with it; a malformed id or time zone is a 400.
    await t.app.inject({ method: 'DELETE', url: `/api/verifications/${verification.id}`, headers: issuer.headers });
    expect((await exportOf(verification.id)).statusCode).toBe(404);
    expect((await exportOf('not-a-uuid')).statusCode).toBe(400);
    expect((await exportOf(verification.id, issuer.headers, '?timezone=Nowhere')).statusCode).toBe(400);
  });

  it('pages through thousands of attempts by keyset, ties on the creation instant included', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: issuer.headers,
      payload: { name: 'Busy', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI' },
    });
    const verification = created.json() as Verification;
    const first = (
      await t.app.inject({
        method: 'POST',
        url: `/api/verifications/${verification.id}/individuals`,
        headers: issuer.headers,
        payload: { customer_id: 'seed' },
      })
    ).json();
    // 1,299 more, in groups of 100 sharing one creation instant (so batches of 500 end inside a tie).
    await sqlOf(
      `insert into verification_individuals (verification_id, organization_id, customer_id, customer_binding, nonce,
         state, response_key_ciphertext, response_key_public, request, created_at)
       select verification_id, organization_id, 'bulk-' || g, 'API', nonce || g, state || g, response_key_ciphertext,
         response_key_public, request, created_at - (g / 100) * interval '1 minute'
       from verification_individuals, generate_series(1, 1299) g where id = $1`,
      [first.id],
    );
    const { rows } = readCsv((await exportOf(verification.id)).body);
    const expected = (
      await sqlOf(
        'select id from verification_individuals where verification_id = $1 order by created_at desc, id desc',
        [verification.id],
      )
    ).rows.map((r) => r.id);
    expect(rows).toHaveLength(1300);
    expect(rows.map((r) => r.attempt_id)).toEqual(expected);
  });
});
