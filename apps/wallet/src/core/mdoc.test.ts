import {
  decodeJwt,
  decodeSdJwtVc,
  encodeStatusList,
  generateEs256KeyPair,
  issueSdJwtVc,
  signerFromPrivateJwk,
  signJwt,
  signStatusListToken,
  x509Hash,
} from '@cp/credentials';
import {
  coseSignerFromPrivateJwk,
  decodeMdoc,
  issueMdoc,
  mdocNames,
  verifyMdocPresentation,
} from '@cp/credentials/mdoc';
import { makeCertificate, makeIssuerPki } from '@cp/credentials/testing';
import { calculateJwkThumbprint, compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetPlatformTrust } from './platform-trust.ts';
import { planPresentation, resolvePresentationRequest, submitPresentation } from './present.ts';
import { acceptOffer, resolveOffer } from './receive.ts';
import { recheckCredential } from './status.ts';
import { certifiedKey, json, platformRoutes, type Route, stubFetch, type TestIdentity, text } from './test-support.ts';
import type { StoredCredential, WalletVault } from './types.ts';
import { openVault } from './vault.ts';

/**
 * The wallet core with ISO mdocs: an issuer that offers its credential as SD-JWT VC and as mdoc (OpenID4VCI 1.0
 * Appendix A.2), the holder choosing the mdoc, what the wallet refuses, and presenting it to an OpenID4VP 1.0
 * `mso_mdoc` query (direct_post.jwt), checked with the verifier's own library.
 */

const PLATFORM = 'https://platform.example';
const ISSUER = `${PLATFORM}/orgs/7`;
const VCT = `${ISSUER}/vct/membership`;
const { docType: DOC_TYPE, namespace: NS } = mdocNames({ vct: VCT });
const STATUS_URI = `${ISSUER}/status-lists/1`;
const attributes = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
  { name: 'joined_on', type: 'DATETIME' as const },
];

let pki: Awaited<ReturnType<typeof makeIssuerPki>>;
let counter = 0;

beforeAll(async () => {
  pki = await makeIssuerPki(ISSUER);
});
afterEach(() => {
  vi.unstubAllGlobals();
  forgetPlatformTrust();
});

async function freshVault() {
  const vault = await openVault(`mdoc-test-${Date.now()}-${++counter}`, { kdfIterations: 1_000 });
  await vault.create('passcode');
  return vault;
}

const offerLink = (ids: string[]) =>
  `openid-credential-offer://?credential_offer=${encodeURIComponent(
    JSON.stringify({
      credential_issuer: ISSUER,
      credential_configuration_ids: ids,
      grants: { 'urn:ietf:params:oauth:grant-type:pre-authorized_code': { 'pre-authorized_code': 'code-1' } },
    }),
  )}`;

interface IssuerSetup {
  /** The mdoc's signer and chain (default: the certified issuer key and its chain). */
  signer?: () => Promise<{ privateJwk: JsonWebKey; x5chain: string[] }>;
  holderJwk?: JsonWebKey;
  docType?: string;
  /** Bits set in the status list (1: revoked). */
  revoked?: number[];
  /** Announces batch issuance (batch_credential_issuance) and answers one mdoc per key proof. */
  batchSize?: number;
  /** The i-th mdoc of a batch: another device key, signer or claims than the others (default: as the first). */
  tamper?: (i: number) => {
    holderJwk?: JsonWebKey;
    signer?: { privateJwk: JsonWebKey; x5chain: string[] };
    claims?: { full_name: string; age: number; joined_on: string };
  };
}

const claimsPath = (name: string) => ({ path: [NS, name], display: [{ name: `${name} (en)`, locale: 'en' }] });

/** An issuer of one schema in both formats, anchored at the platform CA (the test PKI's root). */
function serveIssuer(setup: IssuerSetup = {}): Record<string, Route> {
  const signer = setup.signer ?? (async () => ({ privateJwk: pki.leaf.key.privateJwk, x5chain: pki.x5c }));
  return {
    ...platformRoutes(PLATFORM, { ca: pki.root.pem }),
    [`${ISSUER}/.well-known/openid-credential-issuer`]: () =>
      json({
        credential_issuer: ISSUER,
        credential_endpoint: `${ISSUER}/credential`,
        token_endpoint: `${ISSUER}/token`,
        display: [{ name: 'Mdoc Society', locale: 'en' }],
        ...(setup.batchSize ? { batch_credential_issuance: { batch_size: setup.batchSize } } : {}),
        credential_configurations_supported: {
          membership: {
            format: 'dc+sd-jwt',
            vct: VCT,
            credential_metadata: { display: [{ name: 'Membership', locale: 'en' }] },
          },
          membership_mdoc: {
            format: 'mso_mdoc',
            doctype: DOC_TYPE,
            credential_metadata: {
              display: [
                { name: 'Membership', locale: 'en', background_color: '#123456' },
                { name: '会員証', locale: 'ja' },
              ],
              claims: attributes.map((a) => claimsPath(a.name)),
            },
          },
        },
      }),
    [`${ISSUER}/.well-known/oauth-authorization-server`]: () =>
      json({ issuer: ISSUER, token_endpoint: `${ISSUER}/token` }),
    [`POST ${ISSUER}/token`]: () => json({ access_token: 'at-1', token_type: 'Bearer', c_nonce: 'nonce-1' }),
    [`POST ${ISSUER}/credential`]: async ({ body }) => {
      const request = JSON.parse(body);
      const proofs = request.proofs.jwt as string[];
      // One mdoc per proof (a batch: each with its own status entry, 5, 6, …); one only when no batch is announced.
      const credentials = await Promise.all(
        proofs.slice(0, setup.batchSize ?? 1).map(async (proof, i) => {
          const tampered = setup.tamper?.(i) ?? {};
          const { privateJwk, x5chain } = tampered.signer ?? (await signer());
          const credential = await issueMdoc({
            signer: await coseSignerFromPrivateJwk(privateJwk),
            x5chain,
            docType: setup.docType ?? DOC_TYPE,
            namespace: NS,
            attributes,
            claims: tampered.claims ?? { full_name: 'Ada Lovelace', age: 36, joined_on: '2020-05-01' },
            holderJwk: tampered.holderJwk ?? setup.holderJwk ?? (decodeJwt(proof).header.jwk as JsonWebKey),
            status: { idx: 5 + i, uri: STATUS_URI },
            validUntil: new Date(Date.now() + 86_400_000),
          });
          return { credential };
        }),
      );
      return json({ credentials });
    },
    [STATUS_URI]: async () =>
      text(
        await signStatusListToken({
          signer: await signerFromPrivateJwk(pki.leaf.key.privateJwk),
          header: { x5c: pki.x5c },
          uri: STATUS_URI,
          lst: encodeStatusList(16, setup.revoked ?? []),
          ttl: 60,
        }),
        'application/statuslist+jwt',
      ),
  };
}

async function receiveMdoc(vault: WalletVault, setup: IssuerSetup = {}, options: { batchSize?: number } = {}) {
  stubFetch(serveIssuer(setup));
  const resolved = await resolveOffer(offerLink(['membership', 'membership_mdoc']), 'en');
  return acceptOffer(resolved, vault, { format: 'mso_mdoc', ...options });
}

describe('receiving an mdoc', () => {
  it('offers the choice when both formats are offered, SD-JWT VC first; an mdoc-only offer is an mdoc', async () => {
    stubFetch(serveIssuer());
    expect((await resolveOffer(offerLink(['membership', 'membership_mdoc']), 'en')).formats).toEqual([
      'dc+sd-jwt',
      'mso_mdoc',
    ]);
    expect((await resolveOffer(offerLink(['membership']), 'en')).formats).toEqual(['dc+sd-jwt']);
    // The mdoc listed first: the SD-JWT VC is still the default.
    expect(await resolveOffer(offerLink(['membership_mdoc', 'membership']), 'en')).toMatchObject({
      configurationId: 'membership',
      formats: ['dc+sd-jwt', 'mso_mdoc'],
    });
    const mdocOnly = await resolveOffer(offerLink(['membership_mdoc']), 'ja');
    expect(mdocOnly).toMatchObject({ formats: ['mso_mdoc'], configurationId: 'membership_mdoc' });
    expect(mdocOnly.claimDisplay.map((c) => c.name)).toEqual(['full_name', 'age', 'joined_on']);
  });

  it('receives the mdoc bound to the holder key, verified to the platform CA, with its typed elements and status', async () => {
    const vault = await freshVault();
    const stored = await receiveMdoc(vault);
    expect(stored).toMatchObject({
      format: 'mso_mdoc',
      vct: DOC_TYPE,
      issuer: { id: ISSUER, keySource: 'x5c', assurance: { level: 'platform', by: 'platform.example' } },
      display: { name: { en: 'Membership', ja: '会員証' }, backgroundColor: '#123456' },
      claims: { full_name: 'Ada Lovelace', age: 36, joined_on: '2020-05-01' },
      mdoc: {
        docType: DOC_TYPE,
        namespaces: { [NS]: { full_name: 'Ada Lovelace', age: 36, joined_on: '2020-05-01' } },
        x5chain: pki.x5c,
      },
      statusReference: { uri: STATUS_URI, idx: 5 },
      lastStatus: 'VALID',
      expiresAt: expect.any(String),
    });
    expect(stored.claimDisplay.map((c) => [c.name, c.label.en])).toEqual([
      ['full_name', 'full_name (en)'],
      ['age', 'age (en)'],
      ['joined_on', 'joined_on (en)'],
    ]);
    expect(await vault.listCredentials()).toEqual([stored]);
  });

  it('reads the status from the MSO’s status list entry: a revoked mdoc is REVOKED', async () => {
    const vault = await freshVault();
    const stored = await receiveMdoc(vault, { revoked: [5] });
    expect(stored.lastStatus).toBe('REVOKED');
    stubFetch(serveIssuer());
    expect((await recheckCredential(stored)).credential.lastStatus).toBe('VALID');
  });

  it('refuses an mdoc bound to another key, and stores nothing', async () => {
    const vault = await freshVault();
    const other = await generateEs256KeyPair();
    await expect(receiveMdoc(vault, { holderJwk: other.publicJwk })).rejects.toMatchObject({
      code: 'CREDENTIAL_INVALID',
    });
    expect(await vault.listCredentials()).toEqual([]);
  });

  it('refuses an mdoc whose certificate names another issuer', async () => {
    const vault = await freshVault();
    const elsewhere = await makeIssuerPki('https://elsewhere.example/orgs/1');
    await expect(
      receiveMdoc(vault, {
        signer: async () => ({ privateJwk: elsewhere.leaf.key.privateJwk, x5chain: elsewhere.x5c }),
      }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID', message: expect.stringMatching(/does not speak for/) });
    expect(await vault.listCredentials()).toEqual([]);
  });

  it('refuses an mdoc not signed by its x5chain leaf, or with a chain that does not hold together', async () => {
    const vault = await freshVault();
    const stranger = await generateEs256KeyPair();
    await expect(
      receiveMdoc(vault, { signer: async () => ({ privateJwk: stranger.privateJwk, x5chain: pki.x5c }) }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID', message: expect.stringMatching(/does not verify/) });
    // The leaf under a CA that did not certify it.
    const otherCa = await makeCertificate({ subject: 'CN=Other CA', ca: { pathLength: 0 } });
    await expect(
      receiveMdoc(vault, {
        signer: async () => ({ privateJwk: pki.leaf.key.privateJwk, x5chain: [pki.leaf.b64, otherCa.b64] }),
      }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID' });
    expect(await vault.listCredentials()).toEqual([]);
  });

  it('refuses another doctype than the one offered', async () => {
    const vault = await freshVault();
    await expect(receiveMdoc(vault, { docType: `${DOC_TYPE}.other` })).rejects.toMatchObject({
      code: 'CREDENTIAL_INVALID',
      message: expect.stringMatching(/doctype/),
    });
  });
});

describe('receiving an mdoc batch (OpenID4VCI 1.0 §8.2 proofs, HAIP 1.0)', () => {
  const sameXY = (jwk: JsonWebKey | null | undefined) => ({ x: jwk?.x, y: jwk?.y });

  it('stores the batch as one credential whose instances are each bound to a key of their own, kept with it', async () => {
    const vault = await freshVault();
    const { calls } = stubFetch(serveIssuer({ batchSize: 3 }));
    const resolved = await resolveOffer(offerLink(['membership', 'membership_mdoc']), 'en');
    const stored = await acceptOffer(resolved, vault, { format: 'mso_mdoc' });
    const proofs = JSON.parse(calls.find((c) => c.url === `${ISSUER}/credential`)!.body).proofs.jwt as string[];
    expect(proofs).toHaveLength(3);
    expect(stored).toMatchObject({ format: 'mso_mdoc', vct: DOC_TYPE, lastStatus: 'VALID' });
    expect(stored.instances).toHaveLength(3);
    const [first, ...more] = stored.instances!;
    // The first is `raw`, bound to the vault's holder key (no key of its own), as for an SD-JWT VC batch.
    expect(first).toEqual({ raw: stored.raw, statusReference: { uri: STATUS_URI, idx: 5 } });
    expect(sameXY(decodeMdoc(first!.raw).deviceJwk)).toEqual(sameXY(vault.holder().publicJwk));
    expect(more.map((i) => i.statusReference)).toEqual([
      { uri: STATUS_URI, idx: 6 },
      { uri: STATUS_URI, idx: 7 },
    ]);
    for (const [i, instance] of more.entries()) {
      // Its MSO's deviceKey is the key stored with it (the one its proof was signed with), private half included.
      expect(sameXY(decodeMdoc(instance.raw).deviceJwk)).toEqual(sameXY(instance.key!.publicJwk));
      expect(sameXY(decodeJwt(proofs[i + 1]!).header.jwk as JsonWebKey)).toEqual(sameXY(instance.key!.publicJwk));
      expect(sameXY(instance.key!.privateJwk)).toEqual(sameXY(instance.key!.publicJwk));
      expect(instance.key!.privateJwk.d).toEqual(expect.any(String));
      expect(decodeMdoc(instance.raw).namespaces).toEqual(stored.mdoc!.namespaces);
    }
    // Three distinct device keys: no two presentations of different instances can be linked by it.
    expect(new Set(stored.instances!.map((i) => decodeMdoc(i.raw).deviceJwk?.x)).size).toBe(3);
    // One card.
    expect(await vault.listCredentials()).toEqual([stored]);
  });

  it('asks for one mdoc with a cap of 1 and keeps no instances (a single mdoc is stored as before batches)', async () => {
    const vault = await freshVault();
    const { calls } = stubFetch(serveIssuer({ batchSize: 3 }));
    const resolved = await resolveOffer(offerLink(['membership', 'membership_mdoc']), 'en');
    const single = await acceptOffer(resolved, vault, { format: 'mso_mdoc', batchSize: 1 });
    const body = JSON.parse(calls.find((c) => c.url === `${ISSUER}/credential`)!.body);
    expect(body.proofs.jwt).toHaveLength(1);
    expect(single.instances).toBeUndefined();
    expect(await vault.listCredentials()).toEqual([single]);
  });

  it('refuses a batch with an instance bound to a key it was not asked for (another, or the first’s), and stores nothing', async () => {
    const vault = await freshVault();
    const stranger = await generateEs256KeyPair();
    await expect(
      receiveMdoc(vault, {
        batchSize: 3,
        tamper: (i) => (i === 2 ? { holderJwk: stranger.publicJwk } : {}),
      }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID' });
    await expect(
      receiveMdoc(vault, {
        batchSize: 3,
        tamper: (i) => (i === 1 ? { holderJwk: vault.holder().publicJwk } : {}),
      }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID' });
    expect(await vault.listCredentials()).toEqual([]);
  });

  it('verifies every instance as the first: another issuer’s chain or other elements refuse the whole batch', async () => {
    const vault = await freshVault();
    const elsewhere = await makeIssuerPki('https://elsewhere.example/orgs/1');
    await expect(
      receiveMdoc(vault, {
        batchSize: 3,
        tamper: (i) =>
          i === 1 ? { signer: { privateJwk: elsewhere.leaf.key.privateJwk, x5chain: elsewhere.x5c } } : {},
      }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID', message: expect.stringMatching(/does not speak for/) });
    await expect(
      receiveMdoc(vault, {
        batchSize: 2,
        tamper: (i) => (i === 1 ? { claims: { full_name: 'Mallory', age: 36, joined_on: '2020-05-01' } } : {}),
      }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID', message: expect.stringMatching(/not the same credential/) });
    expect(await vault.listCredentials()).toEqual([]);
  });
});

describe('presenting an mdoc (OpenID4VP 1.0, DCQL mso_mdoc)', () => {
  const VERIFIER = 'https://verifier.example';
  const REQUEST_URI = `${VERIFIER}/requests/1`;
  const RESPONSE_URI = `${VERIFIER}/responses/1`;
  const query = {
    id: 'membership',
    format: 'mso_mdoc',
    meta: { doctype_value: DOC_TYPE },
    claims: [{ path: [NS, 'age'] }, { path: [NS, 'joined_on'] }],
  };
  let verifier: TestIdentity;
  let clientId: string;

  beforeAll(async () => {
    verifier = await certifiedKey({ dnsNames: ['verifier.example'], commonName: 'Bookshop Verifier' });
    clientId = `x509_hash:${await x509Hash(verifier.x5c[0]!)}`;
  });

  async function request(encJwk: JsonWebKey, dcql: unknown = { credentials: [query] }) {
    const jwt = await signJwt(
      verifier.signer,
      { typ: 'oauth-authz-req+jwt', x5c: verifier.x5c },
      {
        client_id: clientId,
        response_type: 'vp_token',
        response_mode: 'direct_post.jwt',
        response_uri: RESPONSE_URI,
        nonce: 'nonce-mdoc',
        state: 'state-1',
        dcql_query: dcql,
        client_metadata: { client_name: 'Bookshop Ltd', jwks: { keys: [encJwk] } },
      },
    );
    return `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(REQUEST_URI)}#${jwt}`;
  }

  it('matches the held mdoc by doctype and paths, answers with a DeviceResponse of exactly those elements, records it', async () => {
    const vault = await freshVault();
    const held = await receiveMdoc(vault);
    const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1', use: 'enc', alg: 'ECDH-ES' };
    const link = await request(encJwk);
    const jwt = link.split('#')[1]!;
    const posted: string[] = [];
    stubFetch({
      [REQUEST_URI]: () => text(jwt, 'application/oauth-authz-req+jwt'),
      [`POST ${RESPONSE_URI}`]: ({ body }) => {
        posted.push(body);
        return json({ redirect_uri: `${VERIFIER}/done` });
      },
    });
    const resolved = await resolvePresentationRequest(link.split('#')[0]!);
    // An SD-JWT VC of the same schema does not answer an mso_mdoc query.
    const sdJwt: StoredCredential = { ...held, id: 'sd', format: 'dc+sd-jwt', vct: VCT };
    delete sdJwt.mdoc;
    const plan = planPresentation(resolved, [sdJwt, held]);
    expect(plan.canShare).toBe(true);
    expect(plan.credentials[0]).toMatchObject({ vctValues: [DOC_TYPE], claimNames: ['age', 'joined_on'] });
    const [candidate] = plan.credentials[0]!.candidates;
    expect(plan.credentials[0]!.candidates).toHaveLength(1);
    expect(candidate).toEqual({
      queryId: 'membership',
      credential: held,
      disclose: ['age', 'joined_on'],
      paths: [
        [NS, 'age'],
        [NS, 'joined_on'],
      ],
    });

    expect(await submitPresentation(resolved, candidate!, vault)).toEqual({ redirectUri: `${VERIFIER}/done` });
    const form = new URLSearchParams(posted[0]);
    const { plaintext } = await compactDecrypt(form.get('response')!, privateKey);
    const answer = JSON.parse(new TextDecoder().decode(plaintext));
    expect(answer.state).toBe('state-1');
    const [deviceResponse] = answer.vp_token.membership;
    // The verifier's own checks, with the transcript of this request (thumbprint of its encryption key).
    const result = await verifyMdocPresentation(
      deviceResponse,
      {
        clientId,
        nonce: 'nonce-mdoc',
        responseUri: RESPONSE_URI,
        jwkThumbprint: await calculateJwkThumbprint(encJwk as never, 'sha256'),
        docType: DOC_TYPE,
        requestedClaims: [
          { name: 'age', path: [NS, 'age'] },
          { name: 'joined_on', path: [NS, 'joined_on'] },
          { name: 'full_name', path: [NS, 'full_name'] },
        ],
      },
      {
        trustAnchors: [pki.root.pem],
        admitIssuer: async () => ({
          issuer: { admitted: true, reason: 'ANCHOR', detail: 'test' },
          type: { passed: true },
        }),
        fetchStatusListToken: async () => {
          throw new Error('not fetched here');
        },
      },
    );
    expect(result.checks.find((c) => c.code === 'KEY_BINDING')?.passed).toBe(true);
    expect(result.checks.find((c) => c.code === 'ISSUER_SIGNATURE')?.passed).toBe(true);
    // full_name was not asked, so not disclosed.
    expect(result.checks.find((c) => c.code === 'CLAIMS_DISCLOSED')).toMatchObject({
      passed: false,
      detail: 'Not disclosed: full_name',
    });
    expect(result.claims).toEqual({ age: 36, joined_on: '2020-05-01' });
    expect(await vault.listPresentations()).toEqual([
      expect.objectContaining({ outcome: 'SENT', credentialId: held.id, sharedClaims: ['age', 'joined_on'] }),
    ]);
  });

  it('answers an SD-JWT VC query and an mdoc query together in one vp_token', async () => {
    const vault = await freshVault();
    const held = await receiveMdoc(vault);
    const raw = await issueSdJwtVc({
      signer: await signerFromPrivateJwk(pki.leaf.key.privateJwk),
      header: { x5c: pki.x5c },
      issuer: ISSUER,
      vct: VCT,
      holderJwk: vault.holder().publicJwk,
      claims: { full_name: 'Ada Lovelace', age: 36 },
    });
    const sdJwt: StoredCredential = {
      ...held,
      id: 'sd-1',
      format: 'dc+sd-jwt',
      raw,
      vct: VCT,
      claims: { full_name: 'Ada Lovelace', age: 36 },
    };
    delete sdJwt.mdoc;
    const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1', use: 'enc', alg: 'ECDH-ES' };
    const sdJwtQuery = {
      id: 'name',
      format: 'dc+sd-jwt',
      meta: { vct_values: [VCT] },
      claims: [{ path: ['full_name'] }],
    };
    const link = await request(encJwk, { credentials: [sdJwtQuery, query] });
    const posted: string[] = [];
    stubFetch({
      [REQUEST_URI]: () => text(link.split('#')[1]!, 'application/oauth-authz-req+jwt'),
      [`POST ${RESPONSE_URI}`]: ({ body }) => {
        posted.push(body);
        return json({});
      },
    });
    const resolved = await resolvePresentationRequest(link.split('#')[0]!);
    const plan = planPresentation(resolved, [sdJwt, held]);
    expect(plan.canShare).toBe(true);
    const candidates = plan.credentials.map((c) => c.candidates[0]!);
    expect(candidates.map((c) => [c.queryId, c.credential.id])).toEqual([
      ['name', 'sd-1'],
      ['membership', held.id],
    ]);
    await submitPresentation(resolved, candidates, vault);
    const { plaintext } = await compactDecrypt(new URLSearchParams(posted[0]).get('response')!, privateKey);
    const vpToken = JSON.parse(new TextDecoder().decode(plaintext)).vp_token;
    expect(Object.keys(vpToken).sort()).toEqual(['membership', 'name']);
    const presented = await decodeSdJwtVc(vpToken.name[0]);
    expect(presented.claims).toMatchObject({ full_name: 'Ada Lovelace' });
    expect(presented.claims).not.toHaveProperty('age');
    // The mdoc's entry is a DeviceResponse (base64url CBOR), not an SD-JWT.
    expect(vpToken.membership[0]).not.toContain('~');
    expect((await vault.listPresentations()).map((p) => p.sharedClaims).sort()).toEqual([
      ['age', 'joined_on'],
      ['full_name'],
    ]);
  });

  it('finds nothing for another doctype or an element the mdoc lacks', async () => {
    const vault = await freshVault();
    const held = await receiveMdoc(vault);
    const { publicKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1', use: 'enc', alg: 'ECDH-ES' };
    for (const other of [
      { ...query, meta: { doctype_value: `${DOC_TYPE}.x` } },
      { ...query, claims: [{ path: [NS, 'nickname'] }] },
    ]) {
      const link = await request(encJwk, { credentials: [other] });
      stubFetch({ [REQUEST_URI]: () => text(link.split('#')[1]!, 'application/oauth-authz-req+jwt') });
      const resolved = await resolvePresentationRequest(link.split('#')[0]!);
      expect(planPresentation(resolved, [held])).toMatchObject({ canShare: false, missing: ['membership'] });
    }
  });

  it('presents a fresh instance of a batch each time, device-signed by that instance’s key: both verify', async () => {
    const vault = await freshVault();
    const held = await receiveMdoc(vault, { batchSize: 3 });
    const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const encJwk = { ...(await exportJWK(publicKey)), kid: 'enc-1', use: 'enc', alg: 'ECDH-ES' };
    const statusListToken = await signStatusListToken({
      signer: await signerFromPrivateJwk(pki.leaf.key.privateJwk),
      header: { x5c: pki.x5c },
      uri: STATUS_URI,
      lst: encodeStatusList(16, []),
      ttl: 60,
    });
    const presentOnce = async () => {
      const link = await request(encJwk);
      const posted: string[] = [];
      stubFetch({
        [REQUEST_URI]: () => text(link.split('#')[1]!, 'application/oauth-authz-req+jwt'),
        [`POST ${RESPONSE_URI}`]: ({ body }) => {
          posted.push(body);
          return json({});
        },
      });
      const resolved = await resolvePresentationRequest(link.split('#')[0]!);
      // The card as the vault holds it now (the instances used so far marked).
      const [candidate] = planPresentation(resolved, await vault.listCredentials()).credentials[0]!.candidates;
      await submitPresentation(resolved, candidate!, vault);
      const { plaintext } = await compactDecrypt(new URLSearchParams(posted[0]).get('response')!, privateKey);
      const [deviceResponse] = JSON.parse(new TextDecoder().decode(plaintext)).vp_token.membership;
      // The verifier's own checks, all of them: issuer signature and chain, device signature over this request's
      // transcript by the MSO's deviceKey, the elements asked for, validity and status.
      return verifyMdocPresentation(
        deviceResponse,
        {
          clientId,
          nonce: 'nonce-mdoc',
          responseUri: RESPONSE_URI,
          jwkThumbprint: await calculateJwkThumbprint(encJwk as never, 'sha256'),
          docType: DOC_TYPE,
          requestedClaims: [
            { name: 'age', path: [NS, 'age'] },
            { name: 'joined_on', path: [NS, 'joined_on'] },
          ],
        },
        {
          trustAnchors: [pki.root.pem],
          admitIssuer: async () => ({
            issuer: { admitted: true, reason: 'ANCHOR', detail: 'test' },
            type: { passed: true },
          }),
          fetchStatusListToken: async () => statusListToken,
        },
      );
    };
    const first = await presentOnce();
    const second = await presentOnce();
    for (const result of [first, second]) {
      expect(result.checks.filter((c) => !c.passed)).toEqual([]);
      expect(result.verified).toBe(true);
      expect(result.claims).toEqual({ age: 36, joined_on: '2020-05-01' });
    }
    // Two different instances (their own status entries), the second bound to a key of its own, not the vault's.
    expect([first.status?.idx, second.status?.idx]).toEqual([5, 6]);
    expect(held.instances![1]!.key!.publicJwk.x).not.toBe(vault.holder().publicJwk.x);
    const history = (await vault.listPresentations()).sort((a, b) => a.at.localeCompare(b.at));
    expect(history.map((h) => h.instance)).toEqual([
      { index: 0, count: 3, reused: false },
      { index: 1, count: 3, reused: false },
    ]);
    const [used0, used1, unused] = (await vault.getCredential(held.id))!.instances!;
    expect([used0!.usedAt, used1!.usedAt, unused!.usedAt]).toEqual([expect.any(String), expect.any(String), undefined]);
    expect(await vault.listCredentials()).toHaveLength(1);
  });
});
