import type { CreateVerificationRequest, Verification } from '@cp/contracts';
import { base64url, fromBase64url } from '@cp/credentials';
import { coseSignerFromPrivateJwk, issueMdoc, mdocNames } from '@cp/credentials/mdoc';
import { makeIssuerPki } from '@cp/credentials/testing';
import { postAuthorizationResponse, resolvePresentationRequest } from '@cp/holder';
import { buildMdocDeviceResponse, mdocHandover } from '@cp/holder/mdoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as credentialSchemasService from '../src/modules/credential-schemas/credential-schemas.service.ts';
import * as keysService from '../src/modules/organization-keys/organization-keys.service.ts';
import { buildOrganization, buildUser, buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import {
  claimCredential,
  claimMdoc,
  fetchOf,
  type MdocHolder,
  makeHolder,
  makeMdocHolder,
  presentCredential,
  presentMdoc,
  resolveRequest,
} from './support/wallet.ts';

/**
 * ISO mdoc verification through the real endpoints (OpenID4VP 1.0, DCQL `mso_mdoc`): a verification with
 * `format: mso_mdoc` asks for the schema's mdoc (doctype and namespace from its vct) or another issuer's
 * doctype, the holder answers with a DeviceResponse over the request's session transcript, encrypted, and the
 * verifier records every check. Then what an attacker would try.
 */

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: MdocHolder;
let mdoc: string;

const attributes = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
  { name: 'member', type: 'BOOLEAN' as const },
  { name: 'joined_on', type: 'DATETIME' as const },
];
const claimValues = { full_name: 'Ada Lovelace', age: '36', member: 'true', joined_on: '2020-05-01' };

async function offer() {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: Object.entries(claimValues).map(([name, value]) => ({ name, value })),
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  return { id: created.json().id as string, connectionUrl: connect.connection_url as string };
}

async function issueAndClaimMdoc() {
  const { id, connectionUrl } = await offer();
  const owner = await makeMdocHolder();
  return { id, holder: owner, mdoc: await claimMdoc(t, connectionUrl, owner) };
}

beforeAll(async () => {
  t = await startTestApp();
  issuer = await buildVerifiedOrganization(t, 'Mdoc Verifier Society', { name: 'Membership', attributes });
  ({ holder, mdoc } = await issueAndClaimMdoc());
});
afterAll(async () => {
  await t?.close();
});

const vct = () => `${t.config.publicUrl}/orgs/${issuer.organization.id}/vct/${issuer.schemaRecord.schema.slug}`;
const names = () => mdocNames({ vct: vct() });
const attributeId = (name: string) => issuer.schemaRecord.attributes.find((a) => a.name === name)!.id;

async function createVerification(
  body: Partial<CreateVerificationRequest> & { rules?: [string, string, string][] } = {},
): Promise<Verification> {
  const { rules, ...rest } = body;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: {
      name: 'Members only (mdoc)',
      schema_id: issuer.schemaRecord.schema.id,
      format: 'mso_mdoc',
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

async function startAttempt(verificationId: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const individual = created.json();
  const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
  return { individual, connectionUrl: connect.connection_url as string };
}

interface HistoryRow {
  status: string;
  issuer: string | null;
  presented_claims: Record<string, unknown>;
  issuer_trust: { admitted: boolean; reason: string } | null;
  checks: { code: string; passed: boolean; detail?: string }[];
}

async function historyRow(verification: Verification, individualId: string): Promise<HistoryRow> {
  const response = await t.app.inject({
    url: `/api/verifications/${verification.id}/attempts/${individualId}`,
    headers: issuer.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** One attempt answered with an mdoc: the wallet's HTTP answer and the recorded outcome. */
async function attempt(
  verification: Verification,
  options: Parameters<typeof presentMdoc>[4] = {},
  credential = mdoc,
  who = holder,
) {
  const { individual, connectionUrl } = await startAttempt(verification.id);
  const response = await presentMdoc(t, connectionUrl, credential, who, options);
  expect(response.status, response.body).toBe(200);
  return historyRow(verification, individual.id);
}

const failed = (row: HistoryRow) => row.checks.filter((c) => !c.passed).map((c) => c.code);

describe('mdoc verification of an organization schema', () => {
  it('asks by DCQL mso_mdoc (doctype_value, [namespace, element]) and verifies the answer: VERIFIED', async () => {
    const verification = await createVerification({
      rules: [['age', 'BIGGER', '18']],
      requested_attribute_ids: [attributeId('full_name')],
    });
    expect(verification.format).toBe('mso_mdoc');
    const { individual, connectionUrl } = await startAttempt(verification.id);
    const { payload } = await resolveRequest(t, connectionUrl);
    const { docType, namespace } = names();
    expect(payload.dcql_query).toEqual({
      credentials: [
        {
          id: 'credential',
          format: 'mso_mdoc',
          meta: { doctype_value: docType },
          claims: [{ path: [namespace, 'full_name'] }, { path: [namespace, 'age'] }],
        },
      ],
    });
    expect(payload.response_mode).toBe('direct_post.jwt');
    const response = await presentMdoc(t, connectionUrl, mdoc, holder);
    expect(response.status, response.body).toBe(200);
    const row = await historyRow(verification, individual.id);
    expect(failed(row)).toEqual([]);
    expect(row.status).toBe('VERIFIED');
    expect(row.presented_claims).toEqual({ full_name: 'Ada Lovelace', age: 36 });
    expect(row.issuer).toBe(`${t.config.publicUrl}/orgs/${issuer.organization.id}`);
    expect(row.issuer_trust).toMatchObject({ admitted: true, reason: 'PLATFORM_VERIFIED_ORGANIZATION' });
    expect(row.checks.map((c) => c.code)).toEqual([
      'RESPONSE_FORMAT',
      'ISSUER_SIGNATURE',
      'TRUSTED_ISSUER',
      'CREDENTIAL_TYPE',
      'EXPIRY',
      'STATUS',
      'KEY_BINDING',
      'CLAIMS_DISCLOSED',
      'RULE',
    ]);
  });

  it('evaluates rules on mdoc elements by their types (numbers, booleans, full-date dates)', async () => {
    const passing = await createVerification({
      rules: [
        ['joined_on', 'SMALLER', '2021-01-01'],
        ['member', 'EQUAL', 'true'],
        ['full_name', 'NOT', 'Eve'],
      ],
    });
    expect((await attempt(passing)).status).toBe('VERIFIED');
    const older = await createVerification({ rules: [['age', 'BIGGER', '40']] });
    const row = await attempt(older);
    expect(failed(row)).toEqual(['RULE']);
    const dated = await createVerification({ rules: [['joined_on', 'BIGGER', '2021-01-01']] });
    expect(failed(await attempt(dated))).toEqual(['RULE']);
  });

  it('fails STATUS once the credential is revoked', async () => {
    const fresh = await issueAndClaimMdoc();
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    expect((await attempt(verification, {}, fresh.mdoc, fresh.holder)).status).toBe('VERIFIED');
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: issuer.headers,
      payload: { credentials: [fresh.id] },
    });
    expect(revoke.statusCode).toBe(200);
    const row = await attempt(verification, {}, fresh.mdoc, fresh.holder);
    expect(failed(row)).toEqual(['STATUS']);
    expect(row.checks.find((c) => c.code === 'STATUS')?.detail).toMatch(/revoked/);
  });
});

describe('what an attacker tries', () => {
  it('a tampered element fails its digest (ISSUER_SIGNATURE), and nothing is disclosed', async () => {
    const verification = await createVerification({ requested_attribute_ids: [attributeId('full_name')] });
    const row = await attempt(verification, {
      mutate: (deviceResponse) => {
        const bytes = Buffer.from(fromBase64url(deviceResponse));
        const at = bytes.indexOf('Ada Lovelace');
        expect(at).toBeGreaterThan(0);
        bytes.write('Eve Lovelace', at);
        return base64url(new Uint8Array(bytes));
      },
    });
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toEqual(['ISSUER_SIGNATURE']);
    expect(row.checks.find((c) => c.code === 'ISSUER_SIGNATURE')?.detail).toMatch(/does not match its digest/);
    expect(row.presented_claims).toEqual({});
  });

  it('a device signature over another nonce fails KEY_BINDING', async () => {
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    const row = await attempt(verification, { nonce: 'a-nonce-of-another-request' });
    expect(failed(row)).toEqual(['KEY_BINDING', 'RULE']);
    expect(row.presented_claims).toEqual({});
  });

  it('a DeviceResponse made for one attempt and replayed to another fails KEY_BINDING', async () => {
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    const context = { fetch: fetchOf(t) };
    const first = await startAttempt(verification.id);
    const firstRequest = await resolvePresentationRequest(first.connectionUrl, context);
    const { namespace } = names();
    const deviceResponse = await buildMdocDeviceResponse({
      ...(await mdocHandover(firstRequest)),
      issuerSigned: mdoc,
      paths: [[namespace, 'age']],
      signer: holder.cose,
    });
    const second = await startAttempt(verification.id);
    const secondRequest = await resolvePresentationRequest(second.connectionUrl, context);
    const response = await postAuthorizationResponse(
      secondRequest,
      { vp_token: { credential: [deviceResponse] } },
      {},
      context,
    );
    expect(response.status).toBe(200);
    expect(failed(await historyRow(verification, second.individual.id))).toEqual(['KEY_BINDING', 'RULE']);
  });

  it('a device signature by another key than the MSO deviceKey fails KEY_BINDING', async () => {
    const verification = await createVerification();
    const stranger = await makeMdocHolder();
    expect(failed(await attempt(verification, { signer: stranger.cose }))).toEqual(['KEY_BINDING']);
  });

  it("another organization's doctype signed by a different organization fails CREDENTIAL_TYPE", async () => {
    const impostor = await buildVerifiedOrganization(t, 'Impostor Society', { name: 'Membership', attributes });
    const signer = await keysService.getActiveSigner(t.runtime.ctx.keys, impostor.organization.id);
    const { docType, namespace } = names();
    const forged = await issueMdoc({
      signer: { alg: 'ES256', sign: (data) => signer.signer.signBytes(data) },
      x5chain: signer.x5chain,
      docType,
      namespace,
      attributes,
      claims: { full_name: 'Ada Lovelace', age: 36, member: true, joined_on: '2020-05-01' },
      holderJwk: holder.key.publicJwk,
      validUntil: new Date(Date.now() + 86_400_000),
    });
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    const row = await attempt(verification, {}, forged);
    expect(failed(row)).toEqual(['CREDENTIAL_TYPE']);
    expect(row.checks.find((c) => c.code === 'CREDENTIAL_TYPE')?.detail).toMatch(/another organization/);
    expect(row.issuer).toBe(`${t.config.publicUrl}/orgs/${impostor.organization.id}`);
  });

  it("the platform's shared doctype from an organization that has not passed KYB fails CREDENTIAL_TYPE", async () => {
    const member = await buildUser(t);
    const unverified = await buildOrganization(t, member.user.id, 'Not Yet Verified');
    const signer = await keysService.getActiveSigner(t.runtime.ctx.keys, unverified.id);
    const shared = mdocNames({ vct: `${t.config.publicUrl}/vct/work-certificate` });
    const work = await credentialSchemasService.findPlatformCredentialSchema(
      t.runtime.ctx.database.db,
      'work-certificate',
    );
    const jobTitle = work!.attributes.find((a) => a.name === 'job_title')!;
    const issued = await issueMdoc({
      signer: { alg: 'ES256', sign: (data) => signer.signer.signBytes(data) },
      x5chain: signer.x5chain,
      ...shared,
      attributes: [{ name: 'job_title', type: 'TEXT' }],
      claims: { job_title: 'Analyst' },
      holderJwk: holder.key.publicJwk,
      validUntil: new Date(Date.now() + 86_400_000),
    });
    const verification = await createVerification({
      schema_id: work!.schema.id,
      requested_attribute_ids: [jobTitle.id],
      trust_policy: 'ANY_ISSUER',
    });
    const row = await attempt(verification, {}, issued);
    expect(failed(row)).toEqual(['CREDENTIAL_TYPE']);
    expect(row.checks.find((c) => c.code === 'CREDENTIAL_TYPE')?.detail).toMatch(/shared type/);
  });

  it('an SD-JWT VC sent to an mso_mdoc request is refused as a format downgrade', async () => {
    const { connectionUrl } = await offer();
    const sdJwtHolder = await makeHolder();
    const sdJwt = await claimCredential(t, connectionUrl, sdJwtHolder);
    const verification = await createVerification({ rules: [['age', 'BIGGER', '18']] });
    const { individual, connectionUrl: attemptUrl } = await startAttempt(verification.id);
    const response = await presentCredential(t, attemptUrl, sdJwt, sdJwtHolder, { disclose: ['age'] });
    expect(response.status, response.body).toBe(200);
    const row = await historyRow(verification, individual.id);
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toEqual(['RESPONSE_FORMAT']);
    expect(row.presented_claims).toEqual({});
  });

  it('an mdoc sent to an SD-JWT VC request is refused the same way', async () => {
    const verification = await createVerification({ format: 'dc+sd-jwt', rules: [['age', 'BIGGER', '18']] });
    expect(verification.format).toBe('dc+sd-jwt');
    const { individual, connectionUrl } = await startAttempt(verification.id);
    const { payload } = await resolveRequest(t, connectionUrl);
    expect(payload.dcql_query.credentials[0]).toMatchObject({ format: 'dc+sd-jwt' });
    const response = await presentMdoc(t, connectionUrl, mdoc, holder, { paths: [[names().namespace, 'age']] });
    expect(response.status, response.body).toBe(200);
    const row = await historyRow(verification, individual.id);
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toEqual(['RESPONSE_FORMAT']);
    expect(row.presented_claims).toEqual({});
  });
});

describe('mdocs of another issuer (external doctype)', () => {
  const FOREIGN_DOCTYPE = 'com.example.foreign.pass.1';
  const external = {
    format: 'mso_mdoc' as const,
    doctype_value: FOREIGN_DOCTYPE,
    claims: [
      {
        name: 'holder_name',
        path: ['com.example.foreign.pass.1', 'holder_name'] as [string, string],
        type: 'TEXT' as const,
      },
      { name: 'level', path: ['com.example.foreign.pass.1', 'level'] as [string, string], type: 'NUMBER' as const },
    ],
  };

  it('an x5chain from an independent CA: FAILED until its root is a trust anchor, VERIFIED after, FAILED once removed', async () => {
    const iss = 'https://foreign.example/issuers/mdoc';
    const pki = await makeIssuerPki(iss, { root: 'Foreign IACA' });
    const foreignMdoc = await issueMdoc({
      signer: await coseSignerFromPrivateJwk(pki.leaf.key.privateJwk),
      x5chain: pki.x5c,
      docType: FOREIGN_DOCTYPE,
      namespace: FOREIGN_DOCTYPE,
      attributes: [
        { name: 'holder_name', type: 'TEXT' },
        { name: 'level', type: 'NUMBER' },
      ],
      claims: { holder_name: 'Grace Hopper', level: 7 },
      holderJwk: holder.key.publicJwk,
      validUntil: new Date(Date.now() + 86_400_000),
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: issuer.headers,
      payload: {
        name: 'Foreign mdoc',
        credential: external,
        type: 'MULTI',
        trust_policy: 'TRUST_ANCHORS',
        attributes: [{ claim: 'level', operator: 'BIGGER', value: '5' }],
        requested_claims: ['holder_name'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const verification: Verification = created.json();
    expect(verification).toMatchObject({ format: 'mso_mdoc', credential: external });

    const before = await attempt(verification, {}, foreignMdoc);
    expect(before.status).toBe('FAILED');
    expect(failed(before)).toEqual(['TRUSTED_ISSUER', 'CREDENTIAL_TYPE', 'RULE']);
    expect(before.presented_claims).toEqual({});

    const anchor = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: issuer.headers,
      payload: { kind: 'CERTIFICATE', name: 'Foreign IACA', certificate_pem: pki.root.pem },
    });
    expect(anchor.statusCode, anchor.body).toBe(201);
    const after = await attempt(verification, {}, foreignMdoc);
    expect(failed(after)).toEqual([]);
    expect(after).toMatchObject({
      status: 'VERIFIED',
      issuer: iss,
      presented_claims: { holder_name: 'Grace Hopper', level: 7 },
      issuer_trust: { admitted: true, reason: 'TRUST_ANCHOR' },
    });
    // The platform's default policy still refuses an issuer that is not one of its organizations.
    const strict = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: issuer.headers,
      payload: { name: 'Foreign mdoc, platform only', credential: external, type: 'MULTI' },
    });
    expect(failed(await attempt(strict.json(), {}, foreignMdoc))).toEqual(['TRUSTED_ISSUER']);
    // The anchor removed: the next attempt (created by this process, its organization's anchors read by the
    // answer above and kept in memory) no longer admits the issuer.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/trust-anchors/${anchor.json().id}`,
      headers: issuer.headers,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const gone = await attempt(verification, {}, foreignMdoc);
    expect(gone.status).toBe('FAILED');
    expect(failed(gone)).toEqual(['TRUSTED_ISSUER', 'CREDENTIAL_TYPE', 'RULE']);
    expect(gone.presented_claims).toEqual({});
  });

  it('refuses malformed mdoc types: a path that is not [namespace, element], a format that disagrees', async () => {
    const bad = async (payload: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/verifications',
          headers: issuer.headers,
          payload: { name: 'Bad', type: 'MULTI', ...payload },
        })
      ).statusCode;
    const claim = { name: 'level', type: 'NUMBER' };
    expect(
      await bad({ credential: { ...external, claims: [{ ...claim, path: ['com.example.foreign.pass.1'] }] } }),
    ).toBe(400);
    expect(await bad({ credential: { ...external, claims: [{ ...claim, path: ['ns', 'level', 'x'] }] } })).toBe(400);
    expect(await bad({ credential: { ...external, claims: [{ ...claim, path: ['ns', 3] }] } })).toBe(400);
    expect(await bad({ credential: { ...external, doctype_value: '' } })).toBe(400);
    expect(await bad({ credential: { ...external, vct_values: ['https://x.example/vct'] } })).toBe(400);
    expect(await bad({ credential: external, format: 'dc+sd-jwt' })).toBe(400);
    expect(await bad({ schema_id: issuer.schemaRecord.schema.id, format: 'mdoc' })).toBe(400);
  });
});
