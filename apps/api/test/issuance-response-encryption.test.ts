import {
  createHolderKey,
  createKeyProof,
  type HolderKey,
  receiveCredential,
  requestAccessToken,
  requestNonce,
  resolveCredentialOffer,
} from '@cp/holder';
import { compactDecrypt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { expectOAuthError } from './support/oauth-errors.ts';
import { fetchOf, walletHttp } from './support/wallet.ts';

/**
 * Credential response encryption (OpenID4VCI 1.0 §8.2, §8.3, §12.2.4; HAIP 1.0), from the wallet's and from an
 * attacker's side: asked for, the response is a JWE only the request's key opens, holding the SD-JWT VC; every
 * malformed or unsupported parameter is `invalid_encryption_parameters` and spends nothing (the same proof and
 * offer still deliver); not asked for, the response stays plain JSON; a plaintext answer to a wallet that asked
 * for encryption (a downgrade) is refused by @cp/holder.
 */

let t: TestApp;
let org: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let issuer: string;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_ISSUER_PER_MINUTE: '10000' } });
  org = await buildVerifiedOrganization(t, 'Sealed Club', {
    name: 'Membership',
    attributes: [{ name: 'full_name', type: 'TEXT' }],
  });
  issuer = `${t.config.publicUrl}/orgs/${org.organization.id}`;
});
afterAll(async () => {
  await t?.close();
});

/** A fresh offer's link. */
async function offerLink() {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: org.headers,
    payload: {
      credential: {
        name: 'Membership of Ada',
        schema_id: org.schemaRecord.schema.id,
        claims: [{ name: 'full_name', value: 'Ada Lovelace' }],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = await walletHttp(t)(`${t.config.publicUrl}/api/credentials/${created.json().id}/connect`);
  return connect.json().connection_url as string;
}

/** A Bearer access token and one key proof with a fresh nonce, made through @cp/holder, for hand-made requests. */
async function tokenAndProof(holder: HolderKey) {
  const fetch = fetchOf(t);
  const issuance = await resolveCredentialOffer(await offerLink(), { fetch });
  const token = await requestAccessToken(issuance, {}, { fetch });
  const nonce = await requestNonce(issuance.issuerMetadata, undefined, { fetch });
  const proof = await createKeyProof(issuance, holder, nonce, { fetch });
  return { accessToken: token.access_token, configurationId: issuance.configurationId, proof };
}

const credentialRequest = (accessToken: string, json: object) =>
  t.app.inject({
    method: 'POST',
    url: new URL(`${issuer}/credential`).pathname,
    headers: { authorization: `Bearer ${accessToken}` },
    payload: json,
  });

async function encryptionKey() {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  return { publicJwk: { ...(await exportJWK(publicKey)), alg: 'ECDH-ES' } as JWK, privateKey };
}

describe('credential response encryption', () => {
  it('is announced in the issuer metadata, offered and not required', async () => {
    const metadata = (await walletHttp(t)(`${issuer}/.well-known/openid-credential-issuer`)).json();
    expect(metadata.credential_response_encryption).toEqual({
      alg_values_supported: ['ECDH-ES'],
      enc_values_supported: ['A128GCM', 'A256GCM'],
      encryption_required: false,
    });
  });

  it('@cp/holder asks for it with a one-time public key and reads the JWE', async () => {
    const holder = await createHolderKey();
    const seen: { request?: Record<string, unknown>; type?: string | null; body?: string }[] = [];
    const inner = fetchOf(t);
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const response = await inner(input, init);
      if (url.endsWith('/credential')) {
        seen.push({
          request: JSON.parse(String(init?.body)),
          type: response.headers.get('content-type'),
          body: await response.clone().text(),
        });
      }
      return response;
    }) as typeof globalThis.fetch;

    const received = await receiveCredential(await offerLink(), { key: holder }, { fetch });
    expect(received.parsed.payload.full_name).toBe('Ada Lovelace');

    const [exchange] = seen;
    const asked = exchange?.request?.credential_response_encryption as { jwk: JWK; enc: string };
    expect(asked.enc).toBe('A128GCM');
    expect(asked.jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ECDH-ES' });
    expect(asked.jwk).not.toHaveProperty('d');
    // The response key is not the holder key (nothing links it to the credential).
    expect(asked.jwk.x).not.toBe(holder.publicJwk.x);
    expect(exchange?.type).toMatch(/^application\/jwt/);
    expect(exchange?.body?.split('.')).toHaveLength(5);
    expect(exchange?.body).not.toContain(received.credential.split('.')[0]);
    expect(decodeProtectedHeader(exchange?.body ?? '')).toMatchObject({ alg: 'ECDH-ES', enc: 'A128GCM' });

    // A second credential: a fresh response key per request.
    await receiveCredential(await offerLink(), { key: holder }, { fetch });
    const second = seen[1]?.request?.credential_response_encryption as { jwk: JWK };
    expect(second.jwk.x).not.toBe(asked.jwk.x);
  });

  it('is a JWE only the requested key opens, holding the SD-JWT VC bound to the proven key', async () => {
    const holder = await createHolderKey();
    const { accessToken, configurationId, proof } = await tokenAndProof(holder);
    const mine = await encryptionKey();
    const response = await credentialRequest(accessToken, {
      credential_configuration_id: configurationId,
      proofs: { jwt: [proof] },
      credential_response_encryption: { jwk: { ...mine.publicJwk, kid: 'response-key' }, enc: 'A256GCM' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/jwt/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(decodeProtectedHeader(response.body)).toMatchObject({ alg: 'ECDH-ES', enc: 'A256GCM', kid: 'response-key' });

    const { plaintext } = await compactDecrypt(response.body, mine.privateKey);
    const body = JSON.parse(new TextDecoder().decode(plaintext));
    const sdJwt: string = body.credentials[0].credential;
    expect(sdJwt.split('~').length).toBeGreaterThan(1);
    const payload = JSON.parse(Buffer.from(sdJwt.split('.')[1] ?? '', 'base64url').toString());
    expect(payload.cnf.jwk.x).toBe(holder.publicJwk.x);
    expect(payload.iss).toBe(issuer);

    // Anyone else's key (the holder's own signing key included) opens nothing.
    const other = await encryptionKey();
    await expect(compactDecrypt(response.body, other.privateKey)).rejects.toThrow();
  });

  it('refuses every bad parameter with invalid_encryption_parameters, and the same proof still delivers', async () => {
    const holder = await createHolderKey();
    const { accessToken, configurationId, proof } = await tokenAndProof(holder);
    const good = await encryptionKey();
    const { d: _d, ...holderPublic } = await exportJWK(
      (await generateKeyPair('ES256', { extractable: true })).privateKey,
    );
    const privateJwk = await exportJWK(
      (await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true })).privateKey,
    );
    const p384 = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-384' })).publicKey);
    const x25519 = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'X25519' })).publicKey);
    const rsa = await exportJWK((await generateKeyPair('RSA-OAEP-256')).publicKey);
    const offCurve = { kty: 'EC', crv: 'P-256', alg: 'ECDH-ES', x: 'A'.repeat(43), y: 'B'.repeat(43) };
    const bad: unknown[] = [
      'ECDH-ES',
      [],
      { enc: 'A128GCM' },
      { jwk: 'not-a-key', enc: 'A128GCM' },
      { jwk: good.publicJwk },
      { jwk: good.publicJwk, enc: 'A256CBC-HS512' },
      { jwk: good.publicJwk, enc: 42 },
      { jwk: good.publicJwk, enc: 'A128GCM', zip: 'DEF' },
      { jwk: { ...good.publicJwk, alg: 'ECDH-ES+A128KW' }, enc: 'A128GCM' },
      { jwk: { ...good.publicJwk, alg: 'RSA-OAEP-256' }, enc: 'A128GCM' },
      { jwk: { ...good.publicJwk, alg: undefined }, enc: 'A128GCM' },
      { jwk: good.publicJwk, alg: 'ECDH-ES+A256KW', enc: 'A128GCM' },
      { jwk: { ...good.publicJwk, use: 'sig' }, enc: 'A128GCM' },
      { jwk: { ...privateJwk, alg: 'ECDH-ES' }, enc: 'A128GCM' },
      { jwk: { ...p384, alg: 'ECDH-ES' }, enc: 'A128GCM' },
      { jwk: { ...x25519, alg: 'ECDH-ES' }, enc: 'A128GCM' },
      { jwk: { ...rsa, alg: 'ECDH-ES' }, enc: 'A128GCM' },
      { jwk: { ...holderPublic, alg: 'ES256' }, enc: 'A128GCM' },
      { jwk: offCurve, enc: 'A128GCM' },
      { jwk: { ...good.publicJwk, x: 'short' }, enc: 'A128GCM' },
      { jwk: { ...good.publicJwk, y: 7 }, enc: 'A128GCM' },
    ];
    for (const encryption of bad) {
      const response = await credentialRequest(accessToken, {
        credential_configuration_id: configurationId,
        proofs: { jwt: [proof] },
        credential_response_encryption: encryption,
      });
      expectOAuthError(response, 400, 'invalid_encryption_parameters');
    }
    // Nothing was spent: not the nonce, not the offer. A plain request with the same proof gets plain JSON.
    const plain = await credentialRequest(accessToken, {
      credential_configuration_id: configurationId,
      proofs: { jwt: [proof] },
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.json().credentials[0].credential.split('~').length).toBeGreaterThan(1);
  });

  it('still answers a retried request with encryption after a refused one', async () => {
    const holder = await createHolderKey();
    const { accessToken, configurationId, proof } = await tokenAndProof(holder);
    const mine = await encryptionKey();
    const request = (encryption: object) =>
      credentialRequest(accessToken, {
        credential_configuration_id: configurationId,
        proofs: { jwt: [proof] },
        credential_response_encryption: encryption,
      });
    expectOAuthError(await request({ jwk: mine.publicJwk, enc: 'A192GCM' }), 400, 'invalid_encryption_parameters');
    const retried = await request({ jwk: mine.publicJwk, enc: 'A128GCM' });
    expect(retried.statusCode, retried.body).toBe(200);
    const { plaintext } = await compactDecrypt(retried.body, mine.privateKey);
    expect(JSON.parse(new TextDecoder().decode(plaintext)).credentials).toHaveLength(1);
  });

  it('@cp/holder refuses a plaintext answer to a request that asked for encryption (a downgrade)', async () => {
    const holder = await createHolderKey();
    const inner = fetchOf(t);
    // Someone in the middle drops the encryption parameters: the issuer answers in plain JSON.
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/credential') && typeof init?.body === 'string') {
        const { credential_response_encryption: _dropped, ...rest } = JSON.parse(init.body);
        return inner(input, { ...init, body: JSON.stringify(rest) });
      }
      return inner(input, init);
    }) as typeof globalThis.fetch;
    await expect(receiveCredential(await offerLink(), { key: holder }, { fetch })).rejects.toMatchObject({
      code: 'ISSUER_ERROR',
      message: expect.stringMatching(/plaintext/),
    });
  });
});
