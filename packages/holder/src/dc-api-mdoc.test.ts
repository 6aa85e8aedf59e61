import { generateEs256KeyPair, signerFromPrivateJwk, signJwt } from '@cp/credentials';
import {
  coseSignerFromPrivateJwk,
  issueMdoc,
  type MdocPresentationExpectation,
  type MdocVerifierDeps,
  mdocNames,
  verifyMdocPresentation,
} from '@cp/credentials/mdoc';
import { makeCertificate, makeIssuerPki } from '@cp/credentials/testing';
import { calculateJwkThumbprint, compactDecrypt, exportJWK, generateKeyPair, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerDcApiMdocRequest, type DcApiMdocSelection } from './mdoc.ts';

/**
 * An mdoc over the Digital Credentials API as the wallet behind the browser answers it (OpenID4VP 1.0 Appendix
 * A with B.2.6.2): the DeviceResponse is device-signed over the OpenID4VPDCAPIHandover session transcript of the
 * calling origin, the nonce and the verifier's encryption key, and the answer is encrypted to that key.
 */

const ORIGIN = 'https://verifier.example';
const ISS = 'https://issuer.example/orgs/7';
const { docType: DOC_TYPE, namespace: NS } = mdocNames({ vct: `${ISS}/vct/membership` });
const NONCE = 'n-0S6_WzA2Mj';

let verifier: { signer: Awaited<ReturnType<typeof signerFromPrivateJwk>>; x5c: string[] };
let pki: Awaited<ReturnType<typeof makeIssuerPki>>;
let holder: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let issued: string;
let encryption: { privateKey: CryptoKey; jwk: Record<string, unknown> };

beforeAll(async () => {
  const ca = await makeCertificate({ subject: 'CN=Test CA', ca: { pathLength: 0 } });
  const leaf = await makeCertificate({ subject: 'CN=Verifier', issuer: ca, dnsNames: ['verifier.example'] });
  verifier = { signer: await signerFromPrivateJwk(leaf.key.privateJwk), x5c: [leaf.b64, ca.b64] };
  pki = await makeIssuerPki(ISS);
  holder = await generateEs256KeyPair();
  issued = await issueMdoc({
    signer: await coseSignerFromPrivateJwk(pki.leaf.key.privateJwk),
    x5chain: pki.x5c,
    docType: DOC_TYPE,
    namespace: NS,
    attributes: [
      { name: 'given_name', type: 'TEXT' },
      { name: 'age', type: 'NUMBER' },
    ],
    claims: { given_name: 'Ada', age: 36 },
    holderJwk: holder.publicJwk,
    validUntil: new Date(Date.now() + 86_400_000),
  });
  const keys = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  encryption = {
    privateKey: keys.privateKey as CryptoKey,
    jwk: { ...(await exportJWK(keys.publicKey)), kid: 'enc-1', use: 'enc', alg: 'ECDH-ES' },
  };
});

const request = async (extra: Record<string, unknown> = {}) => ({
  request: await signJwt(
    verifier.signer,
    { typ: 'oauth-authz-req+jwt', x5c: verifier.x5c },
    {
      client_id: `x509_san_dns:verifier.example`,
      response_type: 'vp_token',
      response_mode: 'dc_api.jwt',
      expected_origins: [ORIGIN],
      nonce: NONCE,
      dcql_query: {
        credentials: [
          { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: DOC_TYPE }, claims: [{ path: [NS, 'age'] }] },
        ],
      },
      client_metadata: { jwks: { keys: [encryption.jwk] }, encrypted_response_enc_values_supported: ['A128GCM'] },
      ...extra,
    },
  ),
});

const selection = async (): Promise<DcApiMdocSelection> => ({
  queryId: 'mdl',
  issuerSigned: issued,
  paths: [[NS, 'age']],
  signer: await coseSignerFromPrivateJwk(holder.privateJwk),
});

const deps: MdocVerifierDeps = {
  trustAnchors: [],
  validatePath: async () => {
    throw new Error('not checked here');
  },
  admitIssuer: async () => ({
    issuer: { admitted: true, reason: 'ANY_ISSUER', detail: 'test' },
    type: { passed: true },
  }),
  fetchStatusListToken: async () => {
    throw new Error('no status');
  },
};
const keyBinding = async (deviceResponse: string, handover: Record<string, unknown>) => {
  const expectation = {
    docType: DOC_TYPE,
    requestedClaims: [{ name: 'age', path: [NS, 'age'] }],
    ...handover,
  } as MdocPresentationExpectation;
  const result = await verifyMdocPresentation(deviceResponse, expectation, deps);
  return result.checks.find((c) => c.code === 'KEY_BINDING')?.passed;
};

describe('answerDcApiMdocRequest', () => {
  it('answers {response: JWE} to the verifier’s key, device-signed over the DC API transcript of this origin', async () => {
    const answer = await answerDcApiMdocRequest(await request(), ORIGIN, await selection());
    expect(Object.keys(answer)).toEqual(['response']);
    const { plaintext } = await compactDecrypt(String(answer.response), encryption.privateKey);
    const body = JSON.parse(new TextDecoder().decode(plaintext));
    expect(body).not.toHaveProperty('state');
    const deviceResponse = body.vp_token.mdl[0] as string;
    const jwkThumbprint = await calculateJwkThumbprint(encryption.jwk as JWK, 'sha256');
    expect(await keyBinding(deviceResponse, { origin: ORIGIN, nonce: NONCE, jwkThumbprint })).toBe(true);
    // Not over another origin's transcript, the unencrypted one, or the redirect one of the same request.
    expect(await keyBinding(deviceResponse, { origin: 'https://evil.example', nonce: NONCE, jwkThumbprint })).toBe(
      false,
    );
    expect(await keyBinding(deviceResponse, { origin: ORIGIN, nonce: NONCE })).toBe(false);
    expect(
      await keyBinding(deviceResponse, {
        clientId: 'x509_san_dns:verifier.example',
        nonce: NONCE,
        responseUri: ORIGIN,
        jwkThumbprint,
      }),
    ).toBe(false);
  });

  it('answers a plain dc_api request with the vp_token, over the transcript without a thumbprint', async () => {
    const answer = await answerDcApiMdocRequest(await request({ response_mode: 'dc_api' }), ORIGIN, await selection());
    expect(Object.keys(answer)).toEqual(['vp_token']);
    const deviceResponse = (answer.vp_token as Record<string, string[]>).mdl![0]!;
    expect(await keyBinding(deviceResponse, { origin: ORIGIN, nonce: NONCE })).toBe(true);
  });

  it('refuses a request from another origin, and shares nothing for a query that is not this mdoc’s', async () => {
    await expect(
      answerDcApiMdocRequest(await request(), 'https://evil.example', await selection()),
    ).rejects.toMatchObject({ code: 'REQUEST_UNTRUSTED' });
    await expect(
      answerDcApiMdocRequest(await request(), ORIGIN, { ...(await selection()), queryId: 'other' }),
    ).rejects.toMatchObject({ code: 'NO_MATCHING_CREDENTIAL' });
    const sdJwtQuery = {
      dcql_query: {
        credentials: [{ id: 'mdl', format: 'dc+sd-jwt', meta: { vct_values: ['https://x.example/vct'] } }],
      },
    };
    await expect(answerDcApiMdocRequest(await request(sdJwtQuery), ORIGIN, await selection())).rejects.toMatchObject({
      code: 'NO_MATCHING_CREDENTIAL',
    });
  });
});
