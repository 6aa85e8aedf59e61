import {
  decodeJwt,
  generateEs256KeyPair,
  issueSdJwtVc,
  signerFromPrivateJwk,
  signJwt,
  x509Hash,
} from '@cp/credentials';
import { makeCertificate } from '@cp/credentials/testing';
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHolderKey, type HolderKey } from './callbacks.ts';
import { answerDcApiRequest, resolveDcApiRequest } from './dc-api.ts';

/** OpenID4VP 1.0 Appendix A as the wallet behind the browser: request checks, origin-bound answers. */

const ORIGIN = 'https://verifier.example';
const VCT = 'https://issuer.example/vct/membership';
const dcql = {
  credentials: [{ id: 'membership', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['age'] }] }],
};

type Signer = Awaited<ReturnType<typeof signerFromPrivateJwk>>;
let verifier: { signer: Signer; x5c: string[] };
let stranger: { signer: Signer; x5c: string[] };
let clientId: string;
let holder: HolderKey;
let credential: string;
let encryption: { privateKey: CryptoKey; jwk: Record<string, unknown> };

async function certified(subject: string) {
  const ca = await makeCertificate({ subject: 'CN=Test CA', ca: { pathLength: 0 } });
  const leaf = await makeCertificate({ subject, issuer: ca, dnsNames: ['verifier.example'] });
  return { signer: await signerFromPrivateJwk(leaf.key.privateJwk), x5c: [leaf.b64, ca.b64] };
}

beforeAll(async () => {
  verifier = await certified('CN=Bookshop Verifier');
  stranger = await certified('CN=Evil');
  clientId = `x509_hash:${await x509Hash(verifier.x5c[0]!)}`;
  holder = await createHolderKey();
  const issuer = await generateEs256KeyPair();
  credential = await issueSdJwtVc({
    signer: await signerFromPrivateJwk(issuer.privateJwk),
    header: {},
    issuer: 'https://issuer.example',
    vct: VCT,
    holderJwk: holder.publicJwk,
    claims: { full_name: 'Ada Lovelace', age: 36 },
  });
  const keys = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  encryption = {
    privateKey: keys.privateKey as CryptoKey,
    jwk: { ...(await exportJWK(keys.publicKey)), kid: 'enc-1', use: 'enc', alg: 'ECDH-ES' },
  };
});

const payload = (extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  response_type: 'vp_token',
  response_mode: 'dc_api.jwt',
  expected_origins: [ORIGIN],
  nonce: 'n-0S6_WzA2Mj',
  dcql_query: dcql,
  client_metadata: { jwks: { keys: [encryption.jwk] }, encrypted_response_enc_values_supported: ['A128GCM'] },
  ...extra,
});
const signed = async (body: Record<string, unknown>, by = verifier) => ({
  request: await signJwt(by.signer, { typ: 'oauth-authz-req+jwt', x5c: by.x5c }, body),
});
const selection = () => [{ queryId: 'membership', credential, disclose: ['age'] }];

describe('resolveDcApiRequest', () => {
  it('reads a signed request made from one of its expected origins', async () => {
    const request = await resolveDcApiRequest(await signed(payload()), ORIGIN);
    expect(request).toMatchObject({
      clientId,
      clientIdPrefix: 'x509_hash',
      origin: ORIGIN,
      audience: `origin:${ORIGIN}`,
      nonce: 'n-0S6_WzA2Mj',
      responseMode: 'dc_api.jwt',
    });
    expect(request.encryption?.jwk.kid).toBe('enc-1');
  });

  it('refuses a request made from another origin, or naming none', async () => {
    await expect(resolveDcApiRequest(await signed(payload()), 'https://evil.example')).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
    const { expected_origins: _origins, ...withoutOrigins } = payload();
    await expect(resolveDcApiRequest(await signed(withoutOrigins), ORIGIN)).rejects.toMatchObject({
      code: expect.stringMatching(/^REQUEST_(INVALID|UNTRUSTED)$/),
    });
  });

  it('refuses a request signed by another key than its x509_hash client id names', async () => {
    await expect(resolveDcApiRequest(await signed(payload(), stranger), ORIGIN)).rejects.toMatchObject({
      code: expect.stringMatching(/^REQUEST_(UNTRUSTED|SIGNATURE_INVALID)$/),
    });
  });

  it('refuses data without a signed request, and a request for another response mode', async () => {
    await expect(resolveDcApiRequest(payload(), ORIGIN)).rejects.toMatchObject({ code: 'REQUEST_INVALID' });
    await expect(resolveDcApiRequest({ request: 'not-a-jwt' }, ORIGIN)).rejects.toMatchObject({
      code: 'REQUEST_INVALID',
    });
    const direct = payload({ response_mode: 'direct_post.jwt', response_uri: `${ORIGIN}/responses/1` });
    // Outside the DC API a request by value must name its client_id beside it (the library's check).
    await expect(resolveDcApiRequest(await signed(direct), ORIGIN)).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
  });
});

describe('answerDcApiRequest', () => {
  it('answers {response: JWE} encrypted to the verifier’s key, the key binding to origin:<origin> and the nonce', async () => {
    const answer = await answerDcApiRequest(await signed(payload()), ORIGIN, selection(), { key: holder });
    expect(Object.keys(answer)).toEqual(['response']);
    const { plaintext } = await compactDecrypt(String(answer.response), encryption.privateKey);
    const body = JSON.parse(new TextDecoder().decode(plaintext));
    expect(body).not.toHaveProperty('state');
    const presentation = body.vp_token.membership[0] as string;
    const kbJwt = decodeJwt(presentation.split('~').pop()!);
    expect(kbJwt.header.typ).toBe('kb+jwt');
    expect(kbJwt.payload).toMatchObject({ aud: `origin:${ORIGIN}`, nonce: 'n-0S6_WzA2Mj' });
  });

  it('answers a plain dc_api request with the vp_token itself', async () => {
    const answer = await answerDcApiRequest(await signed(payload({ response_mode: 'dc_api' })), ORIGIN, selection(), {
      key: holder,
    });
    expect(Object.keys(answer)).toEqual(['vp_token']);
  });

  it('shares nothing for credentials that do not answer the query', async () => {
    await expect(
      answerDcApiRequest(await signed(payload()), ORIGIN, [{ ...selection()[0]!, queryId: 'other' }], { key: holder }),
    ).rejects.toMatchObject({ code: 'NO_MATCHING_CREDENTIAL' });
  });
});
