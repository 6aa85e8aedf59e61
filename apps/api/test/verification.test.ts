import type { CreateVerificationRequest, Verification } from '@cp/contracts';
import { schema } from '@cp/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as keysService from '../src/modules/organization-keys/organization-keys.service.ts';
import { responseMemory } from '../src/modules/verifications/response-memory.ts';
import { buildOrganization, buildUser, buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import {
  claimCredential,
  type Holder,
  makeHolder,
  presentCredential,
  resolveRequest,
  walletHttp,
} from './support/wallet.ts';

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let credential: string;
let credentialId: string;

const attributes = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
  { name: 'member', type: 'BOOLEAN' as const },
  { name: 'joined_on', type: 'DATETIME' as const },
  { name: 'email', type: 'EMAIL' as const },
  { name: 'homepage', type: 'URL' as const },
];

async function issueAndClaim(claims: Record<string, string>) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: { name: 'Membership', schema_id: issuer.schemaRecord.schema.id, claims },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  const owner = await makeHolder();
  return {
    id: created.json().id as string,
    holder: owner,
    credential: await claimCredential(t, connect.connection_url, owner),
  };
}

const baseClaims = {
  full_name: 'Ada Lovelace',
  age: '36',
  member: 'true',
  joined_on: '2020-05-01',
  email: 'ada@example.com',
  homepage: 'https://ada.example',
};

beforeAll(async () => {
  t = await startTestApp();
  issuer = await buildVerifiedOrganization(t, 'Analytical Society', { name: 'Membership', attributes });
  ({ id: credentialId, holder, credential } = await issueAndClaim(baseClaims));
});
afterAll(async () => {
  await t?.close();
});

const attributeId = (name: string) => issuer.schemaRecord.attributes.find((a) => a.name === name)!.id;

async function createVerification(
  body: Partial<CreateVerificationRequest> & { rules?: [string, string, string][] } = {},
  headers = issuer.headers,
): Promise<Verification> {
  const { rules, ...rest } = body;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers,
    payload: {
      name: 'Members only',
      schema_id: issuer.schemaRecord.schema.id,
      type: 'MULTI',
      attributes: (rules ?? []).map(([name, operator, value]) => ({
        attribute_id: attributeId(name),
        operator,
        value,
      })),
      ...rest,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The holder page's two calls: start an attempt, then get its openid4vp:// link. */
async function startAttempt(verificationId: string, customerId?: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId, ...(customerId ? { customer_id: customerId } : {}) },
  });
  expect(created.statusCode, created.body).toBe(201);
  const individual = created.json();
  const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
  return { individual, connect };
}

const outcome = async (individualId: string) =>
  (await t.app.inject({ url: `/api/verifications/${individualId}/verify` })).json();

async function attempt(
  verification: Verification,
  options: Parameters<typeof presentCredential>[4] = {},
  vc = credential,
  who = holder,
) {
  const { individual, connect } = await startAttempt(verification.id);
  const response = await presentCredential(t, connect.connection_url, vc, who, options);
  return { individual, response, result: await outcome(individual.id) };
}

describe('OpenID4VP verifier', () => {
  it('verifies a presentation that meets the rules, over direct_post.jwt, and records every check', async () => {
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    expect(verification).toMatchObject({
      type: 'MULTI',
      status: 'ACTIVE',
      requested_claims: ['age'],
      attributes: [{ name: 'age', operator: 'BIGGER', value: '18', type: 'NUMBER' }],
      link: `${t.config.publicUrl}/connect/redirect/${verification.id}`,
    });
    // The integrator starts the attempt for its customer (its API key or a member's session) and sends the
    // holder the link it answers.
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/verifications/${verification.id}/individuals`,
      headers: issuer.headers,
      payload: { customer_id: 'customer-42' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const individual = started.json();
    expect(individual).toMatchObject({ status: 'CREATED', customer_id: 'customer-42', customer_verified: true });
    expect(individual.connection_url).toBe(`${t.config.publicUrl}/connect/verification/${individual.id}`);
    const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
    expect(connect).toMatchObject({
      status: 'CREATED',
      verifier: { name: 'Analytical Society', verified: true },
      requested_claims: ['age'],
    });
    expect(connect.connection_url).toMatch(/^openid4vp:\/\/\?client_id=x509_hash%3A/);

    const response = await presentCredential(t, connect.connection_url, credential, holder);
    expect(response.status, response.body).toBe(200);
    expect(response.json().redirect_uri).toBe(`${t.config.publicUrl}/connect/verification/${individual.id}`);
    expect(await outcome(individual.id)).toMatchObject({ status: 'VERIFIED', failed_checks: [] });

    const history = await t.app.inject({
      url: `/api/verifications/${verification.id}/individuals?page=1&limit=10`,
      headers: issuer.headers,
    });
    const [row] = history.json().results;
    expect(row).toMatchObject({
      customer_id: 'customer-42',
      status: 'VERIFIED',
      presented_claims: { age: 36 },
      issuer: `${t.config.publicUrl}/orgs/${issuer.organization.id}`,
      validation_error: null,
      customer_verified: true,
      issuer_trust: {
        admitted: true,
        reason: 'PLATFORM_VERIFIED_ORGANIZATION',
        policy: 'PLATFORM_VERIFIED',
        key_source: 'x5c',
        certificate: { anchor: { origin: 'PLATFORM_CA' } },
        organization: { id: issuer.organization.id, name: 'Analytical Society', verified: true },
      },
    });
    expect(row.issuer_trust.detail).toBe(
      'Admitted: Analytical Society is an organization of this platform that passed KYB',
    );
    // Only what was asked for was disclosed.
    expect(Object.keys(row.presented_claims)).toEqual(['age']);
    expect(row.checks.map((c: { code: string }) => c.code)).toEqual([
      'ISSUER_SIGNATURE',
      'TRUSTED_ISSUER',
      'CREDENTIAL_TYPE',
      'EXPIRY',
      'STATUS',
      'KEY_BINDING',
      'NONCE',
      'AUDIENCE',
      'FRESHNESS',
      'CLAIMS_DISCLOSED',
      'RULE',
    ]);
    // Integrators look the result up by their customer id with an API key or a session.
    const lookup = await t.app.inject({
      url: `/api/verifications/${verification.id}/individuals/customer-42`,
      headers: issuer.headers,
    });
    expect(lookup.json()).toMatchObject({ id: individual.id, status: 'VERIFIED' });
    expect(
      (await t.app.inject({ url: `/api/verifications/${verification.id}`, headers: issuer.headers })).json(),
    ).toMatchObject({ usage: { total: 1, verified: 1, failed: 0 } });
  });

  it('refuses a plain direct_post answer to a direct_post.jwt request (downgrade), and marks the request REQUESTED', async () => {
    const verification = await createVerification();
    const { individual, connect } = await startAttempt(verification.id);
    expect(individual.customer_id).toMatch(/^\d{4}-\d{4}-\d{4}$/);
    await walletHttp(t)(new URL(connect.connection_url).searchParams.get('request_uri')!);
    expect((await outcome(individual.id)).status).toBe('REQUESTED');
    const plain = await presentCredential(t, connect.connection_url, credential, holder, { mode: 'direct_post' });
    expect(plain.status).toBe(400);
    expect(plain.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/encrypted/),
    });
    // Nothing was recorded: the real, encrypted answer still completes the attempt.
    expect((await outcome(individual.id)).status).toBe('REQUESTED');
    const response = await presentCredential(t, connect.connection_url, credential, holder);
    expect(response.status).toBe(200);
    expect((await outcome(individual.id)).status).toBe('VERIFIED');
    // Asked for nothing in particular: every attribute is requested, and shown in the schema's order.
    expect(verification.requested_claims).toEqual(attributes.map((a) => a.name));
    const [row] = (
      await t.app.inject({ url: `/api/verifications/${verification.id}/individuals`, headers: issuer.headers })
    ).json().results;
    expect(Object.keys(row.presented_claims)).toEqual(attributes.map((a) => a.name));
  });

  // One rule per operator and attribute type that the credential violates.
  it.each([
    ['age', 'EQUAL', '35'],
    ['age', 'NOT', '36'],
    ['age', 'BIGGER', '36'],
    ['age', 'SMALLER', '18'],
    ['full_name', 'EQUAL', 'Charles Babbage'],
    ['full_name', 'NOT', 'Ada Lovelace'],
    ['member', 'EQUAL', 'false'],
    ['member', 'NOT', 'true'],
    ['joined_on', 'BIGGER', '2021-01-01'],
    ['joined_on', 'SMALLER', '2019-01-01'],
    ['email', 'EQUAL', 'grace@example.com'],
    ['email', 'NOT', 'ADA@example.com'],
    ['homepage', 'EQUAL', 'https://babbage.example'],
    ['homepage', 'NOT', 'https://ada.example'],
  ] as [string, string, string][])('fails the RULE check for %s %s %s', async (name, operator, value) => {
    const verification = await createVerification({ rules: [[name, operator, value]] });
    const { result, individual } = await attempt(verification);
    expect(result).toMatchObject({ status: 'FAILED', failed_checks: ['RULE'] });
    const [row] = (
      await t.app.inject({ url: `/api/verifications/${verification.id}/individuals`, headers: issuer.headers })
    ).json().results;
    expect(row.id).toBe(individual.id);
    expect(row.validation_error).toBe('RULE');
    expect(row.checks.find((c: { code: string }) => c.code === 'RULE').rule).toMatchObject({
      attribute: name,
      operator,
    });
  });

  it('passes rules that hold for each type (greater/less by number and date, equal for boolean, e-mail, URL)', async () => {
    const verification = await createVerification({
      rules: [
        ['age', 'BIGGER', '17.5'],
        ['age', 'SMALLER', '100'],
        ['joined_on', 'BIGGER', '2020-04-30'],
        ['member', 'EQUAL', 'true'],
        ['email', 'EQUAL', 'ADA@EXAMPLE.COM'],
        ['homepage', 'EQUAL', 'https://ada.example/'],
        ['full_name', 'NOT', 'Charles Babbage'],
      ],
    });
    expect((await attempt(verification)).result).toMatchObject({ status: 'VERIFIED' });
  });

  it('fails NONCE, AUDIENCE, tampered disclosures (ISSUER_SIGNATURE) and a wrong state', async () => {
    const verification = await createVerification();
    expect((await attempt(verification, { nonce: 'replayed-nonce' })).result.failed_checks).toEqual(['NONCE']);
    expect((await attempt(verification, { audience: 'x509_hash:someone-else' })).result.failed_checks).toEqual([
      'AUDIENCE',
    ]);
    const tamper = (presentation: string) => {
      const parts = presentation.split('~');
      const disclosure = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString()) as unknown[];
      disclosure[2] = 'Mallory';
      parts[1] = Buffer.from(JSON.stringify(disclosure)).toString('base64url');
      return parts.join('~');
    };
    expect((await attempt(verification, { mutate: tamper })).result.failed_checks).toEqual(['ISSUER_SIGNATURE']);
    // A wrong state is not an answer to this request: refused, nothing recorded.
    const wrongState = await attempt(verification, { state: 'another-state' });
    expect(wrongState.response.status).toBe(400);
    expect(wrongState.response.json()).toMatchObject({ error: 'invalid_request' });
    expect(wrongState.result.status).toBe('REQUESTED');
  });

  it('keeps no disclosed claims when the key binding fails', async () => {
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    const { individual } = await attempt(verification, { nonce: 'stolen-from-another-request' });
    const row = (
      await t.app.inject({
        url: `/api/verifications/${verification.id}/attempts/${individual.id}`,
        headers: issuer.headers,
      })
    ).json();
    expect(row).toMatchObject({ status: 'FAILED', presented_claims: {} });
    expect(row.checks.find((c: { code: string }) => c.code === 'RULE')).toMatchObject({
      passed: false,
      rule: { presented: null },
    });
  });

  it('fails TRUSTED_ISSUER for an issuer outside the list, and passes for the issuer’s DID', async () => {
    const untrusted = await createVerification({ trusted_issuers: ['https://someone.example/orgs/1'] });
    expect((await attempt(untrusted)).result.failed_checks).toEqual(['TRUSTED_ISSUER']);
    const did = (
      await t.app.inject({ url: `/api/organizations/${issuer.organization.id}`, headers: issuer.headers })
    ).json().did as string;
    expect(did).toMatch(/^did:web:/);
    const trusted = await createVerification({ trusted_issuers: [did] });
    expect((await attempt(trusted)).result.status).toBe('VERIFIED');
  });

  it('fails CREDENTIAL_TYPE for a credential of another schema', async () => {
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers: issuer.headers,
      payload: { name: 'Other', attributes: [{ name: 'age', type: 'NUMBER' }] },
    });
    expect(other.statusCode, other.body).toBe(201);
    const verification = await createVerification({ schema_id: other.json().id, requested_attribute_ids: [] });
    const { result } = await attempt(verification);
    expect(result.failed_checks).toContain('CREDENTIAL_TYPE');
  });

  it('fails EXPIRY for an expired credential', async () => {
    // The console issues without an expiry; this one is signed with the organization's real key and an exp.
    const verification = await createVerification();
    const expiring = await issueWithExpiry();
    const expired = await attempt(verification, {}, expiring);
    expect(expired.result.failed_checks).toEqual(['EXPIRY']);
  });

  it('fails STATUS once the credential is revoked, at once', async () => {
    const fresh = await issueAndClaim(baseClaims);
    const verification = await createVerification();
    expect((await attempt(verification, {}, fresh.credential, fresh.holder)).result.status).toBe('VERIFIED');
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: issuer.headers,
      payload: { credentials: [fresh.id] },
    });
    expect(revoke.statusCode).toBe(200);
    const revoked = await attempt(verification, {}, fresh.credential, fresh.holder);
    expect(revoked.result.failed_checks).toEqual(['STATUS']);
  });

  it('serves the signed status list from cache until any process revokes (the list revision)', async () => {
    const fresh = await issueAndClaim(baseClaims);
    const statusUrl = `/orgs/${issuer.organization.id}/status-list`;
    const first = await t.app.inject({ url: statusUrl });
    const second = await t.app.inject({ url: statusUrl });
    expect(second.body).toBe(first.body); // not rebuilt: same token, same iat
    const verification = await createVerification();
    expect((await attempt(verification, {}, fresh.credential, fresh.holder)).result.status).toBe('VERIFIED');
    // Another API process revokes: only the database changes (the row and the revision, one transaction).
    const { db } = t.runtime.ctx.database;
    await db.transaction(async (tx) => {
      await tx
        .update(schema.credentials)
        .set({ status: 'REVOKED', revokedAt: new Date() })
        .where(eq(schema.credentials.id, fresh.id));
      await tx
        .update(schema.statusLists)
        .set({ revision: sql`${schema.statusLists.revision} + 1` })
        .where(eq(schema.statusLists.organizationId, issuer.organization.id));
    });
    expect((await t.app.inject({ url: statusUrl })).body).not.toBe(first.body);
    const revoked = await attempt(verification, {}, fresh.credential, fresh.holder);
    expect(revoked.result.failed_checks).toEqual(['STATUS']);
  });

  it('opens a response to an attempt another process made (its key read from the database, not from memory)', async () => {
    const verification = await createVerification();
    const { individual, connect } = await startAttempt(verification.id);
    // The process that made the attempt keeps its key for the response; another process has only the stored one.
    expect(responseMemory.key(individual.id)).toBeDefined();
    responseMemory.forget(individual.id);
    const response = await presentCredential(t, connect.connection_url, credential, holder);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((await outcome(individual.id)).status).toBe('VERIFIED');
  });

  it('refuses an issuer that lost KYB in another process, though the last presentation admitted it a moment ago', async () => {
    // The first presentation reads the issuer organization and keeps it (verifier-trust.ts, snapshots); the next
    // one checks against what it kept, and its outcome is stored only if the organization is still so.
    const verification = await createVerification();
    expect((await attempt(verification)).result.status).toBe('VERIFIED');
    const { db } = t.runtime.ctx.database;
    const organizations = schema.organizations;
    const [before] = await db.select().from(organizations).where(eq(organizations.id, issuer.organization.id));
    await db.update(organizations).set({ verifiedAt: null }).where(eq(organizations.id, issuer.organization.id));
    try {
      const refused = await attempt(verification);
      expect(refused.result.status).toBe('FAILED');
      expect(refused.result.failed_checks).toEqual(['TRUSTED_ISSUER']);
    } finally {
      await db
        .update(organizations)
        .set({ verifiedAt: before!.verifiedAt })
        .where(eq(organizations.id, issuer.organization.id));
    }
    expect((await attempt(verification)).result.status).toBe('VERIFIED');
  });

  it('completes a single-use link once: a second attempt is refused', async () => {
    const verification = await createVerification({ type: 'SINGLE' });
    const first = await startAttempt(verification.id);
    const second = await startAttempt(verification.id);
    expect((await presentCredential(t, first.connect.connection_url, credential, holder)).status).toBe(200);
    expect((await outcome(first.individual.id)).status).toBe('VERIFIED');
    // The link is used: no new attempt, and an attempt opened before cannot complete it again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/verifications/individuals',
      payload: { verification_id: verification.id },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'VERIFICATION_ALREADY_USED' });
    const late = await walletHttp(t)(new URL(second.connect.connection_url).searchParams.get('request_uri')!);
    expect(late.status).toBe(410);
    // Refused, so not marked as fetched.
    expect((await outcome(second.individual.id)).status).toBe('CREATED');
    expect(
      (await t.app.inject({ url: `/api/verifications/${verification.id}`, headers: issuer.headers })).json(),
    ).toMatchObject({ status: 'COMPLETED' });
  });

  it('marks an attempt REQUESTED when a wallet fetches its request, once, and never one it cannot answer', async () => {
    const verification = await createVerification();
    const { individual, connect } = await startAttempt(verification.id);
    const other = await startAttempt(verification.id);
    const requestOf = (c: { connection_url: string }) => new URL(c.connection_url).searchParams.get('request_uri')!;
    const row = async (id: string) =>
      (
        await t.runtime.ctx.database.db
          .select()
          .from(schema.verificationIndividuals)
          .where(eq(schema.verificationIndividuals.id, id))
      )[0]!;
    expect((await row(individual.id)).status).toBe('CREATED');
    const before = Date.now();
    expect((await walletHttp(t)(requestOf(connect))).status).toBe(200);
    const fetched = await row(individual.id);
    expect(fetched.status).toBe('REQUESTED');
    expect(fetched.requestedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // Fetched again (a wallet retrying): the same request, the first time kept.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await walletHttp(t)(requestOf(connect))).status).toBe(200);
    expect((await row(individual.id)).requestedAt).toEqual(fetched.requestedAt);
    // The verification deleted: its attempts' requests are gone, and nothing is marked.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/verifications/${verification.id}`,
      headers: issuer.headers,
    });
    expect(deleted.statusCode).toBeLessThan(300);
    const gone = await walletHttp(t)(requestOf(other.connect));
    expect(gone.status).toBe(404);
    expect((await row(other.individual.id)).status).toBe('CREATED');
    expect((await row(other.individual.id)).requestedAt).toBeNull();
  });

  it('takes back the REQUESTED mark when the request could not be signed, and marks it when a retry is served', async () => {
    const verification = await createVerification();
    const { individual, connect } = await startAttempt(verification.id);
    const requestUri = new URL(connect.connection_url).searchParams.get('request_uri')!;
    const stored = async () =>
      (
        await t.runtime.ctx.database.db
          .select()
          .from(schema.verificationIndividuals)
          .where(eq(schema.verificationIndividuals.id, individual.id))
      )[0]!;
    // The organization's key store failing (a KMS out of reach, a key that no longer unwraps) after the attempt
    // was read and marked.
    const failing = vi
      .spyOn(keysService, 'getActiveSigner')
      .mockRejectedValueOnce(new Error('the key store is out of reach'));
    try {
      const refused = await walletHttp(t)(requestUri);
      // A server error, which says nothing of the key store to the wallet.
      expect(refused.status).toBe(500);
      expect(refused.body).not.toContain('key store');
      expect(failing).toHaveBeenCalledTimes(1);
    } finally {
      failing.mockRestore();
    }
    // No request was served: the attempt is as it was.
    expect((await stored()).status).toBe('CREATED');
    expect((await stored()).requestedAt).toBeNull();
    // The wallet retries and is served: now it is REQUESTED.
    expect((await walletHttp(t)(requestUri)).status).toBe(200);
    expect((await stored()).status).toBe('REQUESTED');
    expect((await stored()).requestedAt).not.toBeNull();
  });

  it('refuses a replayed response: the outcome is recorded once', async () => {
    const verification = await createVerification();
    const { individual, connect } = await startAttempt(verification.id);
    expect((await presentCredential(t, connect.connection_url, credential, holder)).status).toBe(200);
    const replay = await presentCredential(t, connect.connection_url, credential, holder).catch((err) => err);
    // The request itself is gone once answered.
    expect(String(replay)).toMatch(/410|expected/);
    const direct = await t.app.inject({
      method: 'POST',
      url: `/oid4vp/responses/${individual.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'vp_token=x&state=y',
    });
    expect(direct.statusCode).toBe(400);
    expect(direct.json()).toMatchObject({ error: 'invalid_request' });
    expect((await outcome(individual.id)).status).toBe('VERIFIED');
  });

  it('records a wallet that declines as FAILED with WALLET_ERROR, without using a single-use link', async () => {
    const verification = await createVerification({ type: 'SINGLE' });
    const { individual, connect } = await startAttempt(verification.id);
    const respond = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: `/oid4vp/responses/${individual.id}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    // Without this request's state, a decline is nobody's: refused.
    expect((await respond('error=access_denied')).statusCode).toBe(400);
    const { payload: request } = await resolveRequest(t, connect.connection_url);
    const declined = await respond(`error=access_denied&error_description=The+holder+declined&state=${request.state}`);
    expect(declined.statusCode).toBe(200);
    expect(await outcome(individual.id)).toMatchObject({ status: 'FAILED', failed_checks: ['WALLET_ERROR'] });
    const retry = await startAttempt(verification.id);
    expect(retry.individual.status).toBe('CREATED');
  });

  it("counts a verification's attempts in the list the console shows, as each one starts and completes", async () => {
    const verification = await createVerification({ name: 'Usage counted', rules: [['age', 'BIGGER', '18']] });
    const usage = async () => {
      const list = await t.app.inject({
        url: '/api/verifications?page=1&limit=100&type=MULTI',
        headers: issuer.headers,
      });
      expect(list.statusCode).toBe(200);
      return list.json().results.find((v: Verification) => v.id === verification.id)?.usage;
    };
    expect(await usage()).toEqual({ total: 0, verified: 0, failed: 0 });
    // A holder opened the link: an attempt, neither verified nor failed yet.
    const started = await startAttempt(verification.id);
    expect(await usage()).toEqual({ total: 1, verified: 0, failed: 0 });
    await presentCredential(t, started.connect.connection_url, credential, holder);
    expect(await usage()).toEqual({ total: 1, verified: 1, failed: 0 });
    // A credential whose age fails the rule.
    const young = await issueAndClaim({ ...baseClaims, age: '12' });
    await attempt(verification, {}, young.credential, young.holder);
    expect(await usage()).toEqual({ total: 2, verified: 1, failed: 1 });
    // The single record answers the same counts.
    const one = await t.app.inject({ url: `/api/verifications/${verification.id}`, headers: issuer.headers });
    expect(one.json().usage).toEqual({ total: 2, verified: 1, failed: 1 });
  });
});

describe('verification management: validation and isolation', () => {
  it('checks rule values by the attribute type with the spec messages', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: issuer.headers,
      payload: {
        name: 'Bad rules',
        schema_id: issuer.schemaRecord.schema.id,
        type: 'MULTI',
        attributes: [
          { attribute_id: attributeId('age'), operator: 'BIGGER', value: 'eighteen' },
          { attribute_id: attributeId('homepage'), operator: 'EQUAL', value: 'not a url' },
          { attribute_id: attributeId('email'), operator: 'EQUAL', value: 'nobody' },
          { attribute_id: attributeId('joined_on'), operator: 'SMALLER', value: '31/12/2020' },
          { attribute_id: attributeId('full_name'), operator: 'EQUAL', value: '' },
        ],
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({
      code: 'VERIFICATION_RULES_INVALID',
      errors: [
        { path: 'attributes.0.value', message: 'Must be a numeric value' },
        { path: 'attributes.1.value', message: 'Must be a valid URL' },
        { path: 'attributes.2.value', message: 'Must be a valid Email' },
        { path: 'attributes.3.value', message: 'Must be a date value' },
        { path: 'attributes.4.value', message: 'Required' },
      ],
    });
  });

  it('rejects bad input with 400 and unknown ids with 404, never 500', async () => {
    const cases: [string, string, unknown, number][] = [
      ['POST', '/api/verifications', { name: '', schema_id: 'x', type: 'SOMETIMES' }, 400],
      ['POST', '/api/verifications', { name: 'x', schema_id: crypto.randomUUID(), type: 'MULTI' }, 404],
      ['GET', '/api/verifications/not-a-uuid', undefined, 400],
      ['GET', `/api/verifications/${crypto.randomUUID()}`, undefined, 404],
      ['GET', '/api/verifications?type=SOMETIMES', undefined, 400],
      ['POST', '/api/verifications/individuals', { verification_id: 'nope' }, 400],
      ['POST', '/api/verifications/individuals', { verification_id: crypto.randomUUID() }, 404],
      ['POST', '/api/verifications/individuals', { verification_id: crypto.randomUUID(), customer_id: 'a b' }, 400],
      ['GET', `/api/verifications/${crypto.randomUUID()}/connect`, undefined, 404],
      ['GET', `/api/verifications/${crypto.randomUUID()}/verify`, undefined, 404],
    ];
    for (const [method, url, payload, status] of cases) {
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: issuer.headers,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(status);
    }
    const trusted = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: issuer.headers,
      payload: { name: 'x', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI', trusted_issuers: ['nonsense'] },
    });
    expect(trusted.statusCode).toBe(400);
    const unknownRequest = await t.app.inject({ url: `/oid4vp/requests/${crypto.randomUUID()}` });
    expect(unknownRequest.statusCode).toBe(404);
    const garbage = await t.app.inject({ url: '/oid4vp/requests/garbage' });
    expect(garbage.statusCode).toBe(404);
  });

  it('keeps organizations apart: another organization’s member sees and changes nothing', async () => {
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    const stranger = await buildUser(t);
    const strangerOrganization = await buildOrganization(t, stranger.user.id, 'Elsewhere');
    const headers = { ...stranger.auth, currentidentity: strangerOrganization.id };
    for (const [method, url, payload] of [
      ['GET', `/api/verifications/${verification.id}`],
      [
        'PUT',
        `/api/verifications/${verification.id}`,
        { name: 'x', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI' },
      ],
      ['DELETE', `/api/verifications/${verification.id}`],
      ['GET', `/api/verifications/${verification.id}/individuals`],
      ['GET', `/api/verifications/${verification.id}/individuals/customer-42`],
    ] as [string, string, object?][]) {
      const response = await t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await t.app.inject({ url: '/api/verifications', headers });
    expect(list.json()).toMatchObject({ results: [], total: 0 });
    // Its schema is not usable by another organization either.
    const foreignSchema = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers,
      payload: { name: 'x', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI' },
    });
    expect(foreignSchema.statusCode).toBe(404);
    // Asking with the issuer's organization id but without membership is refused.
    const spoofed = await t.app.inject({
      url: '/api/verifications',
      headers: { ...stranger.auth, currentidentity: issuer.organization.id },
    });
    expect([403, 404]).toContain(spoofed.statusCode);
    expect(
      (await t.app.inject({ url: `/api/verifications/${verification.id}`, headers: issuer.headers })).statusCode,
    ).toBe(200);
  });

  it('lists both types, edits (new attempts use the new rules) and deletes', async () => {
    const single = await createVerification({ name: 'One-off', type: 'SINGLE' });
    const list = await t.app.inject({ url: '/api/verifications?type=SINGLE&page=1&limit=10', headers: issuer.headers });
    expect(list.json().results.every((v: Verification) => v.type === 'SINGLE')).toBe(true);
    expect(list.json().results.map((v: Verification) => v.id)).toContain(single.id);

    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    const before = await startAttempt(verification.id);
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/verifications/${verification.id}`,
      headers: issuer.headers,
      payload: {
        name: 'Seniors',
        schema_id: issuer.schemaRecord.schema.id,
        type: 'MULTI',
        attributes: [{ attribute_id: attributeId('age'), operator: 'BIGGER', value: '65' }],
      },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Seniors', attributes: [{ value: '65' }] });
    // The attempt opened before the edit keeps its rules; a new one gets the new rules.
    await presentCredential(t, before.connect.connection_url, credential, holder);
    expect((await outcome(before.individual.id)).status).toBe('VERIFIED');
    expect((await attempt(verification)).result.failed_checks).toEqual(['RULE']);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/verifications/${verification.id}`,
      headers: issuer.headers,
    });
    expect(removed.statusCode).toBe(204);
    const gone = await t.app.inject({
      method: 'POST',
      url: '/api/verifications/individuals',
      payload: { verification_id: verification.id },
    });
    expect(gone.statusCode).toBe(404);
  });
});

// ---- helpers that need the app -------------------------------------------------------------------

/** A credential with an expiry in the past, signed by the organization's real key (the issuer has no expiry option). */
async function issueWithExpiry() {
  const { getActiveSigner } = await import('../src/modules/organization-keys/organization-keys.service.ts');
  const { issueSdJwtVc } = await import('@cp/credentials');
  const { credentialVct, issuerUrl, statusListUri } = await import('../src/modules/organization-keys/identifiers.ts');
  const signer = await getActiveSigner(t.runtime.ctx.keys, issuer.organization.id);
  const [row] = await t.runtime.ctx.database.db
    .select()
    .from(schema.credentials)
    .where(eq(schema.credentials.id, credentialId));
  const now = Math.floor(Date.now() / 1000);
  return issueSdJwtVc({
    signer: signer.signer,
    header: { kid: signer.kid, x5c: signer.x5c },
    issuer: issuerUrl(t.config.publicUrl, issuer.organization.id),
    vct: credentialVct(t.config.publicUrl, issuer.organization.id, issuer.schemaRecord.schema.slug),
    holderJwk: holder.publicJwk,
    claims: {
      full_name: 'Ada Lovelace',
      age: 36,
      member: true,
      joined_on: '2020-05-01',
      email: 'ada@example.com',
      homepage: 'https://ada.example/',
    },
    status: {
      idx: row!.statusIndex,
      uri: statusListUri(t.config.publicUrl, issuer.organization.id, row!.statusListId),
    },
    issuedAt: now - 7200,
    expiresAt: now - 3600,
  });
}
