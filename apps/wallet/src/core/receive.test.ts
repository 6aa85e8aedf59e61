import {
  decodeJwt,
  didJwkFromJwk,
  encodeStatusList,
  generateEs256KeyPair,
  issueSdJwtVc,
  signerFromPrivateJwk,
  signStatusListToken,
} from '@cp/credentials';
import { makeCertificate } from '@cp/credentials/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetPlatformTrust } from './platform-trust.ts';
import { acceptOffer, resolveOffer } from './receive.ts';
import { certifiedKey, json, platformRoutes, stubFetch, type TestIdentity, text } from './test-support.ts';
import type { WalletVault } from './types.ts';
import { openVault } from './vault.ts';

const ISSUER = 'https://issuer.example/tenant';
const AUTH = 'https://auth.example';
const VCT = 'https://issuer.example/vct/diploma';
const STATUS_URI = `${ISSUER}/status/1`;

let identity: TestIdentity;
let vault: WalletVault;
let counter = 0;

beforeAll(async () => {
  identity = await certifiedKey({ uris: [ISSUER] });
});
afterEach(() => {
  vi.unstubAllGlobals();
  forgetPlatformTrust();
});

async function freshVault() {
  vault = await openVault(`receive-test-${Date.now()}-${++counter}`, { kdfIterations: 1_000 });
  await vault.create('passcode');
  return vault;
}

const offer = (extra: Record<string, unknown> = {}) => ({
  credential_issuer: ISSUER,
  credential_configuration_ids: ['diploma'],
  grants: {
    'urn:ietf:params:oauth:grant-type:pre-authorized_code': { 'pre-authorized_code': 'code-1', ...extra },
  },
});
const offerLink = (value: unknown) =>
  `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(value))}`;

interface IssuerSetup {
  /** How the credential is signed (default: the certified key with its x5c). */
  sign?: () => Promise<{ signer: TestIdentity['signer']; header: { kid?: string; x5c?: string[] }; iss: string }>;
  holderJwk?: JsonWebKey;
  token?: () => Response;
  extraRoutes?: Parameters<typeof stubFetch>[0];
  /** Announces batch issuance and answers one credential per proof. */
  batchSize?: number;
  /** The claims of the i-th credential of a batch (default: the same for all). */
  claimsOf?: (i: number) => Record<string, string | number>;
}

/**
 * A draft-style issuer on a path: metadata only where the well-known segment is appended, an external
 * authorization server, display at the configuration level, claims as an object map, no nonce endpoint.
 */
function serveIssuer(setup: IssuerSetup = {}) {
  const sign = setup.sign ?? (async () => ({ signer: identity.signer, header: { x5c: identity.x5c }, iss: ISSUER }));
  return stubFetch({
    [`${ISSUER}/.well-known/openid-credential-issuer`]: () =>
      json({
        credential_issuer: ISSUER,
        authorization_servers: [AUTH],
        credential_endpoint: `${ISSUER}/credential`,
        ...(setup.batchSize ? { batch_credential_issuance: { batch_size: setup.batchSize } } : {}),
        display: [
          { name: 'Acme University', locale: 'en', logo: { uri: 'https://issuer.example/logo.png' } },
          { name: 'アクメ大学', locale: 'ja' },
        ],
        credential_configurations_supported: {
          diploma: {
            format: 'dc+sd-jwt',
            vct: VCT,
            display: [
              { name: 'Diploma', locale: 'en', background_color: '#123456', text_color: '#ffffff' },
              { name: 'Diplôme', locale: 'fr', background_color: '#654321' },
            ],
            claims: {
              full_name: {
                display: [
                  { name: 'Full name', locale: 'en' },
                  { name: '氏名', locale: 'ja' },
                ],
              },
            },
          },
        },
      }),
    [`${AUTH}/.well-known/oauth-authorization-server`]: () => json({ issuer: AUTH, token_endpoint: `${AUTH}/token` }),
    [`POST ${AUTH}/token`]:
      setup.token ?? (() => json({ access_token: 'at-1', token_type: 'Bearer', c_nonce: 'nonce-from-token' })),
    [`POST ${ISSUER}/credential`]: async ({ body, headers }) => {
      if (headers.get('authorization') !== 'Bearer at-1') return json({ error: 'invalid_token' }, 401);
      const request = JSON.parse(body);
      const { signer, header, iss } = await sign();
      const credentials = await Promise.all(
        (request.proofs.jwt as string[]).map(async (jwt, i) => ({
          credential: await issueSdJwtVc({
            signer,
            header,
            issuer: iss,
            vct: VCT,
            holderJwk: setup.holderJwk ?? (decodeJwt(jwt).header.jwk as JsonWebKey),
            claims: setup.claimsOf?.(i) ?? { full_name: 'Ada Lovelace', score: 97.5 },
            status: { idx: 3 + i, uri: STATUS_URI },
            expiresAt: Math.floor(Date.now() / 1000) + 3600,
          }),
        })),
      );
      return json({ credentials });
    },
    [STATUS_URI]: async () => {
      const { signer, header } = await sign();
      const token = await signStatusListToken({
        signer,
        header,
        uri: STATUS_URI,
        lst: encodeStatusList(16, []),
        ttl: 60,
      });
      return text(token, 'application/statuslist+jwt');
    },
    ...setup.extraRoutes,
  });
}

describe('acceptOffer of a batch (OpenID4VCI 1.0 §8.2 proofs)', () => {
  it('stores the batch as one credential whose instances each hold their own key and status entry', async () => {
    await freshVault();
    const { calls } = serveIssuer({ batchSize: 3 });
    const stored = await acceptOffer(await resolveOffer(offerLink(offer()), 'en'), vault);
    const proofs = JSON.parse(calls.find((c) => c.url === `${ISSUER}/credential`)!.body).proofs.jwt as string[];
    expect(proofs).toHaveLength(3);
    expect(stored.instances).toHaveLength(3);
    const [first, ...more] = stored.instances!;
    expect(first).toEqual({ raw: stored.raw, statusReference: { uri: STATUS_URI, idx: 3 } });
    expect(more.map((i) => i.statusReference?.idx)).toEqual([4, 5]);
    for (const [i, instance] of more.entries()) {
      // Bound to the key stored with it (the one its proof was signed with), not the vault's holder key.
      const cnf = (decodeJwt(instance.raw.split('~')[0]!).payload.cnf as { jwk: JsonWebKey }).jwk;
      expect(cnf).toMatchObject({ x: instance.key!.publicJwk.x, y: instance.key!.publicJwk.y });
      expect(decodeJwt(proofs[i + 1]!).header.jwk).toMatchObject({ x: instance.key!.publicJwk.x });
      expect(instance.key!.privateJwk.d).toEqual(expect.any(String));
      expect(cnf.x).not.toBe(vault.holder().publicJwk.x);
    }
    expect(await vault.listCredentials()).toEqual([stored]);
    // A cap of 1: no batch asked for, no instances kept.
    await freshVault();
    serveIssuer({ batchSize: 3 });
    const single = await acceptOffer(await resolveOffer(offerLink(offer()), 'en'), vault, { batchSize: 1 });
    expect(single.instances).toBeUndefined();
  });

  it('refuses a batch whose instances are not the same credential, and stores nothing', async () => {
    await freshVault();
    serveIssuer({ batchSize: 2, claimsOf: (i) => ({ full_name: i === 0 ? 'Ada Lovelace' : 'Mallory', score: 97.5 }) });
    await expect(acceptOffer(await resolveOffer(offerLink(offer()), 'en'), vault)).rejects.toMatchObject({
      code: 'CREDENTIAL_INVALID',
    });
    expect(await vault.listCredentials()).toEqual([]);
  });
});

describe('resolveOffer and acceptOffer', () => {
  it('resolves a draft-style issuer (appended well-known, external AS, configuration-level display) and shows it', async () => {
    serveIssuer();
    const resolved = await resolveOffer(offerLink(offer({ tx_code: { length: 4, input_mode: 'numeric' } })), 'fr');
    expect(resolved).toMatchObject({
      credentialIssuer: ISSUER,
      configurationId: 'diploma',
      issuer: {
        id: ISSUER,
        name: { en: 'Acme University', ja: 'アクメ大学' },
        logoUri: 'https://issuer.example/logo.png',
      },
      display: { name: { en: 'Diploma', fr: 'Diplôme' }, backgroundColor: '#654321' },
      claimDisplay: [{ name: 'full_name', label: { en: 'Full name', ja: '氏名' } }],
      txCode: { length: 4, inputMode: 'numeric' },
      // What acceptOffer redeems it with: the offer and metadata as @cp/holder resolved them.
      session: {
        configurationId: 'diploma',
        configuration: { vct: VCT },
        issuerMetadata: { authorizationServers: [{ token_endpoint: `${AUTH}/token` }] },
      },
    });
    expect(resolved.issuer.verifiedOrganization).toBeUndefined();
  });

  it('redeems the offer with the PIN, sends a key proof, verifies the x5c-signed credential and stores it', async () => {
    await freshVault();
    const { calls } = serveIssuer();
    const resolved = await resolveOffer(offerLink(offer({ tx_code: {} })), 'en');
    await expect(acceptOffer(resolved, vault)).rejects.toMatchObject({ code: 'PIN_REQUIRED' });
    const stored = await acceptOffer(resolved, vault, { txCode: ' 1234 ' });

    // Only one token request: the missing PIN is refused before anything is sent.
    const tokens = calls.filter((c) => c.url === `${AUTH}/token`);
    expect(tokens).toHaveLength(1);
    // (The draft-era issuer also gets the PIN as `user_pin`, and the RFC 8707 `resource`.)
    expect(Object.fromEntries(new URLSearchParams(tokens[0]!.body))).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': 'code-1',
      tx_code: '1234',
    });
    const credentialCall = calls.find((c) => c.url === `${ISSUER}/credential`)!;
    const request = JSON.parse(credentialCall.body);
    expect(request.credential_configuration_id).toBe('diploma');
    const proof = decodeJwt(request.proofs.jwt[0]);
    expect(proof.header).toMatchObject({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: vault.holder().publicJwk });
    expect(proof.payload).toMatchObject({ aud: ISSUER, nonce: 'nonce-from-token', iat: expect.any(Number) });

    expect(stored).toMatchObject({
      vct: VCT,
      issuer: { id: ISSUER, keySource: 'x5c' },
      claims: { full_name: 'Ada Lovelace', score: 97.5 },
      statusReference: { uri: STATUS_URI, idx: 3 },
      lastStatus: 'VALID',
      expiresAt: expect.any(String),
    });
    // This wallet knows no platform here: a chain is taken as the issuer's own word, to be decided again.
    expect(stored.issuer.assurance).toMatchObject({
      level: 'self',
      by: 'issuer.example',
      source: 'x5c',
      provisional: true,
    });
    // A claim without a label in the metadata is shown under its own name.
    expect(stored.claimDisplay.map((c) => c.name)).toEqual(['full_name', 'score']);
    expect(await vault.listCredentials()).toEqual([stored]);
  });

  it('maps the token endpoint’s OAuth errors to what the holder can act on', async () => {
    await freshVault();
    for (const [body, pin, code] of [
      [{ error: 'invalid_grant', error_description: 'The transaction code is wrong.' }, '1', 'PIN_WRONG'],
      [{ error: 'invalid_tx_code' }, '1', 'PIN_WRONG'],
      [
        { error: 'invalid_grant', error_description: 'The pre-authorized code was already used.' },
        undefined,
        'OFFER_EXPIRED',
      ],
      [
        { error: 'invalid_request', error_description: 'This offer requires the transaction code (tx_code).' },
        undefined,
        'PIN_REQUIRED',
      ],
      [{ error: 'server_error' }, undefined, 'ISSUER_ERROR'],
    ] as const) {
      serveIssuer({ token: () => json(body, 400) });
      const resolved = await resolveOffer(offerLink(pin ? offer({ tx_code: {} }) : offer()), 'en');
      await expect(acceptOffer(resolved, vault, pin ? { txCode: pin } : {})).rejects.toMatchObject({ code });
    }
    stubFetch({ [`${ISSUER}/offers/gone`]: () => json({ error: 'invalid_request' }, 404) });
    await expect(
      resolveOffer(
        `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${ISSUER}/offers/gone`)}`,
        'en',
      ),
    ).rejects.toMatchObject({ code: 'OFFER_EXPIRED' });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(resolveOffer(offerLink(offer()), 'en')).rejects.toMatchObject({ code: 'ISSUER_UNREACHABLE' });
    expect(await vault.listCredentials()).toEqual([]);
  });

  it('refuses and does not store a credential signed by another key, for another holder, or with a foreign certificate', async () => {
    await freshVault();
    const intruder = await generateEs256KeyPair();
    const intruderSigner = await signerFromPrivateJwk(intruder.privateJwk);
    const stranger = await certifiedKey({ uris: ['https://other-issuer.example'] });
    const otherHolder = await generateEs256KeyPair();
    for (const setup of [
      // The issuer's certificate, somebody else's signature.
      { sign: async () => ({ signer: intruderSigner, header: { x5c: identity.x5c }, iss: ISSUER }) },
      // A valid certificate that names another issuer (and no metadata or DID to fall back on).
      { sign: async () => ({ signer: stranger.signer, header: { x5c: stranger.x5c }, iss: ISSUER }) },
      // Bound to another holder's key.
      { holderJwk: otherHolder.publicJwk },
    ]) {
      serveIssuer(setup);
      const resolved = await resolveOffer(offerLink(offer()), 'en');
      await expect(acceptOffer(resolved, vault)).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID' });
    }
    expect(await vault.listCredentials()).toEqual([]);
  });

  it('accepts issuer keys from JWT VC Issuer Metadata (with the KYB flag) and from a DID', async () => {
    await freshVault();
    const metadataKey = await generateEs256KeyPair();
    const metadataSigner = await signerFromPrivateJwk(metadataKey.privateJwk);
    serveIssuer({
      sign: async () => ({ signer: metadataSigner, header: { kid: 'key-1' }, iss: ISSUER }),
      extraRoutes: {
        'https://issuer.example/.well-known/jwt-vc-issuer/tenant': () =>
          json({
            issuer: ISSUER,
            jwks: { keys: [{ ...metadataKey.publicJwk, kid: 'key-1' }] },
            organization: { name: 'Acme University', verified: true },
          }),
      },
    });
    const resolved = await resolveOffer(offerLink(offer()), 'en');
    expect(resolved.issuer.verifiedOrganization).toBe(true);
    const viaMetadata = await acceptOffer(resolved, vault);
    expect(viaMetadata).toMatchObject({
      issuer: { keySource: 'metadata', verifiedOrganization: true },
      lastStatus: 'VALID',
    });

    const didKey = await generateEs256KeyPair();
    const did = didJwkFromJwk(didKey.publicJwk);
    const didSigner = await signerFromPrivateJwk(didKey.privateJwk);
    serveIssuer({ sign: async () => ({ signer: didSigner, header: { kid: `${did}#0` }, iss: did }) });
    const viaDid = await acceptOffer(await resolveOffer(offerLink(offer()), 'en'), vault);
    expect(viaDid).toMatchObject({ issuer: { keySource: 'did' }, lastStatus: 'VALID' });
    expect(await vault.listCredentials()).toHaveLength(2);
  });

  it('says who vouches for the issuer before accepting (the certificate its metadata publishes), then on the credential', async () => {
    await freshVault();
    const platform = 'https://platform.example';
    const ca = await makeCertificate({ subject: 'CN=Platform CA', ca: { pathLength: 0 } });
    const leaf = await makeCertificate({ subject: 'CN=Acme University', issuer: ca, uris: [ISSUER] });
    const signer = await signerFromPrivateJwk(leaf.key.privateJwk);
    const x5c = [leaf.b64, ca.b64];
    serveIssuer({
      sign: async () => ({ signer, header: { x5c }, iss: ISSUER }),
      extraRoutes: {
        ...platformRoutes(platform, { ca: ca.pem }),
        // RFC 7517 §4.7: the key with its certificate chain.
        'https://issuer.example/.well-known/jwt-vc-issuer/tenant': () =>
          json({ issuer: ISSUER, jwks: { keys: [{ ...leaf.key.publicJwk, kid: 'k-1', x5c }] } }),
      },
    });
    const resolved = await resolveOffer(offerLink(offer()), 'en');
    expect(resolved.issuer.assurance).toMatchObject({ level: 'platform', by: 'platform.example', source: 'x5c' });
    const stored = await acceptOffer(resolved, vault);
    expect(stored.issuer.assurance).toMatchObject({ level: 'platform', by: 'platform.example', source: 'x5c' });

    // A published chain that names another issuer announces nothing.
    const other = await makeCertificate({ subject: 'CN=Other', issuer: ca, uris: ['https://other.example'] });
    serveIssuer({
      extraRoutes: {
        ...platformRoutes(platform, { ca: ca.pem }),
        'https://issuer.example/.well-known/jwt-vc-issuer/tenant': () =>
          json({ issuer: ISSUER, jwks: { keys: [{ ...other.key.publicJwk, x5c: [other.b64, ca.b64] }] } }),
      },
    });
    expect((await resolveOffer(offerLink(offer()), 'en')).issuer.assurance).toBeUndefined();
  });
});
