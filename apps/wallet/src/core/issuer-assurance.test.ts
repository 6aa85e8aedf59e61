import {
  encodeStatusList,
  generateEs256KeyPair,
  issueSdJwtVc,
  signerFromPrivateJwk,
  signStatusListToken,
} from '@cp/credentials';
import { makeCertificate, makeIssuerPki, type TestCertificate } from '@cp/credentials/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetPlatformTrust, loadPlatformTrust } from './platform-trust.ts';
import { storedCredentialFrom } from './receive.ts';
import { recheckCredential } from './status.ts';
import { json, platformRoutes, type Route, stubFetch, text, walletConfigUrl } from './test-support.ts';
import type { StoredCredential } from './types.ts';

/**
 * Who vouches for a credential's issuer, decided on real certificates and real signatures: the wallet's
 * platform CA, a platform-wide anchor, or nobody but the issuer (DID, JWT VC Issuer Metadata, a chain no
 * anchor vouches for).
 */

const PLATFORM = 'https://platform.example';
const ORG_ISSUER = `${PLATFORM}/orgs/42`;
const ANCHORED_ISSUER = 'https://bank.example/issuer';
const CHAIN_ISSUER = 'https://club.example';
const METADATA_ISSUER = 'https://school.example';
const DID_ISSUER = 'did:web:town.example:registry';

let platformCa: TestCertificate;
let orgLeaf: TestCertificate;
let trustServices: Awaited<ReturnType<typeof makeIssuerPki>>;
let unknownPki: Awaited<ReturnType<typeof makeIssuerPki>>;

beforeAll(async () => {
  platformCa = await makeCertificate({ subject: 'CN=Platform CA, O=Credential Platform', ca: { pathLength: 0 } });
  orgLeaf = await makeCertificate({ subject: 'CN=Organization 42', issuer: platformCa, uris: [ORG_ISSUER] });
  trustServices = await makeIssuerPki(ANCHORED_ISSUER, { root: 'Example Trust Services Root' });
  unknownPki = await makeIssuerPki(CHAIN_ISSUER, { root: 'Club Private Root' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  forgetPlatformTrust();
});

const platform = (ca: string | null = platformCa.pem) =>
  platformRoutes(PLATFORM, { ca, anchors: [trustServices.root.pem] });

/** An SD-JWT VC for a fresh holder, signed for real by `key` with `header`; stored as the wallet stores it. */
async function receive(
  iss: string,
  key: { privateJwk: JsonWebKey },
  header: Record<string, unknown>,
  routes: Record<string, Route>,
): Promise<StoredCredential> {
  stubFetch(routes);
  const holder = await generateEs256KeyPair();
  const raw = await issueSdJwtVc({
    signer: await signerFromPrivateJwk(key.privateJwk),
    header,
    issuer: iss,
    vct: 'https://platform.example/vct/membership',
    holderJwk: holder.publicJwk,
    claims: { member: 'Ada' },
  });
  return storedCredentialFrom(raw, {
    issuer: { id: iss, name: { en: 'Issuer' } },
    display: { name: { en: 'Membership' } },
    claimDisplay: [],
    holderJwk: holder.publicJwk,
    trust: await loadPlatformTrust(),
  });
}

describe('issuer assurance', () => {
  it('certified by the platform: the x5c path ends at the platform CA', async () => {
    const stored = await receive(ORG_ISSUER, orgLeaf.key, { x5c: [orgLeaf.b64, platformCa.b64] }, platform());
    expect(stored.issuer.keySource).toBe('x5c');
    expect(stored.issuer.assurance).toEqual({
      level: 'platform',
      by: 'platform.example',
      source: 'x5c',
      checkedAt: expect.any(String),
    });
  });

  it('certified by a trusted authority: the path ends at a platform-wide anchor, named by its CN', async () => {
    const { leaf, x5c } = trustServices;
    const stored = await receive(ANCHORED_ISSUER, leaf.key, { x5c }, platform());
    expect(stored.issuer.assurance).toMatchObject({
      level: 'anchor',
      by: 'Example Trust Services Root',
      source: 'x5c',
    });
    expect(stored.issuer.assurance?.provisional).toBeUndefined();
  });

  it('self-asserted: a chain that holds together and names the issuer, but ends at no anchor', async () => {
    const { leaf, x5c } = unknownPki;
    const stored = await receive(CHAIN_ISSUER, leaf.key, { x5c }, platform());
    expect(stored.issuer.assurance).toMatchObject({ level: 'self', by: 'club.example', source: 'x5c' });
    // The platform's anchors were read: this chain really is vouched for by none of them.
    expect(stored.issuer.assurance?.provisional).toBeUndefined();
  });

  it('self-asserted: a key published in the issuer’s JWT VC Issuer Metadata', async () => {
    const key = await generateEs256KeyPair();
    const stored = await receive(
      METADATA_ISSUER,
      key,
      { kid: 'k-1' },
      {
        ...platform(),
        [`${METADATA_ISSUER}/.well-known/jwt-vc-issuer`]: () =>
          json({ issuer: METADATA_ISSUER, jwks: { keys: [{ ...key.publicJwk, kid: 'k-1' }] } }),
      },
    );
    expect(stored.issuer.assurance).toMatchObject({ level: 'self', by: 'school.example', source: 'metadata' });
  });

  it('self-asserted: an assertion key of the issuer’s own DID document, named by the DID', async () => {
    const key = await generateEs256KeyPair();
    const stored = await receive(
      DID_ISSUER,
      key,
      { kid: `${DID_ISSUER}#key-1` },
      {
        ...platform(),
        'https://town.example/registry/did.json': () =>
          json({
            id: DID_ISSUER,
            verificationMethod: [
              {
                id: `${DID_ISSUER}#key-1`,
                type: 'JsonWebKey2020',
                controller: DID_ISSUER,
                publicKeyJwk: key.publicJwk,
              },
            ],
            assertionMethod: [`${DID_ISSUER}#key-1`],
          }),
      },
    );
    expect(stored.issuer.assurance).toMatchObject({ level: 'self', by: DID_ISSUER, source: 'did' });
  });

  it('never claims a certification it could not check: offline, a platform chain is self-asserted (provisional)', async () => {
    const stored = await receive(ORG_ISSUER, orgLeaf.key, { x5c: [orgLeaf.b64, platformCa.b64] }, platform(null));
    expect(stored.issuer.assurance).toMatchObject({
      level: 'self',
      by: 'platform.example',
      source: 'x5c',
      provisional: true,
    });

    // Opened again once the platform can be read: decided anew, certified by the platform.
    forgetPlatformTrust();
    stubFetch(platform());
    const { credential } = await recheckCredential(stored);
    expect(credential.issuer.assurance).toMatchObject({ level: 'platform', by: 'platform.example' });
    expect(credential.issuer.assurance?.provisional).toBeUndefined();
  });

  it('a wallet that does not know its platform (no /config.json) says self-asserted, never certified', async () => {
    const routes = platform();
    delete routes[walletConfigUrl()];
    const stored = await receive(ORG_ISSUER, orgLeaf.key, { x5c: [orgLeaf.b64, platformCa.b64] }, routes);
    expect(stored.issuer.assurance).toMatchObject({ level: 'self', provisional: true });
  });

  it('a platform-certified chain for another organization is not this issuer’s: the credential is refused', async () => {
    await expect(
      receive(`${PLATFORM}/orgs/43`, orgLeaf.key, { x5c: [orgLeaf.b64, platformCa.b64] }, platform()),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID' });
  });

  it('a credential stored before assurances existed gets one when it is checked again', async () => {
    const stored = await receive(ORG_ISSUER, orgLeaf.key, { x5c: [orgLeaf.b64, platformCa.b64] }, platform());
    const { assurance: _dropped, ...olderIssuer } = stored.issuer;
    const { credential, answered } = await recheckCredential({ ...stored, issuer: olderIssuer });
    // No status list: VALID without asking anyone.
    expect(answered).toBe(true);
    expect(credential.issuer.assurance).toMatchObject({ level: 'platform', by: 'platform.example' });
  });

  it('reads the status list under the same trust: a list signed by the platform-certified key answers', async () => {
    const holder = await generateEs256KeyPair();
    const signer = await signerFromPrivateJwk(orgLeaf.key.privateJwk);
    const list = `${ORG_ISSUER}/status/1`;
    const raw = await issueSdJwtVc({
      signer,
      header: { x5c: [orgLeaf.b64, platformCa.b64] },
      issuer: ORG_ISSUER,
      vct: 'https://platform.example/vct/membership',
      holderJwk: holder.publicJwk,
      claims: {},
      status: { idx: 5, uri: list },
    });
    const token = await signStatusListToken({
      signer,
      header: { x5c: [orgLeaf.b64, platformCa.b64] },
      uri: list,
      lst: encodeStatusList(16, [5]),
      ttl: 60,
    });
    stubFetch({ ...platform(), [list]: () => text(token, 'application/statuslist+jwt') });
    const credential: StoredCredential = {
      id: 'c-1',
      format: 'dc+sd-jwt',
      raw,
      vct: 'https://platform.example/vct/membership',
      issuer: { id: ORG_ISSUER, name: {} },
      display: { name: {} },
      claimDisplay: [],
      claims: {},
      statusReference: { uri: list, idx: 5 },
      lastStatus: 'VALID',
      receivedAt: new Date().toISOString(),
    };
    const checked = await recheckCredential(credential);
    expect(checked).toMatchObject({ answered: true, credential: { lastStatus: 'REVOKED' } });
    expect(checked.credential.issuer.assurance).toMatchObject({ level: 'platform' });
  });
});
