import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bindIssuerKey,
  type IssuerTrustOptions,
  issuerIdentifiers,
  issuerUrlFromDidWeb,
  sameIssuer,
  verifyStatusListToken,
} from './issuer-trust.ts';
import { generateEs256KeyPair, type JwsSigner, signerFromPrivateJwk } from './jws.ts';
import { didJwkFromJwk, didKeyFromJwk, didWebFromUrl } from './resolve.ts';
import { encodeStatusList, signStatusListToken } from './status-list.ts';
import { makeCertificate, makeIssuerPki } from './testing/pki.ts';

/**
 * "This key speaks for this iss": every way an attacker with their own key tries to pass it off as a
 * real issuer's, each refused; and the honest ways, each accepted.
 */

type Party = { signer: JwsSigner; publicJwk: JsonWebKey; privateJwk: JsonWebKey };
const make = async (): Promise<Party> => {
  const pair = await generateEs256KeyPair();
  return { ...pair, signer: await signerFromPrivateJwk(pair.privateJwk) };
};

const HOST = 'issuer.example';
const ISS = `https://${HOST}/orgs/7`;
const ISS_DID_WEB = didWebFromUrl(ISS);
const X5C_ONLY = 'https://x5c-only.example/issuer';

let issuer: Party;
let attacker: Party;
let documents: Map<string, unknown>;
let pki: Awaited<ReturnType<typeof makeIssuerPki>>;

const options = (extra: Partial<IssuerTrustOptions> = {}): IssuerTrustOptions => ({
  fetchJson: async (url) => {
    if (!documents.has(url)) throw new Error(`HTTP 404 from ${url}`);
    return documents.get(url);
  },
  trustAnchors: [pki.root.pem],
  ...extra,
});

const didDocument = (
  did: string,
  jwk: JsonWebKey,
  relation: 'assertionMethod' | 'authentication' = 'assertionMethod',
) => ({
  id: did,
  verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk }],
  [relation]: [`${did}#key-1`],
});

beforeAll(async () => {
  [issuer, attacker] = await Promise.all([make(), make()]);
  pki = await makeIssuerPki(ISS);
});

const reasons = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err as { reasons?: string[] },
  );
  expect(error, 'expected the binding to be refused').toBeDefined();
  return (error?.reasons ?? []).join('; ');
};

describe('an attacker key never speaks for a real issuer', () => {
  beforeAll(() => {
    documents = new Map<string, unknown>([
      [
        `https://${HOST}/.well-known/jwt-vc-issuer/orgs/7`,
        { issuer: ISS, jwks: { keys: [{ ...issuer.publicJwk, kid: 'k1' }] } },
      ],
      [`https://${HOST}/orgs/7/did.json`, didDocument(ISS_DID_WEB, issuer.publicJwk)],
    ]);
  });

  it('refuses a did:jwk kid for an https iss (the forged credential of the issue)', async () => {
    const did = didJwkFromJwk(attacker.publicJwk);
    expect(await reasons(bindIssuerKey({ kid: `${did}#0` }, { iss: ISS }, options()))).toMatch(/not the issuer/);
  });

  it('refuses a did:jwk kid for a did:web iss', async () => {
    const did = didJwkFromJwk(attacker.publicJwk);
    expect(await reasons(bindIssuerKey({ kid: `${did}#0` }, { iss: ISS_DID_WEB }, options()))).toMatch(
      /not the issuer/,
    );
  });

  it('refuses a did:key kid for a did:jwk iss of someone else', async () => {
    const victim = didJwkFromJwk(issuer.publicJwk);
    const kid = `${didKeyFromJwk(attacker.publicJwk)}#x`;
    expect(await reasons(bindIssuerKey({ kid }, { iss: victim }, options()))).toMatch(/not the issuer/);
  });

  it('refuses a kid the metadata does not publish, and metadata that names another issuer', async () => {
    expect(await reasons(bindIssuerKey({ kid: 'k2' }, { iss: ISS }, options()))).toMatch(/no key k2/);
    documents.set(`https://${HOST}/.well-known/jwt-vc-issuer/orgs/8`, {
      issuer: ISS,
      jwks: { keys: [{ ...attacker.publicJwk, kid: 'k1' }] },
    });
    expect(await reasons(bindIssuerKey({ kid: 'k1' }, { iss: `https://${HOST}/orgs/8` }, options()))).toMatch(
      /another issuer/,
    );
  });

  it('refuses a jwks_uri on another origin', async () => {
    const iss = `https://${HOST}/orgs/9`;
    documents.set(`https://${HOST}/.well-known/jwt-vc-issuer/orgs/9`, {
      issuer: iss,
      jwks_uri: 'https://evil.example/jwks',
    });
    documents.set('https://evil.example/jwks', { keys: [{ ...attacker.publicJwk, kid: 'k1' }] });
    expect(await reasons(bindIssuerKey({ kid: 'k1' }, { iss }, options()))).toMatch(/origin/);
  });

  it('refuses a DID key that is listed but not authorized for assertions', async () => {
    const did = 'did:web:auth-only.example';
    documents.set(
      'https://auth-only.example/.well-known/did.json',
      didDocument(did, attacker.publicJwk, 'authentication'),
    );
    expect(await reasons(bindIssuerKey({ kid: `${did}#key-1` }, { iss: did }, options()))).toMatch(
      /not authorized for assertions/,
    );
  });

  it('refuses an x5c chain to an unknown CA, a leaf naming another issuer, and a leaf used as a CA', async () => {
    // An issuer that publishes no metadata: its certificate is the only way to its key.
    const iss = X5C_ONLY;
    const rogue = await makeIssuerPki(iss, { root: 'Rogue Root' });
    expect(await reasons(bindIssuerKey({ x5c: rogue.x5c }, { iss }, options()))).toMatch(
      /trusted certificate authority/,
    );
    const elsewhere = await makeCertificate({
      subject: 'CN=Other',
      issuer: pki.intermediate,
      uris: [`https://${HOST}/orgs/8`],
    });
    expect(await reasons(bindIssuerKey({ x5c: [elsewhere.b64, pki.intermediate.b64] }, { iss }, options()))).toMatch(
      /does not name the issuer/,
    );
    const forged = await makeCertificate({ subject: 'CN=Forged', issuer: pki.leaf, uris: [iss] });
    expect(
      await reasons(bindIssuerKey({ x5c: [forged.b64, pki.leaf.b64, pki.intermediate.b64] }, { iss }, options())),
    ).toMatch(/not a CA/);
  });

  it('never trusts a jwk header', async () => {
    expect(await reasons(bindIssuerKey({ jwk: attacker.publicJwk, kid: 'k9' }, { iss: ISS }, options()))).toMatch(
      /metadata/,
    );
  });

  it('refuses an iss that is neither a URL nor a DID, and reads no document over plain http', async () => {
    for (const iss of ['javascript:alert(1)', 'issuer', 'https://issuer.example/?q=1', '', 42, undefined]) {
      await expect(bindIssuerKey({ kid: 'k1' }, { iss }, options())).rejects.toThrow();
    }
    documents.set('http://plain.example/.well-known/jwt-vc-issuer', {
      issuer: 'http://plain.example',
      jwks: { keys: [{ ...attacker.publicJwk, kid: 'k1' }] },
    });
    expect(await reasons(bindIssuerKey({ kid: 'k1' }, { iss: 'http://plain.example' }, options()))).toMatch(
      /plain http/,
    );
    // An http issuer is bound only by a certificate that names it (its CA vouches for it; nothing is fetched).
    const http = await makeCertificate({
      subject: 'CN=Plain',
      issuer: pki.intermediate,
      uris: ['http://plain.example'],
    });
    expect(
      await bindIssuerKey({ x5c: [http.b64, pki.intermediate.b64] }, { iss: 'http://plain.example' }, options()),
    ).toMatchObject({
      source: 'x5c',
    });
  });
});

describe('honest issuers are bound', () => {
  it('x5c to a trust anchor, naming the issuer', async () => {
    const binding = await bindIssuerKey({ x5c: pki.x5c }, { iss: ISS }, options());
    expect(binding).toMatchObject({ source: 'x5c', iss: ISS, certificate: { anchored: true } });
    expect(binding.certificate?.path?.anchor.subject).toBe('CN=Test Root CA');
  });

  it('JWT VC Issuer Metadata by kid', async () => {
    expect(await bindIssuerKey({ kid: 'k1' }, { iss: ISS }, options())).toMatchObject({
      source: 'metadata',
      jwk: issuer.publicJwk,
    });
  });

  it('the did:web of an https issuer, a did:web issuer by relative kid, did:jwk and did:key issuers', async () => {
    expect(await bindIssuerKey({ kid: `${ISS_DID_WEB}#key-1` }, { iss: ISS }, options())).toMatchObject({
      source: 'did',
      verificationMethod: `${ISS_DID_WEB}#key-1`,
    });
    expect(await bindIssuerKey({ kid: '#key-1' }, { iss: ISS_DID_WEB }, options())).toMatchObject({
      jwk: issuer.publicJwk,
    });
    const jwkDid = didJwkFromJwk(issuer.publicJwk);
    expect(await bindIssuerKey({ kid: `${jwkDid}#0` }, { iss: jwkDid }, options())).toMatchObject({
      jwk: issuer.publicJwk,
    });
    const keyDid = didKeyFromJwk(issuer.publicJwk);
    expect(await bindIssuerKey({}, { iss: keyDid }, options())).toMatchObject({ jwk: issuer.publicJwk });
  });

  it('a self-anchored chain only when the holder allows it, and then as not anchored', async () => {
    const own = await makeIssuerPki(X5C_ONLY, { root: 'Own Root' });
    const chain = [...own.x5c, own.root.b64];
    await expect(bindIssuerKey({ x5c: chain }, { iss: X5C_ONLY }, options())).rejects.toThrow();
    const binding = await bindIssuerKey({ x5c: chain }, { iss: X5C_ONLY }, options({ allowSelfAnchoredChain: true }));
    expect(binding.certificate).toMatchObject({ anchored: false, path: null });
    // Self-anchored still means: the leaf names the issuer.
    await expect(
      bindIssuerKey({ x5c: chain }, { iss: `https://${HOST}/orgs/8` }, options({ allowSelfAnchoredChain: true })),
    ).rejects.toThrow();
  });
});

describe('status list tokens speak for the same issuer', () => {
  const uri = `${ISS}/status-list`;
  it('accepts the credential key or another key bound to the same issuer; refuses another issuer’s key', async () => {
    const lst = encodeStatusList(8, [1]);
    const byIssuer = await signStatusListToken({ signer: issuer.signer, header: { kid: 'k1' }, uri, lst, ttl: 60 });
    await verifyStatusListToken(byIssuer, uri, { iss: ISS, jwk: issuer.publicJwk }, options());
    const rotated = await make();
    documents.set(`https://${HOST}/.well-known/jwt-vc-issuer/orgs/7`, {
      issuer: ISS,
      jwks: {
        keys: [
          { ...issuer.publicJwk, kid: 'k1' },
          { ...rotated.publicJwk, kid: 'k2' },
        ],
      },
    });
    const byRotated = await signStatusListToken({ signer: rotated.signer, header: { kid: 'k2' }, uri, lst, ttl: 60 });
    await verifyStatusListToken(byRotated, uri, { iss: ISS, jwk: issuer.publicJwk }, options());

    const did = didJwkFromJwk(attacker.publicJwk);
    const byAttacker = await signStatusListToken({
      signer: attacker.signer,
      header: { kid: `${did}#0` },
      uri,
      lst: encodeStatusList(8, []),
      ttl: 60,
    });
    await expect(
      verifyStatusListToken(byAttacker, uri, { iss: ISS, jwk: issuer.publicJwk }, options()),
    ).rejects.toThrow(/not signed by the issuer/);
    const otherIssuerChain = await makeCertificate({
      subject: 'CN=Other',
      issuer: pki.intermediate,
      uris: [`https://${HOST}/orgs/8`],
    });
    const byOtherIssuer = await signStatusListToken({
      signer: await signerFromPrivateJwk(otherIssuerChain.key.privateJwk),
      header: { x5c: [otherIssuerChain.b64, pki.intermediate.b64] },
      uri,
      lst: encodeStatusList(8, []),
      ttl: 60,
    });
    await expect(
      verifyStatusListToken(byOtherIssuer, uri, { iss: ISS, jwk: issuer.publicJwk }, options()),
    ).rejects.toThrow(/does not name/);
    await expect(
      verifyStatusListToken(byIssuer, `${uri}-2`, { iss: ISS, jwk: issuer.publicJwk }, options()),
    ).rejects.toThrow(/another list/);
    const expired = await signStatusListToken({
      signer: issuer.signer,
      header: {},
      uri,
      lst,
      ttl: 60,
      expiresAt: 1_600_000_000,
    });
    await expect(verifyStatusListToken(expired, uri, { iss: ISS, jwk: issuer.publicJwk }, options())).rejects.toThrow(
      /expired/,
    );
  });
});

describe('issuer identifiers', () => {
  it('maps an https issuer and its did:web onto each other', () => {
    expect(issuerIdentifiers(ISS)).toEqual([ISS, 'did:web:issuer.example:orgs:7']);
    expect(issuerUrlFromDidWeb('did:web:localhost%3A3000:orgs:42')).toBe('https://localhost:3000/orgs/42');
    expect(sameIssuer(`${ISS}/`, 'did:web:issuer.example:orgs:7')).toBe(true);
    expect(sameIssuer(ISS, 'did:web:issuer.example:orgs:8')).toBe(false);
    expect(sameIssuer(ISS, 'https://issuer.example/orgs/70')).toBe(false);
  });
});

describe('property: whatever an attacker puts in the header, their key does not bind to the victim', () => {
  it('random kid/x5c/jwk headers with the attacker’s DIDs and certificates never yield the attacker key for the victim iss', async () => {
    documents.set(`https://${HOST}/.well-known/jwt-vc-issuer/orgs/7`, {
      issuer: ISS,
      jwks: { keys: [{ ...issuer.publicJwk, kid: 'k1' }] },
    });
    const attackerDidJwk = didJwkFromJwk(attacker.publicJwk);
    const attackerDidKey = didKeyFromJwk(attacker.publicJwk);
    documents.set(
      'https://attacker.example/.well-known/did.json',
      didDocument('did:web:attacker.example', attacker.publicJwk),
    );
    const rogue = await makeIssuerPki(ISS, { root: 'Rogue Root' });
    const underLeaf = await makeCertificate({ subject: 'CN=Under leaf', issuer: pki.leaf, uris: [ISS], key: attacker });
    const selfSigned = await makeCertificate({ subject: 'CN=Self', uris: [ISS], key: attacker });
    const kids = fc.constantFrom(
      undefined,
      'k1',
      `${attackerDidJwk}#0`,
      `${attackerDidKey}#${attackerDidKey.slice(8)}`,
      'did:web:attacker.example#key-1',
      `${ISS_DID_WEB}#key-9`,
      '#0',
    );
    const x5cs = fc.constantFrom(
      undefined,
      rogue.x5c,
      [underLeaf.b64, pki.leaf.b64, pki.intermediate.b64],
      [selfSigned.b64],
      ['garbage'],
    );
    const issuers = fc.constantFrom(ISS, ISS_DID_WEB, `${ISS}/`);
    await fc.assert(
      fc.asyncProperty(kids, x5cs, issuers, fc.boolean(), async (kid, x5c, iss, jwkHeader) => {
        const header = {
          ...(kid ? { kid } : {}),
          ...(x5c ? { x5c } : {}),
          ...(jwkHeader ? { jwk: attacker.publicJwk } : {}),
        };
        const binding = await bindIssuerKey(header, { iss }, options()).catch(() => undefined);
        if (binding) expect(binding.jwk).not.toEqual(attacker.publicJwk);
      }),
      { numRuns: 120 },
    );
  });
});
