import {
  decodeJwt,
  decodeSdJwtVc,
  didJwkFromJwk,
  generateEs256KeyPair,
  issueSdJwtVc,
  signerFromPrivateJwk,
  signJwt,
  verifyJwtSignature,
  x509Hash,
} from '@cp/credentials';
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  answersRequest,
  chooseInstance,
  chosenCandidates,
  declinePresentation,
  defaultChoice,
  findCandidates,
  isUsable,
  planPresentation,
  resolvePresentationRequest,
  submitPresentation,
} from './present.ts';
import { certifiedKey, json, stubFetch, type TestIdentity, text } from './test-support.ts';
import type { StoredCredential, WalletVault } from './types.ts';
import { openVault } from './vault.ts';

const VERIFIER = 'https://verifier.example';
const REQUEST_URI = `${VERIFIER}/requests/1`;
const RESPONSE_URI = `${VERIFIER}/responses/1`;
const VCT = 'https://issuer.example/vct/membership';
const dcql = {
  credentials: [{ id: 'membership', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['age'] }] }],
};

let verifier: TestIdentity;
let x509HashId: string;

beforeAll(async () => {
  verifier = await certifiedKey({ dnsNames: ['verifier.example'], commonName: 'Bookshop Verifier' });
  x509HashId = `x509_hash:${await x509Hash(verifier.x5c[0]!)}`;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function payload(clientId: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: clientId,
    response_type: 'vp_token',
    response_mode: 'direct_post',
    response_uri: RESPONSE_URI,
    nonce: 'n-0S6_WzA2Mj',
    state: 'state-123',
    dcql_query: dcql,
    client_metadata: { client_name: 'Bookshop Ltd' },
    ...extra,
  };
}

async function signedRequest(
  identity: { signer: TestIdentity['signer'] },
  header: Record<string, unknown>,
  body: Record<string, unknown>,
) {
  return signJwt(identity.signer, { typ: 'oauth-authz-req+jwt', ...header }, body);
}

/** Serves `jwt` at the request_uri and answers the link to it. */
function serve(jwt: string, clientId: string) {
  stubFetch({ [REQUEST_URI]: () => text(jwt, 'application/oauth-authz-req+jwt') });
  return `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(REQUEST_URI)}`;
}

describe('resolvePresentationRequest: the request signature for each client identifier prefix', () => {
  it('x509_hash: the hash of the x5c leaf is the client id and the leaf signed the request', async () => {
    const jwt = await signedRequest(
      verifier,
      { x5c: verifier.x5c },
      payload(x509HashId, {
        response_mode: 'direct_post.jwt',
        client_metadata: {
          jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: verifier.publicJwk.x, y: verifier.publicJwk.y, kid: 'k1' }] },
        },
      }),
    );
    const resolved = await resolvePresentationRequest(serve(jwt, x509HashId));
    expect(resolved).toMatchObject({
      clientId: x509HashId,
      clientIdScheme: 'x509_hash',
      // No client_name: the certificate's common name.
      verifier: { name: 'Bookshop Verifier', certificateSubject: expect.stringContaining('CN=Bookshop Verifier') },
      nonce: 'n-0S6_WzA2Mj',
      state: 'state-123',
      responseUri: RESPONSE_URI,
      responseMode: 'direct_post.jwt',
      dcql,
      session: { encryption: { enc: 'A128GCM', jwk: { kid: 'k1' } } },
    });
  });

  it('x509_hash: refuses a forged hash (another certificate’s), a signature by another key and a client_id swap', async () => {
    const other = await certifiedKey({ dnsNames: ['evil.example'] });
    const otherId = `x509_hash:${await x509Hash(other.x5c[0]!)}`;
    // The request carries the genuine verifier's certificate but names another one's hash.
    const forged = await signedRequest(verifier, { x5c: verifier.x5c }, payload(otherId));
    await expect(resolvePresentationRequest(serve(forged, otherId))).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
    // The verifier's certificate and client id, signed by someone else's key.
    const stolen = await signedRequest(other, { x5c: verifier.x5c }, payload(x509HashId));
    await expect(resolvePresentationRequest(serve(stolen, x509HashId))).rejects.toMatchObject({
      code: 'REQUEST_SIGNATURE_INVALID',
    });
    // A genuine request of the verifier, behind a link that names another client.
    const genuine = await signedRequest(verifier, { x5c: verifier.x5c }, payload(x509HashId));
    await expect(resolvePresentationRequest(serve(genuine, otherId))).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
    // Unsigned with an x509 client id.
    const unsigned = `${btoa(JSON.stringify({ alg: 'none' })).replace(/=+$/, '')}.${btoa(
      JSON.stringify(payload(x509HashId)),
    )
      .replace(/=+$/, '')
      .replaceAll('+', '-')
      .replaceAll('/', '_')}.`;
    await expect(resolvePresentationRequest(serve(unsigned, x509HashId))).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
  });

  it('x509_san_dns: the leaf names the DNS name, signed the request, and the response goes to that host', async () => {
    const clientId = 'x509_san_dns:verifier.example';
    const jwt = await signedRequest(verifier, { x5c: verifier.x5c }, payload(clientId));
    expect(await resolvePresentationRequest(serve(jwt, clientId))).toMatchObject({
      clientIdScheme: 'x509_san_dns',
      verifier: { name: 'Bookshop Ltd' },
      responseMode: 'direct_post',
    });
    const elsewhere = await signedRequest(
      verifier,
      { x5c: verifier.x5c },
      payload(clientId, { response_uri: 'https://collector.example/r' }),
    );
    await expect(resolvePresentationRequest(serve(elsewhere, clientId))).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
    const otherName = 'x509_san_dns:bank.example';
    const wrongSan = await signedRequest(
      verifier,
      { x5c: verifier.x5c },
      payload(otherName, { response_uri: 'https://bank.example/r' }),
    );
    await expect(resolvePresentationRequest(serve(wrongSan, otherName))).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
    const other = await certifiedKey({ dnsNames: ['verifier.example'] });
    const wrongKey = await signedRequest(other, { x5c: verifier.x5c }, payload(clientId));
    await expect(resolvePresentationRequest(serve(wrongKey, clientId))).rejects.toMatchObject({
      code: 'REQUEST_SIGNATURE_INVALID',
    });
  });

  it('decentralized_identifier: the kid is a key of the client id DID', async () => {
    const key = await generateEs256KeyPair();
    const signer = { signer: await signerFromPrivateJwk(key.privateJwk) };
    const did = didJwkFromJwk(key.publicJwk);
    const clientId = `decentralized_identifier:${did}`;
    const jwt = await signedRequest(signer, { kid: `${did}#0` }, payload(clientId));
    expect(await resolvePresentationRequest(serve(jwt, clientId))).toMatchObject({
      clientIdScheme: 'decentralized_identifier',
      verifier: { name: 'Bookshop Ltd' },
    });
    const intruder = await generateEs256KeyPair();
    const intruderDid = didJwkFromJwk(intruder.publicJwk);
    const intruderSigner = { signer: await signerFromPrivateJwk(intruder.privateJwk) };
    const foreignKid = await signedRequest(intruderSigner, { kid: `${intruderDid}#0` }, payload(clientId));
    await expect(resolvePresentationRequest(serve(foreignKid, clientId))).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
    const wrongSignature = await signedRequest(intruderSigner, { kid: `${did}#0` }, payload(clientId));
    await expect(resolvePresentationRequest(serve(wrongSignature, clientId))).rejects.toMatchObject({
      code: 'REQUEST_SIGNATURE_INVALID',
    });
  });

  it('redirect_uri: unsigned, by value, and only to the client id itself', async () => {
    const clientId = `redirect_uri:${RESPONSE_URI}`;
    const params = new URLSearchParams({
      ...payload(clientId),
      dcql_query: JSON.stringify(dcql),
      client_metadata: JSON.stringify({}),
    } as unknown as Record<string, string>);
    stubFetch({});
    expect(await resolvePresentationRequest(`openid4vp://?${params}`)).toMatchObject({
      clientIdScheme: 'redirect_uri',
      verifier: { name: 'verifier.example' },
      dcql,
    });
    params.set('response_uri', 'https://elsewhere.example/r');
    await expect(resolvePresentationRequest(`openid4vp://?${params}`)).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
  });

  it('POSTs its metadata for request_uri_method=post, and refuses requests it cannot answer', async () => {
    const jwt = await signedRequest(verifier, { x5c: verifier.x5c }, payload(x509HashId));
    const { calls } = stubFetch({ [`POST ${REQUEST_URI}`]: () => text(jwt, 'application/oauth-authz-req+jwt') });
    const link = `openid4vp://?client_id=${encodeURIComponent(x509HashId)}&request_uri=${encodeURIComponent(REQUEST_URI)}&request_uri_method=post`;
    expect((await resolvePresentationRequest(link)).clientId).toBe(x509HashId);
    expect(calls[0]!.method).toBe('POST');
    expect(JSON.parse(new URLSearchParams(calls[0]!.body).get('wallet_metadata')!)).toHaveProperty(
      'vp_formats_supported',
    );

    for (const [change, code] of [
      [{ response_type: 'code' }, 'REQUEST_INVALID'],
      [{ dcql_query: undefined }, 'REQUEST_INVALID'],
      [{ response_mode: 'fragment' }, 'REQUEST_INVALID'],
      [{ response_mode: 'direct_post.jwt', client_metadata: {} }, 'REQUEST_INVALID'],
      [{ exp: Math.floor(Date.now() / 1000) - 60 }, 'REQUEST_EXPIRED'],
    ] as const) {
      const bad = await signedRequest(verifier, { x5c: verifier.x5c }, payload(x509HashId, change));
      await expect(resolvePresentationRequest(serve(bad, x509HashId))).rejects.toMatchObject({ code });
    }
    stubFetch({ [REQUEST_URI]: () => json({ error: 'invalid_request_uri' }, 410) });
    await expect(
      resolvePresentationRequest(`openid4vp://?client_id=x&request_uri=${encodeURIComponent(REQUEST_URI)}`),
    ).rejects.toMatchObject({
      code: 'REQUEST_EXPIRED',
    });
  });
});

// ---- Matching and answering ----------------------------------------------------------------------------

let counter = 0;
async function freshVault() {
  const vault = await openVault(`present-test-${Date.now()}-${++counter}`, { kdfIterations: 1_000 });
  await vault.create('passcode');
  return vault;
}

async function heldCredential(
  vault: WalletVault,
  overrides: Partial<StoredCredential> = {},
  issued: { vct?: string; claims?: Record<string, string | number> } = {},
): Promise<StoredCredential> {
  const issuer = await generateEs256KeyPair();
  const claims = issued.claims ?? { full_name: 'Ada Lovelace', age: 36, email: 'ada@example.com' };
  const vct = issued.vct ?? VCT;
  const raw = await issueSdJwtVc({
    signer: await signerFromPrivateJwk(issuer.privateJwk),
    header: {},
    issuer: 'https://issuer.example',
    vct,
    holderJwk: vault.holder().publicJwk,
    claims,
  });
  return {
    id: `c-${++counter}`,
    format: 'dc+sd-jwt',
    raw,
    vct,
    issuer: { id: 'https://issuer.example', name: { en: 'Analytical Society' } },
    display: { name: { en: 'Membership' } },
    claimDisplay: [],
    claims,
    lastStatus: 'VALID',
    receivedAt: new Date().toISOString(),
    ...overrides,
  };
}

describe('findCandidates', () => {
  it('lists the credentials that answer the DCQL query, usable ones first, with exactly the claims asked for', async () => {
    const vault = await freshVault();
    const good = await heldCredential(vault);
    const revoked = await heldCredential(vault, { lastStatus: 'REVOKED' });
    const expired = await heldCredential(vault, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const otherType = await heldCredential(vault, { vct: 'https://issuer.example/vct/diploma' });
    const request = {
      clientId: 'x',
      clientIdScheme: 'x509_hash' as const,
      verifier: { name: 'Bookshop' },
      dcql,
      nonce: 'n',
      responseUri: RESPONSE_URI,
      responseMode: 'direct_post' as const,
    };
    // Revoked and expired ones stay selectable after the usable one (the screen warns; the verifier decides).
    expect(findCandidates(request, [revoked, good, expired, otherType])).toEqual([
      { queryId: 'membership', credential: good, disclose: ['age'] },
      { queryId: 'membership', credential: revoked, disclose: ['age'] },
      { queryId: 'membership', credential: expired, disclose: ['age'] },
    ]);
    expect([good, revoked, expired].map((c) => isUsable(c))).toEqual([true, false, false]);
    const noAge = await heldCredential(vault, { claims: { full_name: 'Ada' } });
    expect(findCandidates(request, [noAge])).toEqual([]);
    const withValues = {
      ...request,
      dcql: { credentials: [{ ...dcql.credentials[0]!, claims: [{ path: ['age'], values: [18] }] }] },
    };
    expect(findCandidates(withValues, [good])).toEqual([]);
  });
});

describe('submitPresentation and declinePresentation', () => {
  it('answers direct_post.jwt with an encrypted vp_token holding only the chosen disclosures, and records it', async () => {
    const vault = await freshVault();
    const credential = await heldCredential(vault);
    const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1', use: 'enc', alg: 'ECDH-ES' };
    const jwt = await signedRequest(
      verifier,
      { x5c: verifier.x5c },
      payload(x509HashId, {
        response_mode: 'direct_post.jwt',
        client_metadata: {
          client_name: 'Bookshop Ltd',
          logo_uri: 'https://verifier.example/logo.png',
          jwks: { keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', kid: 'rsa' }, encJwk] },
          encrypted_response_enc_values_supported: ['A256CBC-HS512', 'A256GCM', 'A128GCM'],
        },
      }),
    );
    const request = await resolvePresentationRequest(serve(jwt, x509HashId));
    const { calls } = stubFetch({
      [`POST ${RESPONSE_URI}`]: () => json({ redirect_uri: 'https://verifier.example/done' }),
    });
    const [candidate] = findCandidates(request, [credential]);
    const result = await submitPresentation(request, candidate!, vault);
    expect(result).toEqual({ redirectUri: 'https://verifier.example/done' });

    const form = new URLSearchParams(calls[0]!.body);
    expect([...form.keys()]).toEqual(['response']);
    const jwe = form.get('response')!;
    expect(JSON.parse(atob(jwe.split('.')[0]!.replaceAll('-', '+').replaceAll('_', '/')))).toMatchObject({
      alg: 'ECDH-ES',
      enc: 'A256GCM',
      kid: 'enc-1',
    });
    const { plaintext } = await compactDecrypt(jwe, privateKey);
    const answer = JSON.parse(new TextDecoder().decode(plaintext));
    expect(answer.state).toBe('state-123');
    const presentation: string = answer.vp_token.membership[0];
    const decoded = await decodeSdJwtVc(presentation);
    expect(decoded.disclosed).toEqual(['age']);
    expect(decoded.claims).not.toHaveProperty('full_name');
    expect(decoded.keyBinding?.payload).toMatchObject({ aud: x509HashId, nonce: 'n-0S6_WzA2Mj' });

    const [history] = await vault.listPresentations();
    expect(history).toMatchObject({
      outcome: 'SENT',
      verifier: { name: 'Bookshop Ltd', clientId: x509HashId, logoUri: 'https://verifier.example/logo.png' },
      credentialId: credential.id,
      credentialName: { en: 'Membership' },
      sharedClaims: ['age'],
    });
  });

  it('answers direct_post as a form, records an ERROR when the verifier refuses, and posts access_denied on decline', async () => {
    const vault = await freshVault();
    const credential = await heldCredential(vault);
    const jwt = await signedRequest(verifier, { x5c: verifier.x5c }, payload(x509HashId));
    const request = await resolvePresentationRequest(serve(jwt, x509HashId));
    const { calls } = stubFetch({
      [`POST ${RESPONSE_URI}`]: () => json({ error: 'invalid_request', error_description: 'Already answered' }, 400),
    });
    const candidate = { queryId: 'membership', credential, disclose: ['age', 'full_name'] };
    await expect(submitPresentation(request, candidate, vault)).rejects.toMatchObject({
      code: 'VERIFIER_ERROR',
      detail: 'invalid_request: Already answered',
      remote: { error: 'invalid_request', description: 'Already answered' },
    });
    const form = new URLSearchParams(calls[0]!.body);
    expect(form.get('state')).toBe('state-123');
    const vpToken = JSON.parse(form.get('vp_token')!);
    expect((await decodeSdJwtVc(vpToken.membership[0])).disclosed.sort()).toEqual(['age', 'full_name']);
    expect(decodeJwt(vpToken.membership[0].split('~').at(-1)).header.typ).toBe('kb+jwt');
    expect((await vault.listPresentations())[0]).toMatchObject({
      outcome: 'ERROR',
      sharedClaims: ['age', 'full_name'],
      detail: 'The verifier answered 400 (invalid_request: Already answered)',
      refusal: { error: 'invalid_request', description: 'Already answered' },
    });

    const declined = stubFetch({
      [`POST ${RESPONSE_URI}`]: () => json({ redirect_uri: 'https://verifier.example/declined' }),
    });
    expect(await declinePresentation(request, vault)).toEqual({ redirectUri: 'https://verifier.example/declined' });
    const body = new URLSearchParams(declined.calls[0]!.body);
    expect(body.get('error')).toBe('access_denied');
    expect(body.get('state')).toBe('state-123');
    expect(body.has('vp_token')).toBe(false);
    const outcomes = (await vault.listPresentations()).map((p) => p.outcome).sort();
    expect(outcomes).toEqual(['DECLINED', 'ERROR']);
  });
});

// ---- Several credentials in one request (OpenID4VP 1.0 §6.4.2) -----------------------------------------

const DIPLOMA = 'https://issuer.example/vct/diploma';
const PASSPORT = 'https://issuer.example/vct/passport';
const membershipQuery = {
  id: 'membership',
  format: 'dc+sd-jwt',
  meta: { vct_values: [VCT] },
  claims: [{ path: ['age'] }],
};
const diplomaQuery = {
  id: 'diploma',
  format: 'dc+sd-jwt',
  meta: { vct_values: [DIPLOMA] },
  claims: [{ path: ['degree'] }, { path: ['year'] }],
};
const passportQuery = {
  id: 'passport',
  format: 'dc+sd-jwt',
  meta: { vct_values: [PASSPORT] },
  claims: [{ path: ['number'] }],
};

/** A request of the verifier asking `query`, resolved as the wallet resolves it (signed, by reference). */
async function requestFor(query: Record<string, unknown>) {
  const jwt = await signedRequest(
    verifier,
    { x5c: verifier.x5c },
    payload(x509HashId, { nonce: 'n-multi', state: 'state-multi', dcql_query: query }),
  );
  return resolvePresentationRequest(serve(jwt, x509HashId));
}

async function heldDiploma(vault: WalletVault) {
  return heldCredential(
    vault,
    { display: { name: { en: 'Diploma' } } },
    { vct: DIPLOMA, claims: { degree: 'Mathematics', year: 1835, grade: 'A' } },
  );
}

describe('planPresentation and several credentials in one answer', () => {
  it('two credential queries: both required, both answered in one vp_token with one key binding, two history records', async () => {
    const vault = await freshVault();
    const membership = await heldCredential(vault);
    const diploma = await heldDiploma(vault);
    const request = await requestFor({ credentials: [membershipQuery, diplomaQuery] });
    const plan = planPresentation(request, [diploma, membership]);
    expect(plan).toMatchObject({
      canShare: true,
      missing: [],
      sets: [{ required: true, options: [{ queryIds: ['membership', 'diploma'], isSatisfiable: true }] }],
    });
    expect(plan.credentials.map((c) => [c.queryId, c.candidates.map((x) => x.credential.id), c.claimNames])).toEqual([
      ['membership', [membership.id], ['age']],
      ['diploma', [diploma.id], ['degree', 'year']],
    ]);
    const selection = chosenCandidates(plan, defaultChoice(plan));
    expect(selection.map((c) => [c.queryId, c.disclose])).toEqual([
      ['membership', ['age']],
      ['diploma', ['degree', 'year']],
    ]);

    const { calls } = stubFetch({ [`POST ${RESPONSE_URI}`]: () => json({}) });
    expect(await submitPresentation(request, selection, vault)).toEqual({});
    expect(calls).toHaveLength(1);
    const form = new URLSearchParams(calls[0]!.body);
    expect(form.get('state')).toBe('state-multi');
    const vpToken = JSON.parse(form.get('vp_token')!);
    // §8.1: an object keyed by credential query id, each value an array of presentations.
    expect(Object.keys(vpToken)).toEqual(['membership', 'diploma']);
    expect(vpToken.membership).toHaveLength(1);
    expect(vpToken.diploma).toHaveLength(1);
    const presented = await Promise.all([decodeSdJwtVc(vpToken.membership[0]), decodeSdJwtVc(vpToken.diploma[0])]);
    expect(presented.map((p) => p.disclosed.sort())).toEqual([['age'], ['degree', 'year']]);
    expect(presented[1]!.claims).not.toHaveProperty('grade');
    for (const p of presented) {
      expect(p.keyBinding?.payload).toMatchObject({ aud: x509HashId, nonce: 'n-multi' });
    }
    const history = await vault.listPresentations();
    expect(history.map((h) => [h.outcome, h.credentialId, h.sharedClaims]).sort()).toEqual(
      [
        ['SENT', diploma.id, ['degree', 'year']],
        ['SENT', membership.id, ['age']],
      ].sort(),
    );
  });

  it('a required query nothing matches: the plan cannot share, names it, and submitPresentation refuses to send part of it', async () => {
    const vault = await freshVault();
    const membership = await heldCredential(vault);
    const request = await requestFor({ credentials: [membershipQuery, diplomaQuery] });
    const plan = planPresentation(request, [membership]);
    expect(plan.canShare).toBe(false);
    expect(plan.missing).toEqual(['diploma']);
    expect(plan.credentials.find((c) => c.queryId === 'diploma')).toMatchObject({
      candidates: [],
      vctValues: [DIPLOMA],
      claimNames: ['degree', 'year'],
    });
    const partial = chosenCandidates(plan, defaultChoice(plan));
    expect(partial.map((c) => c.queryId)).toEqual(['membership']);
    const { calls } = stubFetch({ [`POST ${RESPONSE_URI}`]: () => json({}) });
    await expect(submitPresentation(request, partial, vault)).rejects.toMatchObject({ code: 'NO_MATCHING_CREDENTIAL' });
    await expect(submitPresentation(request, partial[0]!, vault)).rejects.toMatchObject({
      code: 'NO_MATCHING_CREDENTIAL',
    });
    expect(calls).toHaveLength(0);
    expect(await vault.listPresentations()).toEqual([]);
  });

  it('credential_sets with two alternatives: the one held is chosen, and answering both is refused', async () => {
    const vault = await freshVault();
    const membership = await heldCredential(vault);
    const request = await requestFor({
      credentials: [passportQuery, membershipQuery, diplomaQuery],
      // The diploma query is named by no option: it is not asked for (§6.4.2).
      credential_sets: [{ options: [['passport'], ['membership']] }],
    });
    const plan = planPresentation(request, [membership]);
    expect(plan.canShare).toBe(true);
    expect(plan.credentials.map((c) => c.queryId)).toEqual(['passport', 'membership']);
    expect(plan.sets).toEqual([
      {
        required: true,
        options: [
          { queryIds: ['passport'], isSatisfiable: false },
          { queryIds: ['membership'], isSatisfiable: true },
        ],
      },
    ]);
    const choice = defaultChoice(plan);
    expect(choice.options).toEqual([1]);
    expect(chosenCandidates(plan, choice).map((c) => c.credential.id)).toEqual([membership.id]);
    expect(answersRequest(request.dcql, ['membership'])).toBe(true);
    expect(answersRequest(request.dcql, ['passport'])).toBe(true);
    expect(answersRequest(request.dcql, ['passport', 'membership'])).toBe(false);
    expect(answersRequest(request.dcql, ['diploma'])).toBe(false);
    expect(answersRequest(request.dcql, [])).toBe(false);

    const { calls } = stubFetch({ [`POST ${RESPONSE_URI}`]: () => json({}) });
    await submitPresentation(request, chosenCandidates(plan, choice), vault);
    expect(Object.keys(JSON.parse(new URLSearchParams(calls[0]!.body).get('vp_token')!))).toEqual(['membership']);

    // Neither alternative held: nothing can be shared, and both are named.
    const none = planPresentation(request, []);
    expect(none).toMatchObject({ canShare: false, missing: ['passport', 'membership'] });
  });

  it('an optional set: left out unless the holder opts in; sharing works either way', async () => {
    const vault = await freshVault();
    const membership = await heldCredential(vault);
    const diploma = await heldDiploma(vault);
    const request = await requestFor({
      credentials: [membershipQuery, diplomaQuery],
      credential_sets: [{ options: [['membership']] }, { required: false, options: [['diploma']] }],
    });
    const plan = planPresentation(request, [membership, diploma]);
    expect(plan.sets.map((set) => set.required)).toEqual([true, false]);
    const choice = defaultChoice(plan);
    expect(choice.options).toEqual([0, null]);
    expect(chosenCandidates(plan, choice).map((c) => c.queryId)).toEqual(['membership']);
    const withDiploma = { ...choice, options: [0, 0] };
    expect(chosenCandidates(plan, withDiploma).map((c) => c.queryId)).toEqual(['membership', 'diploma']);
    expect(answersRequest(request.dcql, ['membership'])).toBe(true);
    expect(answersRequest(request.dcql, ['membership', 'diploma'])).toBe(true);
    // The optional part alone does not answer the required one.
    expect(answersRequest(request.dcql, ['diploma'])).toBe(false);

    const { calls } = stubFetch({ [`POST ${RESPONSE_URI}`]: () => json({}) });
    await submitPresentation(request, chosenCandidates(plan, withDiploma), vault);
    expect(Object.keys(JSON.parse(new URLSearchParams(calls[0]!.body).get('vp_token')!))).toEqual([
      'membership',
      'diploma',
    ]);
    // Without the optional credential held, the request can still be answered.
    expect(planPresentation(request, [membership])).toMatchObject({ canShare: true, missing: [] });
  });

  it('the chooser: the holder’s credential for a query, usable ones offered first', async () => {
    const vault = await freshVault();
    const revoked = await heldCredential(vault, { lastStatus: 'REVOKED' });
    const good = await heldCredential(vault);
    const other = await heldCredential(vault);
    const request = await requestFor({ credentials: [membershipQuery] });
    const plan = planPresentation(request, [revoked, good, other]);
    expect(plan.credentials[0]!.candidates.map((c) => c.credential.id)).toEqual([good.id, other.id, revoked.id]);
    expect(chosenCandidates(plan, defaultChoice(plan))[0]!.credential.id).toBe(good.id);
    const picked = chosenCandidates(plan, { options: [0], credentials: { membership: other.id } });
    expect(picked.map((c) => c.credential.id)).toEqual([other.id]);
    // The single-query path is unchanged: the same candidates, flattened.
    expect(findCandidates(request, [revoked, good, other])).toEqual(plan.credentials[0]!.candidates);
  });

  it('refuses credential_sets that name unknown queries, and duplicate query ids', async () => {
    for (const dcqlQuery of [
      { credentials: [membershipQuery], credential_sets: [{ options: [['membership', 'ghost']] }] },
      { credentials: [membershipQuery], credential_sets: [{ options: [] }] },
      { credentials: [membershipQuery], credential_sets: [{ options: [['membership']], required: 'yes' }] },
      { credentials: [membershipQuery, membershipQuery] },
      { credentials: [{ ...membershipQuery, id: 'has space' }] },
    ]) {
      const jwt = await signedRequest(verifier, { x5c: verifier.x5c }, payload(x509HashId, { dcql_query: dcqlQuery }));
      await expect(resolvePresentationRequest(serve(jwt, x509HashId))).rejects.toMatchObject({
        code: 'REQUEST_INVALID',
      });
    }
  });
});

describe('batch credentials: a fresh instance per presentation', () => {
  /** A credential issued as a batch of 3: instance 0 bound to the vault's key, 1 and 2 to keys of their own. */
  async function heldBatch(vault: WalletVault): Promise<StoredCredential> {
    const issuer = await generateEs256KeyPair();
    const signer = await signerFromPrivateJwk(issuer.privateJwk);
    const claims = { full_name: 'Ada Lovelace', age: 36 };
    const issue = (holderJwk: JsonWebKey) =>
      issueSdJwtVc({ signer, header: {}, issuer: 'https://issuer.example', vct: VCT, holderJwk, claims });
    const own = [await generateEs256KeyPair(), await generateEs256KeyPair()];
    const raw = await issue(vault.holder().publicJwk);
    const credential = await heldCredential(vault, {
      raw,
      claims,
      instances: [{ raw }, ...(await Promise.all(own.map(async (key) => ({ raw: await issue(key.publicJwk), key }))))],
    });
    await vault.saveCredential(credential);
    return credential;
  }

  /** Presents the credential once (direct_post), answering the presentation sent. */
  async function presentOnce(vault: WalletVault, credential: StoredCredential) {
    const jwt = await signedRequest(verifier, { x5c: verifier.x5c }, payload(x509HashId));
    const request = await resolvePresentationRequest(serve(jwt, x509HashId));
    const { calls } = stubFetch({ [`POST ${RESPONSE_URI}`]: () => json({}) });
    const held = (await vault.getCredential(credential.id))!;
    await submitPresentation(request, { queryId: 'membership', credential: held, disclose: ['age'] }, vault);
    return JSON.parse(new URLSearchParams(calls[0]!.body).get('vp_token')!).membership[0] as string;
  }

  it('uses each instance once, with its own key, then the least recently used, and says so in the history', async () => {
    const vault = await freshVault();
    const credential = await heldBatch(vault);
    const instances = credential.instances!;
    const keyOf = (i: number) => (i === 0 ? vault.holder().publicJwk : instances[i]!.key!.publicJwk);
    for (const expected of [0, 1, 2, 0]) {
      const presentation = await presentOnce(vault, credential);
      // The issuer-signed part is the instance's, and the key binding is signed by that instance's key.
      expect(presentation.split('~')[0]).toBe(instances[expected]!.raw.split('~')[0]);
      expect(await verifyJwtSignature(presentation.split('~').at(-1)!, keyOf(expected))).toBe(true);
    }
    const history = (await vault.listPresentations()).sort((a, b) => a.at.localeCompare(b.at));
    expect(history.map((h) => h.instance)).toEqual([
      { index: 0, count: 3, reused: false },
      { index: 1, count: 3, reused: false },
      { index: 2, count: 3, reused: false },
      { index: 0, count: 3, reused: true },
    ]);
    // The record stays one credential (one card); its instances carry when they were last used.
    expect(await vault.listCredentials()).toHaveLength(1);
    expect((await vault.getCredential(credential.id))!.instances!.every((i) => i.usedAt)).toBe(true);
  });

  it('chooseInstance: a credential of one instance is never "reused"', async () => {
    const vault = await freshVault();
    const single = await heldCredential(vault);
    expect(chooseInstance(single)).toEqual({ index: 0, count: 1, raw: single.raw, reused: false });
  });
});
