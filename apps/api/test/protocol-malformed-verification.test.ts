import { decodeJwt, generateEs256KeyPair, verifyJwtSignature, x5cLeafJwk } from '@cp/credentials';
import { CompactEncrypt, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { expectOAuthError } from './support/oauth-errors.ts';
import { claimCredential, type Holder, makeHolder, presentCredential, resolveRequest } from './support/wallet.ts';

/**
 * An attacker's view of the OpenID4VP endpoints (the request object by reference, GET or POST, and the
 * response endpoint): malformed ids, bodies, content types, oversized and mistyped values, downgrades and
 * forged encryption. Each is answered with an OAuth error `{error, error_description}` and its status, never
 * a 500 or problem+json, and a refused answer leaves the attempt open for the real one.
 */

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let credential: string;
let verificationId: string;

const FORM = 'application/x-www-form-urlencoded';

beforeAll(async () => {
  t = await startTestApp();
  issuer = await buildVerifiedOrganization(t, 'Malformed Verifier', {
    name: 'Membership',
    attributes: [{ name: 'member_name', type: 'TEXT' }],
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: { name: 'Membership', schema_id: issuer.schemaRecord.schema.id, claims: { member_name: 'Ada' } },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  holder = await makeHolder();
  credential = await claimCredential(t, connect.connection_url, holder);
  const verification = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: { name: 'Members', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI', attributes: [] },
  });
  expect(verification.statusCode, verification.body).toBe(201);
  verificationId = verification.json().id;
});
afterAll(async () => {
  await t?.close();
});

/** A new attempt: its id and the `openid4vp://` link. */
async function startAttempt() {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const connect = (await t.app.inject({ url: `/api/verifications/${id}/connect` })).json();
  return { id, link: connect.connection_url as string };
}

const status = async (id: string) => (await t.app.inject({ url: `/api/verifications/${id}/verify` })).json().status;

const respond = (id: string, payload: string | object, headers: Record<string, string> = { 'content-type': FORM }) =>
  t.app.inject({ method: 'POST', url: `/oid4vp/responses/${id}`, headers, payload: payload as string });

/** A JWE of `answer` for the key in `jwk` (the attempt's, or another one). */
async function encrypt(answer: object, jwk: JsonWebKey & { kid?: string }) {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(answer)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', ...(jwk.kid ? { kid: jwk.kid } : {}) })
    .encrypt(await importJWK(jwk, 'ECDH-ES'));
}

describe('request object endpoint', () => {
  it('answers an unknown or malformed request id with 404 invalid_request_uri', async () => {
    expectOAuthError(
      await t.app.inject({ url: `/oid4vp/requests/${crypto.randomUUID()}` }),
      404,
      'invalid_request_uri',
    );
    expectOAuthError(await t.app.inject({ url: '/oid4vp/requests/garbage' }), 404, 'invalid_request_uri');
    const post = await t.app.inject({ method: 'POST', url: '/oid4vp/requests/garbage' });
    expectOAuthError(post, 404, 'invalid_request_uri');
  });

  it('puts the wallet_nonce a wallet POSTs into the signed request object (OpenID4VP §5.10)', async () => {
    const { id, link } = await startAttempt();
    const clientId = new URL(link).searchParams.get('client_id');
    const metadata = { vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'] } } };
    const response = await t.app.inject({
      method: 'POST',
      url: `/oid4vp/requests/${id}`,
      headers: { 'content-type': FORM },
      payload: new URLSearchParams({
        wallet_nonce: 'n-0S6_WzA2Mj',
        wallet_metadata: JSON.stringify(metadata),
      }).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/oauth-authz-req+jwt');
    const { header, payload } = decodeJwt(response.body);
    expect(header.typ).toBe('oauth-authz-req+jwt');
    expect(await verifyJwtSignature(response.body, await x5cLeafJwk(header.x5c as string[]))).toBe(true);
    expect(payload).toMatchObject({
      wallet_nonce: 'n-0S6_WzA2Mj',
      client_id: clientId,
      response_mode: 'direct_post.jwt',
      aud: 'https://self-issued.me/v2',
    });
    // A GET has no wallet nonce.
    const get = await t.app.inject({ url: `/oid4vp/requests/${id}` });
    expect(decodeJwt(get.body).payload.wallet_nonce).toBeUndefined();
  });

  it('refuses malformed wallet metadata, an oversized wallet_nonce and a JSON body with invalid_request', async () => {
    const { id } = await startAttempt();
    const post = (payload: string, contentType = FORM) =>
      t.app.inject({
        method: 'POST',
        url: `/oid4vp/requests/${id}`,
        headers: { 'content-type': contentType },
        payload,
      });
    const forms: Record<string, string>[] = [
      { wallet_metadata: 'not json' },
      { wallet_metadata: JSON.stringify({ vp_formats_supported: 'dc+sd-jwt' }) },
      { wallet_metadata: JSON.stringify({ client_id_prefixes_supported: 'x509_hash' }) },
      { wallet_nonce: 'n'.repeat(201) },
    ];
    for (const form of forms) {
      expectOAuthError(await post(new URLSearchParams(form).toString()), 400, 'invalid_request');
    }
    expectOAuthError(await post('wallet_nonce=a&wallet_nonce=b'), 400, 'invalid_request');
    expectOAuthError(await post(JSON.stringify({ wallet_nonce: 'x' }), 'application/json'), 400, 'invalid_request');
    // None of them used up the request.
    expect((await t.app.inject({ url: `/oid4vp/requests/${id}` })).statusCode).toBe(200);
  });
});

describe('response endpoint', () => {
  it('answers an unknown or malformed attempt id with 404 invalid_request', async () => {
    expectOAuthError(await respond(crypto.randomUUID(), 'response=a.b.c.d.e'), 404, 'invalid_request');
    expectOAuthError(await respond('garbage', 'response=a.b.c.d.e'), 404, 'invalid_request');
  });

  it('refuses a JSON body, no content type and other content types, leaving the attempt open', async () => {
    const { id, link } = await startAttempt();
    const request = await resolveRequest(t, link);
    const jwe = await encrypt(
      { vp_token: { credential: ['x'] }, state: request.payload.state },
      request.payload.client_metadata.jwks.keys[0] as JsonWebKey,
    );
    expectOAuthError(
      await respond(id, { response: jwe }, { 'content-type': 'application/json' }),
      400,
      'invalid_request',
    );
    expectOAuthError(await respond(id, `response=${jwe}`, {}), 400, 'invalid_request');
    expectOAuthError(await respond(id, `response=${jwe}`, { 'content-type': 'text/plain' }), 400, 'invalid_request');
    expect(await status(id)).toBe('REQUESTED');
  });

  it('refuses repeated parameters, oversized values and bodies, leaving the attempt open', async () => {
    const { id, link } = await startAttempt();
    await resolveRequest(t, link);
    expectOAuthError(await respond(id, 'response=a.b.c.d.e&response=a.b.c.d.e'), 400, 'invalid_request');
    expectOAuthError(await respond(id, `state=${'s'.repeat(501)}&error=access_denied`), 400, 'invalid_request');
    expectOAuthError(await respond(id, `response=${'a'.repeat(200_001)}`), 400, 'invalid_request');
    expectOAuthError(await respond(id, `response=${'a'.repeat(500_000)}`), 413, 'invalid_request');
    expect(await status(id)).toBe('REQUESTED');
  });

  it('refuses what is not a JWE to this attempt: plain answers (downgrade), other keys, bad state', async () => {
    const { id, link } = await startAttempt();
    const request = await resolveRequest(t, link);
    const state = request.payload.state;
    const answer = { vp_token: { credential: ['x~y~'] }, state };
    const other = await generateEs256KeyPair();
    const cases = [
      new URLSearchParams({ vp_token: JSON.stringify(answer.vp_token), state }).toString(),
      'response=not-a-jwe',
      // A signed JWT is not an encrypted response.
      'response=eyJhbGciOiJFUzI1NiJ9.e30.c2ln',
      `response=${await encrypt(answer, { ...other.publicJwk, kid: 'other' })}`,
      `response=${await encrypt({ ...answer, state: 'wrong' }, request.payload.client_metadata.jwks.keys[0] as JsonWebKey)}`,
      `response=${await encrypt({ state }, request.payload.client_metadata.jwks.keys[0] as JsonWebKey)}`,
      // A decline with another attempt's state, or none.
      'error=access_denied&state=wrong',
      'error=access_denied',
    ];
    for (const payload of cases) {
      expectOAuthError(await respond(id, payload), 400, 'invalid_request');
    }
    expect(await status(id)).toBe('REQUESTED');
    // The real answer is still taken, once.
    expect((await presentCredential(t, link, credential, holder)).status).toBe(200);
    expect(await status(id)).toBe('VERIFIED');
    expectOAuthError(await respond(id, 'error=access_denied&state=x'), 400, 'invalid_request');
  });
});
