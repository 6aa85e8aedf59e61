import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { decodeJwt, decodeSdJwtVc, presentSdJwtVc, verifyJwtSignature, x5cLeafJwk } from '@cp/credentials';
import { type Jwk, setGlobalConfig } from '@openid4vc/oauth2';
import { isOpenid4vpAuthorizationRequestDcApi, Openid4vpClient } from '@openid4vc/openid4vp';
import { base64url, CompactEncrypt, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimCredential, type Holder, makeHolder } from './support/wallet.ts';

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let credential: string;

beforeAll(async () => {
  // The test server speaks plain http on loopback; the library refuses that unless told.
  setGlobalConfig({ allowInsecureUrls: true });
  t = await startTestApp({ listen: true });
  issuer = await buildVerifiedOrganization(t, 'Interop Verifier', {
    name: 'Membership',
    attributes: [
      { name: 'full_name', type: 'TEXT' },
      { name: 'age', type: 'NUMBER' },
    ],
  });
  const created = await api('/api/credentials/with-recipient', {
    method: 'POST',
    body: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: { full_name: 'Ada Lovelace', age: 36 },
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.status).toBe(201);
  const connect = await api(`/api/credentials/${created.body.id}/connect`);
  holder = await makeHolder();
  credential = await claimCredential(t, connect.body.connection_url, holder);
});
afterAll(async () => {
  setGlobalConfig({ allowInsecureUrls: false });
  await t?.close();
});

/** The API over real HTTP, as the issuer's member (organization calls) or anonymous (holder page calls). */
async function api(path: string, init: { method?: string; body?: unknown; member?: boolean } = {}) {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.member === false ? {} : issuer.headers),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

const attributeId = (name: string) => issuer.schemaRecord.attributes.find((a) => a.name === name)!.id;

/** A verification with rules, one attempt at it, and that attempt's `openid4vp://` link. */
async function startAttempt(rules: [string, string, string][]) {
  const verification = await api('/api/verifications', {
    method: 'POST',
    body: {
      name: 'Interop check',
      schema_id: issuer.schemaRecord.schema.id,
      type: 'MULTI',
      attributes: rules.map(([name, operator, value]) => ({ attribute_id: attributeId(name), operator, value })),
    },
  });
  expect(verification.status, verification.text).toBe(201);
  const individual = await api('/api/verifications/individuals', {
    method: 'POST',
    member: false,
    body: { verification_id: verification.body.id },
  });
  expect(individual.status, individual.text).toBe(201);
  const connect = await api(`/api/verifications/${individual.body.id}/connect`, { member: false });
  expect(connect.status).toBe(200);
  return {
    verificationId: verification.body.id as string,
    individualId: individual.body.id as string,
    connectionUrl: connect.body.connection_url as string,
  };
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/** The third-party wallet: every cryptographic operation the library delegates, done with jose/node/@cp. */
const client = new Openid4vpClient({
  callbacks: {
    fetch,
    hash: (data, alg) => {
      if (alg !== 'sha-256') throw new Error(`unexpected hash ${alg}`);
      return sha256(data);
    },
    // The request object is signed with the x5c leaf; x509_hash admits no other signer method.
    verifyJwt: async (signer, { compact }) => {
      if (signer.method !== 'x5c') return { verified: false };
      const signerJwk = (await x5cLeafJwk(signer.x5c)) as Jwk;
      return (await verifyJwtSignature(compact, signerJwk as JsonWebKey))
        ? { verified: true, signerJwk }
        : { verified: false, signerJwk };
    },
    // The library requires this callback for every x509_* prefix, but reads the SANs only for
    // x509_san_dns / x509_san_uri; for x509_hash it checks the leaf's hash through `hash` instead.
    getX509CertificateMetadata: (certificate) => {
      const names = (new X509Certificate(Buffer.from(certificate, 'base64')).subjectAltName ?? '').split(', ');
      const of = (prefix: string) => names.filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
      return { sanDnsNames: of('DNS:'), sanUriNames: of('URI:') };
    },
    // direct_post.jwt: the wallet encrypts (ECDH-ES) to the request's ephemeral key; apu/apv as the library sets them.
    encryptJwe: async (encryptor, data) => {
      const jwk = encryptor.publicJwk;
      const jwe = new CompactEncrypt(new TextEncoder().encode(data)).setProtectedHeader({
        alg: encryptor.alg,
        enc: encryptor.enc,
        ...(jwk.kid ? { kid: jwk.kid } : {}),
      });
      if (encryptor.apu || encryptor.apv) {
        jwe.setKeyManagementParameters({
          ...(encryptor.apu ? { apu: base64url.decode(encryptor.apu) } : {}),
          ...(encryptor.apv ? { apv: base64url.decode(encryptor.apv) } : {}),
        });
      }
      return { jwe: await jwe.encrypt(await importJWK(jwk as JWK, encryptor.alg)), encryptionJwk: jwk };
    },
    // Never used by this wallet: the request is not encrypted and the response is encrypted, not signed.
    decryptJwe: () => ({ decrypted: false }),
    signJwt: () => {
      throw new Error('the wallet signs nothing but the key-binding JWT, which presentSdJwtVc makes');
    },
  },
});

/**
 * The whole wallet side with the library: parse the link, resolve (fetch + verify) the signed request,
 * present the credential with key binding to this request, encrypt and post the response.
 */
async function presentWithLibrary(connectionUrl: string, disclose: string[]) {
  const parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: connectionUrl });
  if (parsed.type !== 'jar') throw new Error(`expected a JAR request by reference, got ${parsed.type}`);
  const resolved = await client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
  const request = resolved.authorizationRequestPayload;
  if (isOpenid4vpAuthorizationRequestDcApi(request)) throw new Error('expected a redirect-based request, not DC API');
  const presentation = await presentSdJwtVc(credential, {
    disclose,
    keyBinding: { signer: holder.signer, audience: resolved.client.effective, nonce: request.nonce },
  });
  expect(resolved.dcql).toBeDefined();
  const query = (resolved.dcql!.query as { credentials: { id: string }[] }).credentials[0]!;
  const response = await client.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: { vp_token: { [query.id]: [presentation] } },
    jarm: {
      // Becomes the JWE `apu` (the library's mdoc-style wallet nonce); `apv` is the request nonce.
      encryption: { nonce: base64url.encode(randomBytes(16)) },
      serverMetadata: {
        authorization_signing_alg_values_supported: ['ES256'],
        authorization_encryption_alg_values_supported: ['ECDH-ES'],
        authorization_encryption_enc_values_supported: ['A128GCM'],
      },
    },
  });
  const submitted = await client.submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: response.authorizationResponsePayload,
    ...(response.jarm ? { jarm: response.jarm } : {}),
  });
  return { parsed, resolved, response, submitted };
}

describe('interoperability with a third-party OpenID4VP wallet (@openid4vc/openid4vp)', () => {
  it('resolves the signed x509_hash request, answers with direct_post.jwt, and the verifier records VERIFIED', async () => {
    const { verificationId, individualId, connectionUrl } = await startAttempt([['age', 'BIGGER', '18']]);
    const { parsed, resolved, response, submitted } = await presentWithLibrary(connectionUrl, ['age']);

    // The link is a JAR request by reference; the library fetched it and verified its signature.
    expect(parsed.params).toMatchObject({ request_uri: `${t.baseUrl}/oid4vp/requests/${individualId}` });
    expect(resolved.jar).toMatchObject({ sendBy: 'reference', signer: { method: 'x5c', alg: 'ES256' } });
    expect(resolved.version).toBe(100); // recognized as OpenID4VP 1.0, not a draft
    // x509_hash: the library checked the client id against the SHA-256 of the x5c leaf.
    const x5c = resolved.jar!.signer.method === 'x5c' ? resolved.jar!.signer.x5c : [];
    expect(resolved.client).toMatchObject({
      prefix: 'x509_hash',
      identifier: Buffer.from(sha256(Buffer.from(x5c[0]!, 'base64'))).toString('base64url'),
      effective: new URL(connectionUrl).searchParams.get('client_id'),
    });
    expect(resolved.client.effective).toMatch(/^x509_hash:[A-Za-z0-9_-]{43}$/);
    // The DCQL query asks for this schema's SD-JWT VC type and the rule's claim only.
    const { claims } = await decodeSdJwtVc(credential);
    expect(resolved.dcql?.query).toEqual({
      credentials: [
        { id: 'credential', format: 'dc+sd-jwt', meta: { vct_values: [claims.vct] }, claims: [{ path: ['age'] }] },
      ],
    });
    expect(resolved.authorizationRequestPayload).toMatchObject({
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      response_uri: `${t.baseUrl}/oid4vp/responses/${individualId}`,
    });

    // The library chose the request's key and an enc value both sides support, and made a JWE of it.
    const requestKey = resolved.authorizationRequestPayload.client_metadata!.jwks!.keys[0]!;
    expect(response.jarm?.encryptionJwk).toEqual(requestKey);
    const jweHeader = decodeJwt(`${response.jarm!.responseJwt.split('.')[0]}.e30`).header;
    expect(jweHeader).toMatchObject({ alg: 'ECDH-ES', enc: 'A128GCM', kid: requestKey.kid, epk: { crv: 'P-256' } });
    expect(response.jarm!.responseJwt.split('.')).toHaveLength(5);

    expect(submitted.responseMode).toBe('direct_post.jwt');
    expect(submitted.response.status).toBe(200);
    expect(await submitted.response.json()).toEqual({
      redirect_uri: `${t.baseUrl}/connect/verification/${individualId}`,
    });

    const outcome = await api(`/api/verifications/${individualId}/verify`, { member: false });
    expect(outcome.body).toMatchObject({ status: 'VERIFIED', failed_checks: [] });
    const history = await api(`/api/verifications/${verificationId}/individuals?page=1&limit=10`);
    expect(history.body.results).toHaveLength(1);
    expect(history.body.results[0]).toMatchObject({
      id: individualId,
      status: 'VERIFIED',
      presented_claims: { age: 36 },
      validation_error: null,
    });
    expect(Object.keys(history.body.results[0].presented_claims)).toEqual(['age']);
  });

  it('records FAILED with the RULE check when the credential does not meet the rule', async () => {
    const { verificationId, individualId, connectionUrl } = await startAttempt([['age', 'BIGGER', '65']]);
    const { submitted } = await presentWithLibrary(connectionUrl, ['age']);
    // The response itself was well formed: the verifier accepts it and records the failed rule.
    expect(submitted.response.status).toBe(200);

    const outcome = await api(`/api/verifications/${individualId}/verify`, { member: false });
    expect(outcome.body).toMatchObject({ status: 'FAILED', failed_checks: ['RULE'] });
    const history = await api(`/api/verifications/${verificationId}/individuals?page=1&limit=10`);
    expect(history.body.results[0]).toMatchObject({ status: 'FAILED', presented_claims: { age: 36 } });
  });
});
