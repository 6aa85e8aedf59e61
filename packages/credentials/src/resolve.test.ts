import { describe, expect, it } from 'vitest';
import { generateEs256KeyPair } from './jws.ts';
import {
  didJwkFromJwk,
  didKeyFromJwk,
  didWebFromUrl,
  didWebToUrl,
  jwtVcIssuerMetadataUrl,
  resolveDidJwk,
  resolveDidKey,
  resolveDidKeyReference,
} from './resolve.ts';

// The P-256 example of the did:jwk specification.
const SPEC_DID_JWK =
  'did:jwk:eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6ImFjYklRaXVNczNpOF91c3pFakoydHBUdFJNNEVVM3l6OTFQSDZDZEgyVjAiLCJ5IjoiX0tjeUxqOXZXTXB0bm1LdG00NkdxRHo4d2Y3NEk1TEtncmwyR3pIM25TRSJ9';
// A P-256 test vector of the did:key method (W3C CCG test vectors).
const SPEC_DID_KEY = 'did:key:zDnaerx9CtbPJ1q36T5Ln5wYt3MQYeGRG5ehnPAmxcf5mDZpv';
const SPEC_DID_KEY_JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'igrFmi0whuihKnj9R3Om1SoMph72wUGeFaBbzG2vzns',
  y: 'efsX5b10x8yjyrj4ny3pGfLcY7Xby1KzgqOdqnsrJIM',
};

describe('did:jwk', () => {
  it('resolves the specification example', () => {
    const document = resolveDidJwk(SPEC_DID_JWK);
    expect(document.verificationMethod?.[0]).toMatchObject({
      id: `${SPEC_DID_JWK}#0`,
      publicKeyJwk: {
        kty: 'EC',
        crv: 'P-256',
        x: 'acbIQiuMs3i8_uszEjJ2tpTtRM4EU3yz91PH6CdH2V0',
        y: '_KcyLj9vWMptnmKtm46GqDz8wf74I5LKgrl2GzH3nSE',
      },
    });
  });

  it('round-trips a generated key', async () => {
    const { publicJwk } = await generateEs256KeyPair();
    const did = didJwkFromJwk(publicJwk);
    expect(resolveDidJwk(did).verificationMethod?.[0]?.publicKeyJwk).toEqual(publicJwk);
  });
});

describe('did:key (P-256)', () => {
  it('resolves the test vector and encodes it back', () => {
    expect(resolveDidKey(SPEC_DID_KEY).verificationMethod?.[0]?.publicKeyJwk).toEqual(SPEC_DID_KEY_JWK);
    expect(didKeyFromJwk(SPEC_DID_KEY_JWK)).toBe(SPEC_DID_KEY);
  });

  it('refuses other key types', () => {
    expect(() => resolveDidKey('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')).toThrow(/P-256/);
  });
});

describe('did:web', () => {
  it('maps DIDs and URLs both ways, with ports and paths', () => {
    expect(didWebToUrl('did:web:w3c-ccg.github.io')).toBe('https://w3c-ccg.github.io/.well-known/did.json');
    expect(didWebToUrl('did:web:example.com%3A3000:orgs:42')).toBe('https://example.com:3000/orgs/42/did.json');
    expect(didWebToUrl('did:web:localhost%3A3000:orgs:42', { allowHttp: (h) => h.startsWith('localhost') })).toBe(
      'http://localhost:3000/orgs/42/did.json',
    );
    expect(didWebFromUrl('https://example.com:3000/orgs/42')).toBe('did:web:example.com%3A3000:orgs:42');
  });

  it('resolves a key reference through a fetched document, and refuses a document for another DID', async () => {
    const { publicJwk } = await generateEs256KeyPair();
    const did = 'did:web:issuer.example:orgs:7';
    const documents: Record<string, unknown> = {
      'https://issuer.example/orgs/7/did.json': {
        id: did,
        verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: publicJwk }],
      },
    };
    const fetchJson = async (url: string) => documents[url];
    expect(await resolveDidKeyReference(`${did}#key-1`, fetchJson)).toEqual(publicJwk);
    await expect(resolveDidKeyReference('did:web:issuer.example:orgs:7#key-2', fetchJson)).rejects.toThrow();
    const liar = async () => ({ id: 'did:web:evil.example', verificationMethod: [] });
    await expect(resolveDidKeyReference(`${did}#key-1`, liar)).rejects.toThrow(/another|this DID/);
  });
});

describe('JWT VC Issuer Metadata', () => {
  it('derives the well-known URL', () => {
    expect(jwtVcIssuerMetadataUrl('https://issuer.example/orgs/7')).toBe(
      'https://issuer.example/.well-known/jwt-vc-issuer/orgs/7',
    );
    expect(jwtVcIssuerMetadataUrl('https://issuer.example/')).toBe('https://issuer.example/.well-known/jwt-vc-issuer');
  });
});
