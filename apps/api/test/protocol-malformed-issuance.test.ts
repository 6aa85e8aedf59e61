import { base64url, didJwkFromJwk } from '@cp/credentials';
import { schema } from '@cp/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as nonces from '../src/modules/nonces/nonces.service.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { expectOAuthError } from './support/oauth-errors.ts';
import { type Holder, makeHolder } from './support/wallet.ts';

/**
 * An attacker's view of the OpenID4VCI endpoints (token, nonce, credential): malformed bodies, wrong content
 * types, wrong types, oversized values, unknown grants and configurations, and key proofs wrong in every part.
 * Each is answered with the standard's OAuth error and status (RFC 6749 §5.2, RFC 6750 §3.1, OpenID4VCI 1.0
 * §8.3.1.2), never a 500 or problem+json, and a refused request consumes nothing.
 */

let t: TestApp;
let org: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let other: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let issuer: string;

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const FORM = 'application/x-www-form-urlencoded';

beforeAll(async () => {
  t = await startTestApp();
  const schemaInput = { name: 'Membership', attributes: [{ name: 'member_name', type: 'TEXT' as const }] };
  org = await buildVerifiedOrganization(t, 'Malformed Club', schemaInput);
  other = await buildVerifiedOrganization(t, 'Other Club', schemaInput);
  issuer = `${t.config.publicUrl}/orgs/${org.organization.id}`;
  holder = await makeHolder();
});
afterAll(async () => {
  await t?.close();
});

/** A fresh offer of the organization: its pre-authorized code and configuration id. */
async function newOffer(of = org, extra: object = {}) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: of.headers,
    payload: {
      credential: { name: 'Membership', schema_id: of.schemaRecord.schema.id, claims: { member_name: 'Mallory' } },
      recipient: { email: 'mallory@example.com', first_name: 'Mallory', last_name: 'M' },
      ...extra,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  const offerUrl = new URL(new URL(connect.connection_url).searchParams.get('credential_offer_uri')!);
  const offer = (await t.app.inject({ url: offerUrl.pathname })).json();
  return {
    code: offer.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string,
    configurationId: offer.credential_configuration_ids[0] as string,
    txCode: created.json().tx_code as string | undefined,
  };
}

const post = (url: string, payload: string | object | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as string }),
  });

const token = (form: string, headers: Record<string, string> = { 'content-type': FORM }, orgId = org.organization.id) =>
  post(`/orgs/${orgId}/token`, form, headers);

const tokenForm = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function accessTokenFor(offer: { code: string }) {
  const response = await token(tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code }));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().access_token as string;
}

async function freshNonce(orgId = org.organization.id) {
  const response = await post(`/orgs/${orgId}/nonce`, undefined);
  expect(response.statusCode).toBe(200);
  return response.json().c_nonce as string;
}

/** A key proof from its parts, signed by `signer` whatever the header says (to forge alg and key fields). */
async function proof(
  options: { header?: Record<string, unknown>; payload?: Record<string, unknown>; signer?: Holder } = {},
) {
  const signer = options.signer ?? holder;
  const header: Record<string, unknown> = {
    alg: 'ES256',
    typ: 'openid4vci-proof+jwt',
    jwk: holder.publicJwk,
    ...options.header,
  };
  const payload: Record<string, unknown> = {
    aud: issuer,
    iat: Math.floor(Date.now() / 1000),
    nonce: await freshNonce(),
    ...options.payload,
  };
  // JSON.stringify leaves out the parts set to undefined.
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${input}.${await signer.signer.sign(input)}`;
}

const credentialRequest = (accessToken: string | undefined, body: unknown, contentType = 'application/json') =>
  post(`/orgs/${org.organization.id}/credential`, typeof body === 'string' ? body : JSON.stringify(body), {
    'content-type': contentType,
    ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
  });

describe('token endpoint: malformed requests', () => {
  it('refuses a JSON body (the token request is form-encoded) and keeps the code usable', async () => {
    const offer = await newOffer();
    const json = await post(
      `/orgs/${org.organization.id}/token`,
      { grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code },
      { 'content-type': 'application/json' },
    );
    expect(expectOAuthError(json, 400, 'invalid_request').error_description).toContain(FORM);
    await accessTokenFor(offer);
  });

  it('refuses other content types, a missing content type and an unreadable body', async () => {
    const offer = await newOffer();
    const form = tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code });
    expectOAuthError(await token(form, { 'content-type': 'text/plain' }), 400, 'invalid_request');
    expectOAuthError(await token(form, {}), 400, 'invalid_request');
    expectOAuthError(await token('{"grant_type":', { 'content-type': 'application/json' }), 400, 'invalid_request');
    await accessTokenFor(offer);
  });

  it('refuses a missing grant_type, a missing code, and wrong types (repeated parameters)', async () => {
    const offer = await newOffer();
    expectOAuthError(await token(tokenForm({ 'pre-authorized_code': offer.code })), 400, 'invalid_request');
    expectOAuthError(await token(tokenForm({ grant_type: PRE_AUTHORIZED })), 400, 'invalid_request');
    const repeated = `grant_type=${encodeURIComponent(PRE_AUTHORIZED)}&pre-authorized_code=${offer.code}&pre-authorized_code=x`;
    expectOAuthError(await token(repeated), 400, 'invalid_request');
    await accessTokenFor(offer);
  });

  it('answers unsupported_grant_type for grants it does not offer, known to OAuth or not; invalid_grant for an unknown authorization code', async () => {
    const offer = await newOffer();
    // The authorization code grant is offered (issuance-authorization-code.test.ts): a pre-authorized code sent
    // as an authorization code is just an unknown code.
    expectOAuthError(
      await token(tokenForm({ grant_type: 'authorization_code', code: offer.code })),
      400,
      'invalid_grant',
    );
    const grants: Record<string, string>[] = [
      { grant_type: 'refresh_token', refresh_token: offer.code },
      { grant_type: 'client_credentials' },
      { grant_type: 'urn:example:made-up', 'pre-authorized_code': offer.code },
    ];
    for (const fields of grants) {
      expectOAuthError(await token(tokenForm(fields)), 400, 'unsupported_grant_type');
    }
    await accessTokenFor(offer);
  });

  it('refuses oversized values and bodies', async () => {
    const offer = await newOffer();
    const long = tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': 'a'.repeat(201) });
    expectOAuthError(await token(long), 400, 'invalid_request');
    const huge = tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code, x: 'a'.repeat(20_000) });
    expectOAuthError(await token(huge), 413, 'invalid_request');
    await accessTokenFor(offer);
  });

  it('refuses a malformed organization id, a code of another organization and an unknown code', async () => {
    const offer = await newOffer();
    const form = tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code });
    expectOAuthError(await token(form, { 'content-type': FORM }, 'not-a-uuid'), 400, 'invalid_request');
    expectOAuthError(await token(form, { 'content-type': FORM }, other.organization.id), 400, 'invalid_grant');
    const unknown = tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': 'made-up' });
    expectOAuthError(await token(unknown), 400, 'invalid_grant');
    await accessTokenFor(offer);
  });

  it('refuses a tx_code the offer does not take, and a malformed DPoP header (read by @openid4vc/oauth2)', async () => {
    const offer = await newOffer();
    const withPin = tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code, tx_code: '123456' });
    expect(expectOAuthError(await token(withPin), 400, 'invalid_request').error_description).toContain('tx_code');
    const form = tokenForm({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code });
    expectOAuthError(await token(form, { 'content-type': FORM, dpop: 'not-a-jwt' }), 400, 'invalid_dpop_proof');
    await accessTokenFor(offer);
  });

  it('counts a wrong PIN as an attempt, but not a malformed request', async () => {
    const offer = await newOffer(org, { tx_code: true });
    const base = { grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.code };
    // Malformed: a PIN too long for the schema, and repeated PINs. Neither reaches the attempt counter.
    for (let i = 0; i < 6; i += 1) {
      expectOAuthError(await token(tokenForm({ ...base, tx_code: '1'.repeat(101) })), 400, 'invalid_request');
      const repeated = `${tokenForm(base)}&tx_code=1&tx_code=2`;
      expectOAuthError(await token(repeated), 400, 'invalid_request');
    }
    const good = await token(tokenForm({ ...base, tx_code: offer.txCode! }));
    expect(good.statusCode, good.body).toBe(200);
  });
});

describe('nonce endpoint', () => {
  it('answers a fresh c_nonce with its lifetime, not cached', async () => {
    const response = await post(`/orgs/${org.organization.id}/nonce`, undefined);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ c_nonce: expect.any(String), c_nonce_expires_in: expect.any(Number) });
  });

  it('refuses a malformed organization id and an oversized body', async () => {
    expectOAuthError(await post('/orgs/not-a-uuid/nonce', undefined), 400, 'invalid_request');
    const huge = await post(`/orgs/${org.organization.id}/nonce`, { x: 'a'.repeat(10_000) });
    expectOAuthError(huge, 413, 'invalid_request');
  });
});

describe('credential endpoint: malformed requests', () => {
  let offer: Awaited<ReturnType<typeof newOffer>>;
  let accessToken: string;
  beforeAll(async () => {
    offer = await newOffer();
    accessToken = await accessTokenFor(offer);
  });
  const good = async (extra: object = {}) => ({
    credential_configuration_id: offer.configurationId,
    proofs: { jwt: [await proof()] },
    ...extra,
  });

  it('asks for the access token first: 401 invalid_token with WWW-Authenticate', async () => {
    const response = await credentialRequest(undefined, await good());
    expectOAuthError(response, 401, 'invalid_token');
    expect(response.headers['www-authenticate']).toContain('invalid_token');
    expectOAuthError(await credentialRequest('made-up', await good()), 401, 'invalid_token');
  });

  it('refuses a form-encoded body, a missing content type and malformed JSON with invalid_credential_request', async () => {
    const form = new URLSearchParams({ credential_configuration_id: offer.configurationId }).toString();
    expectOAuthError(await credentialRequest(accessToken, form, FORM), 400, 'invalid_credential_request');
    expectOAuthError(
      await credentialRequest(accessToken, '{"credential_', 'application/json'),
      400,
      'invalid_credential_request',
    );
    expectOAuthError(await credentialRequest(accessToken, 'x', 'text/plain'), 400, 'invalid_credential_request');
    expectOAuthError(await credentialRequest(accessToken, [1, 2]), 400, 'invalid_credential_request');
  });

  it('refuses wrong types and a missing configuration with invalid_credential_request', async () => {
    for (const body of [
      { credential_configuration_id: 5, proofs: { jwt: [await proof()] } },
      { credential_configuration_id: offer.configurationId, proofs: 'jwt' },
      { credential_configuration_id: offer.configurationId, proofs: { jwt: 'x' } },
      { credential_configuration_id: offer.configurationId, proof: 'jwt' },
      { proofs: { jwt: [await proof()] } },
    ]) {
      expectOAuthError(await credentialRequest(accessToken, body), 400, 'invalid_credential_request');
    }
  });

  it('refuses an oversized body with 413', async () => {
    const huge = await good({ padding: 'a'.repeat(70_000) });
    expectOAuthError(await credentialRequest(accessToken, huge), 413, 'invalid_credential_request');
  });

  it('answers unknown_credential_configuration, unknown_credential_identifier and unsupported_credential_format', async () => {
    const proofs = { jwt: [await proof()] };
    expectOAuthError(
      await credentialRequest(accessToken, { credential_configuration_id: 'not-this-one', proofs }),
      400,
      'unknown_credential_configuration',
    );
    expectOAuthError(
      await credentialRequest(accessToken, { credential_identifier: 'made-up', proofs }),
      400,
      'unknown_credential_identifier',
    );
    expectOAuthError(
      await credentialRequest(accessToken, { format: 'jwt_vc_json', credential_definition: { type: ['X'] }, proofs }),
      400,
      'unsupported_credential_format',
    );
  });

  it('refuses response encryption in a form it does not offer with invalid_encryption_parameters', async () => {
    // The holder's signing key (alg ES256), an enc not offered: issuance-response-encryption.test.ts has the rest.
    for (const encryption of [
      { jwk: { ...holder.publicJwk, alg: 'ES256' }, enc: 'A128GCM' },
      { jwk: { ...holder.publicJwk, alg: 'ECDH-ES' }, enc: 'A128CBC-HS256' },
    ]) {
      const body = await good({ credential_response_encryption: encryption });
      expectOAuthError(await credentialRequest(accessToken, body), 400, 'invalid_encryption_parameters');
    }
  });

  it('refuses a missing, repeated, unreadable or non-jwt key proof with invalid_proof', async () => {
    for (const body of [
      { credential_configuration_id: offer.configurationId },
      { credential_configuration_id: offer.configurationId, proofs: { jwt: [] } },
      { credential_configuration_id: offer.configurationId, proofs: { jwt: [await proof(), await proof()] } },
      { credential_configuration_id: offer.configurationId, proofs: { jwt: ['not.a-jwt'] } },
      { credential_configuration_id: offer.configurationId, proofs: { jwt: [42] } },
      { credential_configuration_id: offer.configurationId, proofs: { attestation: ['a.b.c'] } },
      { credential_configuration_id: offer.configurationId, proof: { proof_type: 'cwt', cwt: 'x' } },
    ]) {
      expectOAuthError(await credentialRequest(accessToken, body), 400, 'invalid_proof');
    }
  });

  it('refuses proofs with a wrong typ, alg or key with invalid_proof', async () => {
    const other = await makeHolder();
    const proofs = [
      await proof({ header: { typ: 'JWT' } }),
      await proof({ header: { typ: undefined } }),
      await proof({ header: { alg: 'none' } }),
      await proof({ header: { alg: 'ES384' } }),
      await proof({ header: { alg: 'HS256' } }),
      // The header's key is not the signing key.
      await proof({ signer: other }),
      // A private key in the header, a key with kid as well, no key at all, an x5c chain.
      await proof({ header: { jwk: { ...holder.publicJwk, d: 'AAAA' } } }),
      await proof({ header: { kid: didJwkFromJwk(holder.publicJwk) } }),
      await proof({ header: { jwk: undefined } }),
      await proof({ header: { jwk: undefined, x5c: ['MIIB'] } }),
      await proof({ header: { jwk: undefined, kid: 'did:web:attacker.example#key-1' } }),
    ];
    for (const jwt of proofs) {
      const body = { credential_configuration_id: offer.configurationId, proofs: { jwt: [jwt] } };
      expectOAuthError(await credentialRequest(accessToken, body), 400, 'invalid_proof');
    }
  });

  it('refuses proofs for another audience, without iat, too old, expired or with mistyped claims, with invalid_proof', async () => {
    const now = Math.floor(Date.now() / 1000);
    const proofs = [
      await proof({ payload: { aud: 'https://elsewhere.example' } }),
      await proof({ payload: { aud: `${t.config.publicUrl}/orgs/${other.organization.id}` } }),
      await proof({ payload: { aud: undefined } }),
      await proof({ payload: { iat: undefined } }),
      await proof({ payload: { iat: now - 3600 } }),
      await proof({ payload: { iat: now + 3600 } }),
      await proof({ payload: { exp: now - 60 } }),
      // Claims of the wrong type.
      await proof({ payload: { iat: String(now) } }),
      await proof({ payload: { nonce: 42 } }),
    ];
    for (const jwt of proofs) {
      const body = { credential_configuration_id: offer.configurationId, proofs: { jwt: [jwt] } };
      expectOAuthError(await credentialRequest(accessToken, body), 400, 'invalid_proof');
    }
  });

  it('refuses a missing, unknown or foreign nonce with invalid_nonce', async () => {
    const proofs = [
      await proof({ payload: { nonce: undefined } }),
      await proof({ payload: { nonce: 'made-up' } }),
      // A nonce of the other organization's issuer.
      await proof({ payload: { nonce: await freshNonce(other.organization.id) } }),
    ];
    for (const jwt of proofs) {
      const body = { credential_configuration_id: offer.configurationId, proofs: { jwt: [jwt] } };
      expectOAuthError(await credentialRequest(accessToken, body), 400, 'invalid_nonce');
    }
  });

  it('still delivers the credential after every refusal above, once', async () => {
    const response = await credentialRequest(accessToken, await good());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ credentials: [{ credential: expect.stringMatching(/~$/) }] });
    expectOAuthError(await credentialRequest(accessToken, await good()), 400, 'credential_request_denied');
  });
});

describe('credential endpoint: a reused nonce', () => {
  it('refuses the nonce of a proof that already obtained a credential', async () => {
    const first = await newOffer();
    const second = await newOffer();
    const nonce = await freshNonce();
    const jwt = await proof({ payload: { nonce } });
    const ok = await credentialRequest(await accessTokenFor(first), {
      credential_configuration_id: first.configurationId,
      proofs: { jwt: [jwt] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await credentialRequest(await accessTokenFor(second), {
      credential_configuration_id: second.configurationId,
      proofs: { jwt: [await proof({ payload: { nonce } })] },
    });
    expectOAuthError(again, 400, 'invalid_nonce');
  });
});

describe('credential endpoint: the stateless c_nonce', () => {
  const key = () => t.runtime.ctx.deps.issuer.credentials.offerCodeKey;
  const purpose = () => `oid4vci:${org.organization.id}`;

  it('gives one credential for one nonce when two offers race with it', async () => {
    const offers = [await newOffer(), await newOffer()];
    const tokens = [await accessTokenFor(offers[0]!), await accessTokenFor(offers[1]!)];
    const nonce = await freshNonce();
    const answers = await Promise.all(
      offers.map(async (offer, i) =>
        credentialRequest(tokens[i], {
          credential_configuration_id: offer.configurationId,
          proofs: { jwt: [await proof({ payload: { nonce } })] },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expectOAuthError(answers.find((a) => a.statusCode === 400)!, 400, 'invalid_nonce');
    // The refused request consumed nothing: its offer still delivers, with a fresh nonce.
    const refused = answers.findIndex((a) => a.statusCode === 400);
    const retry = await credentialRequest(tokens[refused], {
      credential_configuration_id: offers[refused]!.configurationId,
      proofs: { jwt: [await proof()] },
    });
    expect(retry.statusCode, retry.body).toBe(200);
  });

  it('refuses a nonce altered in any byte, expired, or of another purpose, and consumes nothing', async () => {
    const offer = await newOffer();
    const accessToken = await accessTokenFor(offer);
    const good = await freshNonce();
    const bytes = Buffer.from(good, 'base64url');
    const altered = [0, 1, 4, 5, 20, 21, bytes.length - 1].map((at) => {
      const copy = Buffer.from(bytes);
      copy[at]! ^= 0x01;
      return copy.toString('base64url');
    });
    // Valid MACs from the platform's own key: already expired, and for another organization's proofs.
    const expired = nonces.issueNonce(key(), purpose(), -1);
    const foreign = nonces.issueNonce(key(), `oid4vci:${other.organization.id}`, 300);
    // A nonce made with any other key.
    const forged = nonces.issueNonce(Buffer.alloc(32, 7), purpose(), 300);
    for (const nonce of [...altered, expired, foreign, forged, `${good}A`, good.slice(1), '']) {
      const body = {
        credential_configuration_id: offer.configurationId,
        proofs: { jwt: [await proof({ payload: { nonce } })] },
      };
      expectOAuthError(await credentialRequest(accessToken, body), 400, 'invalid_nonce');
    }
    const ok = await credentialRequest(accessToken, {
      credential_configuration_id: offer.configurationId,
      proofs: { jwt: [await proof({ payload: { nonce: good } })] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('issues nonces without writing anything', async () => {
    const db = t.runtime.ctx.database.db;
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.nonces))[0]!.n;
    const before = await count();
    await freshNonce();
    await freshNonce();
    expect(await count()).toBe(before);
  });
});
