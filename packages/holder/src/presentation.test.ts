import {
  decodeJwt,
  decodeSdJwtVc,
  didJwkFromJwk,
  generateEs256KeyPair,
  issueSdJwtVc,
  signerFromPrivateJwk,
  signJwt,
  x509Hash,
} from '@cp/credentials';
import { makeCertificate } from '@cp/credentials/testing';
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { allowHttpUrls, createHolderKey, type HolderKey } from './callbacks.ts';
import { parsePresentationLink, resolvePresentationRequest } from './request.ts';
import { createAuthorizationResponse, createVpToken, declinePresentation, submitPresentation } from './response.ts';
import { json, routerFetch, text } from './test-support.ts';

const VERIFIER = 'https://verifier.example';
const REQUEST_URI = `${VERIFIER}/requests/1`;
const RESPONSE_URI = `${VERIFIER}/responses/1`;
const VCT = 'https://issuer.example/vct/membership';
const dcql = {
  credentials: [{ id: 'membership', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['age'] }] }],
};

interface Verifier {
  signer: Awaited<ReturnType<typeof signerFromPrivateJwk>>;
  x5c: string[];
}
let verifier: Verifier;
let stranger: Verifier;
let x509HashId: string;
let holder: HolderKey;
let credential: string;

async function certified(dnsNames: string[], subject: string): Promise<Verifier> {
  const ca = await makeCertificate({ subject: 'CN=Test CA', ca: { pathLength: 0 } });
  const leaf = await makeCertificate({ subject, issuer: ca, dnsNames });
  return { signer: await signerFromPrivateJwk(leaf.key.privateJwk), x5c: [leaf.b64, ca.b64] };
}

beforeAll(async () => {
  verifier = await certified(['verifier.example'], 'CN=Bookshop Verifier');
  stranger = await certified(['evil.example'], 'CN=Evil');
  x509HashId = `x509_hash:${await x509Hash(verifier.x5c[0]!)}`;
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
});

const payload = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  response_type: 'vp_token',
  response_mode: 'direct_post',
  response_uri: RESPONSE_URI,
  nonce: 'n-0S6_WzA2Mj',
  state: 'state-123',
  dcql_query: dcql,
  client_metadata: { client_name: 'Bookshop Ltd' },
  ...extra,
});
const sign = (by: { signer: Verifier['signer'] }, header: Record<string, unknown>, body: Record<string, unknown>) =>
  signJwt(by.signer, { typ: 'oauth-authz-req+jwt', ...header }, body);
const linkTo = (clientId: string, extra = '') =>
  `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(REQUEST_URI)}${extra}`;
/** A verifier serving `jwt` at the request_uri and recording the response. */
const serving = (jwt: string, answer = () => json({ redirect_uri: `${VERIFIER}/done` })) =>
  routerFetch({ [REQUEST_URI]: () => text(jwt, 'application/oauth-authz-req+jwt'), [`POST ${RESPONSE_URI}`]: answer });

describe('parsePresentationLink', () => {
  it('reads openid4vp:// links by reference and by value, wrapped links and bare JWTs', () => {
    expect(parsePresentationLink(`${linkTo('x')}&request_uri_method=post`)).toMatchObject({
      clientId: 'x',
      requestUri: REQUEST_URI,
      requestUriMethod: 'post',
    });
    expect(
      parsePresentationLink(`https://wallet.example/present?request=${encodeURIComponent(linkTo('x'))}`),
    ).toMatchObject({
      requestUri: REQUEST_URI,
    });
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln';
    expect(parsePresentationLink(jwt)).toMatchObject({ request: jwt });
    for (const bad of [
      'hello',
      'openid4vp://?foo=bar',
      'openid4vp://?request_uri=ftp%3A%2F%2Fx',
      'openid4vp://?request=no',
    ]) {
      expect(() => parsePresentationLink(bad)).toThrow(expect.objectContaining({ code: 'REQUEST_INVALID' }));
    }
  });

  it('fetches a request from plain http only while allowHttpUrls is on (development)', () => {
    const local = `openid4vp://?client_id=x&request_uri=${encodeURIComponent('http://localhost:3000/requests/1')}`;
    expect(() => parsePresentationLink(local)).toThrow(expect.objectContaining({ code: 'REQUEST_INVALID' }));
    allowHttpUrls(true);
    try {
      expect(parsePresentationLink(local)).toMatchObject({ requestUri: 'http://localhost:3000/requests/1' });
    } finally {
      allowHttpUrls(false);
    }
  });
});

describe('resolvePresentationRequest', () => {
  it('x509_hash, as the platform verifier sends it: signed by the x5c leaf whose hash is the client id', async () => {
    const { publicKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1' };
    const jwt = await sign(
      verifier,
      { x5c: verifier.x5c },
      payload(x509HashId, {
        response_mode: 'direct_post.jwt',
        client_metadata: { jwks: { keys: [encJwk] }, encrypted_response_enc_values_supported: ['A256GCM', 'A128GCM'] },
      }),
    );
    const request = await resolvePresentationRequest(linkTo(x509HashId), { fetch: serving(jwt).fetch });
    expect(request).toMatchObject({
      clientId: x509HashId,
      clientIdPrefix: 'x509_hash',
      nonce: 'n-0S6_WzA2Mj',
      state: 'state-123',
      responseUri: RESPONSE_URI,
      responseMode: 'direct_post.jwt',
      dcql,
      certificate: { subject: 'CN=Bookshop Verifier', dnsNames: ['verifier.example'] },
      encryption: { enc: 'A256GCM', jwk: { kid: 'enc-1' } },
    });
    expect(structuredClone(request)).toEqual(request);
  });

  it('x509_hash: refuses another certificate’s hash, another key’s signature, a link naming another client, no signature', async () => {
    const otherId = `x509_hash:${await x509Hash(stranger.x5c[0]!)}`;
    const cases: [string, string, string][] = [
      [await sign(verifier, { x5c: verifier.x5c }, payload(otherId)), otherId, 'REQUEST_UNTRUSTED'],
      [await sign(stranger, { x5c: verifier.x5c }, payload(x509HashId)), x509HashId, 'REQUEST_SIGNATURE_INVALID'],
      [await sign(verifier, { x5c: verifier.x5c }, payload(x509HashId)), otherId, 'REQUEST_UNTRUSTED'],
      [
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload(x509HashId))).toString('base64url')}.`,
        x509HashId,
        'REQUEST_UNTRUSTED',
      ],
    ];
    for (const [jwt, clientId, code] of cases) {
      await expect(resolvePresentationRequest(linkTo(clientId), { fetch: serving(jwt).fetch })).rejects.toMatchObject({
        code,
      });
    }
  });

  it('x509_san_dns: the leaf names the host, and the response goes to that host', async () => {
    const clientId = 'x509_san_dns:verifier.example';
    const good = await sign(verifier, { x5c: verifier.x5c }, payload(clientId));
    expect((await resolvePresentationRequest(linkTo(clientId), { fetch: serving(good).fetch })).clientIdPrefix).toBe(
      'x509_san_dns',
    );
    const elsewhere = await sign(
      verifier,
      { x5c: verifier.x5c },
      payload(clientId, { response_uri: 'https://collector.example/r' }),
    );
    await expect(
      resolvePresentationRequest(linkTo(clientId), { fetch: serving(elsewhere).fetch }),
    ).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
    // §5.9.3: the leaf must name the client id's host as a dNSName. A certificate for verifier.example claiming
    // other.example (its response going to other.example, so only the SAN is wrong) is refused.
    const otherId = 'x509_san_dns:other.example';
    const claimed = await sign(
      verifier,
      { x5c: verifier.x5c },
      payload(otherId, { response_uri: 'https://other.example/r' }),
    );
    await expect(resolvePresentationRequest(linkTo(otherId), { fetch: serving(claimed).fetch })).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
      message: expect.stringMatching(/san|dns/i),
    });
  });

  it('decentralized_identifier: signed by a key of the client id DID', async () => {
    const key = await generateEs256KeyPair();
    const did = didJwkFromJwk(key.publicJwk);
    const signer = { signer: await signerFromPrivateJwk(key.privateJwk) };
    const clientId = `decentralized_identifier:${did}`;
    const jwt = await sign(signer, { kid: `${did}#0` }, payload(clientId));
    expect((await resolvePresentationRequest(linkTo(clientId), { fetch: serving(jwt).fetch })).clientId).toBe(clientId);
    const intruder = { signer: await signerFromPrivateJwk((await generateEs256KeyPair()).privateJwk) };
    const forged = await sign(intruder, { kid: `${did}#0` }, payload(clientId));
    await expect(resolvePresentationRequest(linkTo(clientId), { fetch: serving(forged).fetch })).rejects.toMatchObject({
      code: 'REQUEST_SIGNATURE_INVALID',
    });
  });

  it('POSTs wallet_metadata for request_uri_method=post; a gone request is REQUEST_EXPIRED; bad requests REQUEST_INVALID', async () => {
    const jwt = await sign(verifier, { x5c: verifier.x5c }, payload(x509HashId));
    const posted = routerFetch({ [`POST ${REQUEST_URI}`]: () => text(jwt, 'application/oauth-authz-req+jwt') });
    await resolvePresentationRequest(linkTo(x509HashId, '&request_uri_method=post'), { fetch: posted.fetch });
    expect(JSON.parse(new URLSearchParams(posted.calls[0]!.body).get('wallet_metadata')!)).toHaveProperty(
      'vp_formats_supported',
    );
    const gone = routerFetch({ [REQUEST_URI]: () => json({ error: 'invalid_request_uri' }, 410) });
    await expect(resolvePresentationRequest(linkTo(x509HashId), { fetch: gone.fetch })).rejects.toMatchObject({
      code: 'REQUEST_EXPIRED',
    });
    for (const [change, code] of [
      [{ response_type: 'code' }, 'REQUEST_INVALID'],
      [{ dcql_query: undefined }, 'REQUEST_INVALID'],
      [{ response_mode: 'fragment' }, 'REQUEST_INVALID'],
      [{ response_mode: 'direct_post.jwt', client_metadata: {} }, 'REQUEST_INVALID'],
      [
        {
          dcql_query: {
            credentials: [{ ...dcql.credentials[0], claims: [{ id: 'a', path: ['age'] }], claim_sets: [['b']] }],
          },
        },
        'REQUEST_INVALID',
      ],
      [{ exp: Math.floor(Date.now() / 1000) - 60 }, 'REQUEST_EXPIRED'],
    ] as const) {
      const bad = await sign(verifier, { x5c: verifier.x5c }, payload(x509HashId, change));
      await expect(resolvePresentationRequest(linkTo(x509HashId), { fetch: serving(bad).fetch })).rejects.toMatchObject(
        {
          code,
        },
      );
    }
  });
});

describe('submitPresentation and declinePresentation', () => {
  it('direct_post.jwt: one JWE to the verifier’s key holding the vp_token with a KB-JWT for this request', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1', use: 'enc' };
    const jwt = await sign(
      verifier,
      { x5c: verifier.x5c },
      payload(x509HashId, { response_mode: 'direct_post.jwt', client_metadata: { jwks: { keys: [encJwk] } } }),
    );
    const { fetch, calls } = serving(jwt);
    const request = await resolvePresentationRequest(linkTo(x509HashId), { fetch });
    const answer = await submitPresentation(
      request,
      [{ queryId: 'membership', credential, disclose: ['age'] }],
      { key: holder },
      { fetch },
    );
    expect(answer).toEqual({ redirectUri: `${VERIFIER}/done` });
    const form = new URLSearchParams(calls.at(-1)!.body);
    expect([...form.keys()]).toEqual(['response']);
    const jwe = form.get('response')!;
    expect(decodeJwt(`${jwe.split('.')[0]}.e30`).header).toMatchObject({
      alg: 'ECDH-ES',
      enc: 'A128GCM',
      kid: 'enc-1',
    });
    const { plaintext } = await compactDecrypt(jwe, privateKey);
    const body = JSON.parse(new TextDecoder().decode(plaintext));
    expect(body.state).toBe('state-123');
    const presented = await decodeSdJwtVc(body.vp_token.membership[0]);
    expect(presented.disclosed).toEqual(['age']);
    expect(presented.keyBinding?.payload).toMatchObject({ aud: x509HashId, nonce: 'n-0S6_WzA2Mj' });
  });

  it('direct_post: a form; a refusal is VERIFIER_ERROR with its words; a selection that does not answer is not sent', async () => {
    const jwt = await sign(verifier, { x5c: verifier.x5c }, payload(x509HashId));
    const { fetch, calls } = serving(jwt, () =>
      json({ error: 'invalid_request', error_description: 'Already answered' }, 400),
    );
    const request = await resolvePresentationRequest(linkTo(x509HashId), { fetch });
    await expect(
      submitPresentation(
        request,
        [{ queryId: 'membership', credential, disclose: ['age'] }],
        { key: holder },
        { fetch },
      ),
    ).rejects.toMatchObject({
      code: 'VERIFIER_ERROR',
      detail: 'invalid_request: Already answered',
      remote: { error: 'invalid_request', description: 'Already answered' },
    });
    const form = new URLSearchParams(calls.at(-1)!.body);
    expect(form.get('state')).toBe('state-123');
    expect(Object.keys(JSON.parse(form.get('vp_token')!))).toEqual(['membership']);
    const sent = calls.length;
    await expect(submitPresentation(request, [], { key: holder }, { fetch })).rejects.toMatchObject({
      code: 'NO_MATCHING_CREDENTIAL',
    });
    expect(calls).toHaveLength(sent);

    const declined = serving(jwt);
    await declinePresentation(request, { fetch: declined.fetch });
    const body = new URLSearchParams(declined.calls.at(-1)!.body);
    expect([body.get('error'), body.get('state'), body.has('vp_token')]).toEqual(['access_denied', 'state-123', false]);
  });

  it('createAuthorizationResponse: the form built ahead, nothing sent (direct_post.jwt and direct_post)', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1' };
    const jwt = await sign(
      verifier,
      { x5c: verifier.x5c },
      payload(x509HashId, {
        response_mode: 'direct_post.jwt',
        client_metadata: { jwks: { keys: [encJwk] }, encrypted_response_enc_values_supported: ['A256GCM'] },
      }),
    );
    const { fetch, calls } = serving(jwt);
    const request = await resolvePresentationRequest(linkTo(x509HashId), { fetch });
    const fetched = calls.length;
    const vpToken = await createVpToken(request, [{ queryId: 'membership', credential, disclose: ['age'] }], holder);
    const encrypted = await createAuthorizationResponse(request, { vp_token: vpToken }, {}, { fetch });
    expect(encrypted).toMatchObject({ responseUri: RESPONSE_URI, responseMode: 'direct_post.jwt' });
    expect(Object.keys(encrypted.form)).toEqual(['response']);
    const { plaintext, protectedHeader } = await compactDecrypt(encrypted.form.response!, privateKey);
    expect(protectedHeader).toMatchObject({ alg: 'ECDH-ES', enc: 'A256GCM', kid: 'enc-1' });
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({ vp_token: vpToken, state: 'state-123' });

    const plain = await createAuthorizationResponse(request, { vp_token: vpToken }, { responseMode: 'direct_post' });
    expect(plain.form).toEqual({ vp_token: JSON.stringify(vpToken), state: 'state-123' });
    expect(calls).toHaveLength(fetched);
  });
});
