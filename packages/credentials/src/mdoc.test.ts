import { cborDecode, cborEncode, DataItem, DateOnly, SessionTranscript } from '@owf/mdoc';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AttributeDefinition, ClaimValue } from './claims.ts';
import { base64url, fromBase64url, sha256 } from './encoding.ts';
import { generateEs256KeyPair, signerFromPrivateJwk, verifyJwtSignature } from './jws.ts';
import {
  coseSign1ToBeSigned,
  coseSignerFromPrivateJwk,
  decodeMdoc,
  type IssueMdocInput,
  isMdocDocTypeOf,
  issueMdoc,
  mdocNames,
  openId4VpSessionTranscript,
  type PresentMdocInput,
  presentMdoc,
} from './mdoc.ts';
import {
  type MdocPresentationExpectation,
  type MdocVerifierDeps,
  verifyIssuerSigned,
  verifyMdocPresentation,
} from './mdoc-verify.ts';
import { encodeStatusList, signStatusListToken } from './status-list.ts';
import { makeCertificate, makeIssuerPki, type TestCertificate } from './testing/pki.ts';

const ISS = 'https://issuer.example/orgs/7';
const VCT = `${ISS}/vct/membership`;
const STATUS_URI = `${ISS}/status-lists/1`;
const REVOKED_INDEX = 7;
const { docType: DOC_TYPE, namespace: NS } = mdocNames({ vct: VCT });

const attributes: AttributeDefinition[] = [
  { name: 'given_name', type: 'TEXT' },
  { name: 'age', type: 'NUMBER' },
  { name: 'member', type: 'BOOLEAN' },
  { name: 'birth_date', type: 'DATETIME' },
  { name: 'joined_at', type: 'DATETIME' },
  { name: 'homepage', type: 'URL' },
  { name: 'email', type: 'EMAIL' },
];
const claims: Record<string, ClaimValue> = {
  given_name: 'Ada',
  age: 36,
  member: true,
  birth_date: '1990-12-10',
  joined_at: '2024-05-01T10:20:30.000Z',
  homepage: 'https://ada.example/',
  email: 'ada@example.org',
};

const REQUEST = {
  clientId: 'x509_san_dns:verifier.example',
  nonce: 'n-0S6_WzA2Mj',
  responseUri: 'https://verifier.example/response',
};

let pki: Awaited<ReturnType<typeof makeIssuerPki>>;
let holder: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let statusListToken: string;
let issued: string;

const day = 86_400_000;

async function issue(overrides: Partial<IssueMdocInput> = {}, leaf: TestCertificate = pki.leaf) {
  return issueMdoc({
    signer: await coseSignerFromPrivateJwk(leaf.key.privateJwk),
    x5chain: leaf === pki.leaf ? pki.x5c : [leaf.b64],
    docType: DOC_TYPE,
    namespace: NS,
    attributes,
    claims,
    holderJwk: holder.publicJwk,
    status: { idx: 3, uri: STATUS_URI },
    validUntil: new Date(Date.now() + 30 * day),
    ...overrides,
  });
}

/** Presentations and expectations by redirect (B.2.6.1), unless a test says otherwise. */
type RedirectPresentInput = Extract<PresentMdocInput, { clientId: string }>;
type RedirectExpectation = Extract<MdocPresentationExpectation, { clientId: string }>;

async function present(issuerSigned: string, overrides: Partial<RedirectPresentInput> = {}) {
  return presentMdoc({
    issuerSigned,
    disclose: [
      [NS, 'given_name'],
      [NS, 'age'],
    ],
    signer: await coseSignerFromPrivateJwk(holder.privateJwk),
    ...REQUEST,
    ...overrides,
  });
}

const expectation = (overrides: Partial<RedirectExpectation> = {}): MdocPresentationExpectation => ({
  docType: DOC_TYPE,
  ...REQUEST,
  requestedClaims: [
    { name: 'given_name', path: [NS, 'given_name'] },
    { name: 'age', path: [NS, 'age'] },
  ],
  ...overrides,
});

const deps = (overrides: Partial<MdocVerifierDeps> = {}): MdocVerifierDeps => ({
  trustAnchors: [pki.root.pem],
  async admitIssuer(binding, credential) {
    return {
      issuer: { admitted: true, reason: 'ANCHOR', detail: `admitted because ${binding.iss} chains to an anchor` },
      type: isMdocDocTypeOf(credential.docType, binding.iss)
        ? { passed: true }
        : { passed: false, detail: `${binding.iss} may not issue ${credential.docType}` },
    };
  },
  async fetchStatusListToken(uri, issuer) {
    if (uri !== STATUS_URI) throw new Error(`No list at ${uri}`);
    if (!(await verifyJwtSignature(statusListToken, issuer.jwk))) throw new Error('Not signed by the issuer');
    return statusListToken;
  },
  ...overrides,
});

const verify = (response: string, e: Partial<RedirectExpectation> = {}, d: Partial<MdocVerifierDeps> = {}) =>
  verifyMdocPresentation(response, expectation(e), deps(d));

type Result = Awaited<ReturnType<typeof verifyMdocPresentation>>;
const failed = (result: Result) => result.checks.filter((c) => !c.passed).map((c) => c.code);
const detail = (result: Result, code: string) => result.checks.find((c) => c.code === code)?.detail ?? '';

// ---- Raw CBOR surgery, as an attacker would do it -----------------------------------------------------------------

type CborMap = Map<unknown, unknown>;
const decodeResponse = (response: string) => cborDecode<CborMap>(fromBase64url(response));
const encodeResponse = (response: CborMap) => base64url(cborEncode(response));
const documentOf = (response: CborMap) => (response.get('documents') as CborMap[])[0]!;
const issuerSignedOf = (response: CborMap) => documentOf(response).get('issuerSigned') as CborMap;
const itemsOf = (response: CborMap) => (issuerSignedOf(response).get('nameSpaces') as Map<string, DataItem[]>).get(NS)!;

/** Re-signs issuerAuth after changing the MSO: what an issuer (or someone with its key) could produce. */
async function resignMso(issuerSigned: string, change: (mso: CborMap) => void, leaf = pki.leaf) {
  const raw = cborDecode<CborMap>(fromBase64url(issuerSigned));
  const [protectedBytes, unprotected, payload] = raw.get('issuerAuth') as [Uint8Array, CborMap, Uint8Array];
  const mso = cborDecode<CborMap>(payload);
  change(mso);
  const newPayload = cborEncode(DataItem.fromData(mso));
  const signer = await coseSignerFromPrivateJwk(leaf.key.privateJwk);
  const signature = await signer.sign(coseSign1ToBeSigned(protectedBytes, newPayload));
  raw.set('issuerAuth', [protectedBytes, unprotected, newPayload, signature]);
  return base64url(cborEncode(raw));
}

beforeAll(async () => {
  pki = await makeIssuerPki(ISS, { root: 'Platform CA' });
  holder = await generateEs256KeyPair();
  statusListToken = await signStatusListToken({
    signer: await signerFromPrivateJwk(pki.leaf.key.privateJwk),
    header: { x5c: pki.x5c },
    uri: STATUS_URI,
    lst: encodeStatusList(16, [REVOKED_INDEX]),
    ttl: 300,
  });
  issued = await issue();
});

describe('mdoc names', () => {
  it('derives the doctype from the vct (host reversed, then path) and uses it as the namespace', () => {
    expect(mdocNames({ vct: 'https://platform.example/orgs/42/vct/diploma' })).toEqual({
      docType: 'example.platform.orgs.42.vct.diploma',
      namespace: 'example.platform.orgs.42.vct.diploma',
    });
    expect(mdocNames({ vct: 'http://localhost:3000/vct/kyc' }).docType).toBe('localhost.vct.kyc');
    expect(() => mdocNames({ vct: 'not a url' })).toThrow(/not a URL/);
  });

  it('tells which issuer a doctype belongs to', () => {
    expect(isMdocDocTypeOf(DOC_TYPE, ISS)).toBe(true);
    expect(isMdocDocTypeOf(DOC_TYPE, `${ISS}/`)).toBe(true);
    expect(isMdocDocTypeOf(DOC_TYPE, 'https://issuer.example/orgs/70')).toBe(false);
    expect(isMdocDocTypeOf(DOC_TYPE, 'https://issuer.example/orgs')).toBe(true);
    expect(isMdocDocTypeOf(mdocNames({ vct: 'https://issuer.example/orgs/70/vct/x' }).docType, ISS)).toBe(false);
  });
});

describe('issuing an mdoc', () => {
  it('types every element by its attribute: full-date, tdate, numbers, booleans, text', () => {
    const raw = cborDecode<CborMap>(fromBase64url(issued));
    const items = (raw.get('nameSpaces') as Map<string, DataItem[]>).get(NS)!;
    const values = new Map(items.map((i) => [(i.data as CborMap).get('elementIdentifier'), i.data as CborMap]));
    expect(values.get('birth_date')!.get('elementValue')).toBeInstanceOf(DateOnly);
    expect(String(values.get('birth_date')!.get('elementValue'))).toBe('1990-12-10');
    expect(values.get('joined_at')!.get('elementValue')).toEqual(new Date('2024-05-01T10:20:30Z'));
    expect(values.get('age')!.get('elementValue')).toBe(36);
    expect(values.get('member')!.get('elementValue')).toBe(true);
    // Salts: 32 random bytes each; digest IDs unique.
    const salts = items.map((i) => base64url((i.data as CborMap).get('random') as Uint8Array));
    expect(new Set(salts).size).toBe(items.length);
    expect(items.every((i) => ((i.data as CborMap).get('random') as Uint8Array).length === 32)).toBe(true);
    expect(new Set(items.map((i) => (i.data as CborMap).get('digestID'))).size).toBe(items.length);
  });

  it('signs with the x5chain, binds the device key, and carries validity and the status reference', () => {
    const decoded = decodeMdoc(issued);
    expect(decoded.docType).toBe(DOC_TYPE);
    expect(decoded.x5chain).toEqual(pki.x5c);
    expect(decoded.deviceJwk).toEqual({ kty: 'EC', crv: 'P-256', x: holder.publicJwk.x, y: holder.publicJwk.y });
    expect(decoded.status).toEqual({ idx: 3, uri: STATUS_URI });
    expect(decoded.validUntil > decoded.validFrom).toBe(true);
    expect(decoded.namespaces[NS]).toMatchObject({ given_name: 'Ada', birth_date: '1990-12-10' });
  });

  it('refuses a claim that is not an attribute of the schema, a validity that ends before it starts, a non-P-256 holder key', async () => {
    await expect(issue({ claims: { ...claims, extra: 'x' } })).rejects.toThrow(/not an attribute/);
    await expect(issue({ validUntil: new Date(Date.now() - day) })).rejects.toThrow(/validity/);
    await expect(issue({ holderJwk: { kty: 'OKP', crv: 'Ed25519', x: holder.publicJwk.x } })).rejects.toThrow(/P-256/);
  });
});

describe('verifying an IssuerSigned on receipt (the holder)', () => {
  it('answers its doctype, typed elements, chain, signer, device key, status and validity', async () => {
    const verified = await verifyIssuerSigned(issued);
    expect(verified).toMatchObject({
      docType: DOC_TYPE,
      x5chain: pki.x5c,
      signerJwk: { x: pki.leaf.key.publicJwk.x, y: pki.leaf.key.publicJwk.y },
      deviceJwk: { x: holder.publicJwk.x, y: holder.publicJwk.y },
      status: { idx: 3, uri: STATUS_URI },
    });
    expect(verified.namespaces[NS]).toMatchObject({ birth_date: '1990-12-10', joined_at: '2024-05-01T10:20:30Z' });
    expect(verified.validUntil.getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses an issuerAuth not signed by the x5chain leaf', async () => {
    const other = await generateEs256KeyPair();
    const forged = await issue({ signer: await coseSignerFromPrivateJwk(other.privateJwk) });
    await expect(verifyIssuerSigned(forged)).rejects.toMatchObject({
      code: 'MDOC_SIGNATURE_INVALID',
      message: expect.stringMatching(/does not verify with the x5chain leaf/),
    });
  });

  it('refuses an element changed after signing, and what is not an IssuerSigned', async () => {
    const raw = cborDecode<Map<string, unknown>>(fromBase64url(issued));
    const items = (raw.get('nameSpaces') as Map<string, DataItem[]>).get(NS)!;
    const index = items.findIndex((item) => (item.data as Map<string, unknown>).get('elementIdentifier') === 'age');
    const age = items[index]!.data as Map<string, unknown>;
    age.set('elementValue', 99);
    items[index] = DataItem.fromData(age);
    await expect(verifyIssuerSigned(base64url(cborEncode(raw)))).rejects.toMatchObject({
      code: 'MDOC_SIGNATURE_INVALID',
      message: expect.stringMatching(/age does not match its digest/),
    });
    await expect(verifyIssuerSigned('eyJhbGciOiJFUzI1NiJ9')).rejects.toMatchObject({ code: 'MDOC_MALFORMED' });
  });
});

describe('the OpenID4VP 1.0 session transcript', () => {
  it('is the one @owf/mdoc builds for OpenID4VPHandover, with and without a jwk thumbprint', async () => {
    const digest = async ({ bytes }: { bytes: Uint8Array }) => sha256(bytes);
    const thumbprint = await sha256('verifier key');
    for (const jwkThumbprint of [undefined, thumbprint]) {
      const ours = await openId4VpSessionTranscript({ ...REQUEST, ...(jwkThumbprint ? { jwkThumbprint } : {}) });
      const theirs = await SessionTranscript.forOid4Vp(
        { ...REQUEST, ...(jwkThumbprint ? { jwkThumbprint } : {}) },
        { crypto: { digest } as never },
      );
      expect(base64url(ours.bytes)).toBe(base64url(theirs.encode()));
    }
    // A base64url thumbprint is the same thumbprint.
    expect((await openId4VpSessionTranscript({ ...REQUEST, jwkThumbprint: base64url(thumbprint) })).bytes).toEqual(
      (await openId4VpSessionTranscript({ ...REQUEST, jwkThumbprint: thumbprint })).bytes,
    );
  });
});

describe('the OpenID4VP 1.0 session transcript over the Digital Credentials API (B.2.6.2)', () => {
  // The specification's own example: its JWK, origin and nonce, and the bytes it gives for the thumbprint,
  // the OpenID4VPDCAPIHandoverInfo and the SessionTranscript.
  const exampleJwk = {
    kty: 'EC',
    crv: 'P-256',
    x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0',
    y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc',
    use: 'enc',
    alg: 'ECDH-ES',
    kid: '1',
  };
  const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

  it('is the specification’s example, byte for byte', async () => {
    const { calculateJwkThumbprint } = await import('jose');
    const thumbprint = await calculateJwkThumbprint(exampleJwk, 'sha256');
    expect(hex(fromBase64url(thumbprint))).toBe('4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047');
    const input = { origin: 'https://example.com', nonce: 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA' };
    expect(hex(cborEncode([input.origin, input.nonce, fromBase64url(thumbprint)]))).toBe(
      '837368747470733a2f2f6578616d706c652e636f6d782b6578633767426b786a7831726463397564527276654b7653734a497138306176' +
        '6c58654c486847777174415820' +
        '4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047',
    );
    const transcript = await openId4VpSessionTranscript({ ...input, jwkThumbprint: thumbprint });
    expect(hex(transcript.bytes)).toBe(
      '83f6f682764f70656e4944345650444341504948616e646f7665725820' +
        'fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a',
    );
    expect(cborEncode(transcript.structure)).toEqual(transcript.bytes);
  });

  it('differs from the redirect transcript and with each input; null without a thumbprint (dc_api)', async () => {
    const base = { origin: 'https://verifier.example', nonce: 'n-0S6_WzA2Mj' };
    const thumbprint = await sha256('verifier key');
    const bytes = async (input: Parameters<typeof openId4VpSessionTranscript>[0]) =>
      hex((await openId4VpSessionTranscript(input)).bytes);
    const all = [
      await bytes({ ...base, jwkThumbprint: thumbprint }),
      await bytes(base),
      await bytes({ ...base, origin: 'https://verifier.example.evil', jwkThumbprint: thumbprint }),
      await bytes({ ...base, nonce: 'other', jwkThumbprint: thumbprint }),
      await bytes({ ...REQUEST, jwkThumbprint: thumbprint }),
    ];
    expect(new Set(all).size).toBe(all.length);
    const theirs = await SessionTranscript.forOid4VpDcApi(base, {
      crypto: { digest: async ({ bytes }: { bytes: Uint8Array }) => sha256(bytes) } as never,
    });
    expect(all[1]).toBe(hex(theirs.encode()));
  });

  it('refuses an input that is both a redirect and a DC API handover', async () => {
    await expect(
      openId4VpSessionTranscript({ ...REQUEST, origin: 'https://verifier.example' } as never),
    ).rejects.toMatchObject({ code: 'MDOC_INPUT_INVALID' });
  });
});

describe('verifying an mdoc presentation', () => {
  it('verifies a presentation and answers only the requested elements', async () => {
    const response = await present(issued);
    const disclosed = itemsOf(decodeResponse(response)).map((i) => (i.data as CborMap).get('elementIdentifier'));
    expect(disclosed).toEqual(['given_name', 'age']);

    const result = await verify(response, {
      rules: [{ attribute: 'age', type: 'NUMBER', operator: 'BIGGER', value: '18' }],
    });
    expect(failed(result)).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.checks.map((c) => c.code)).toEqual([
      'RESPONSE_FORMAT',
      'ISSUER_SIGNATURE',
      'TRUSTED_ISSUER',
      'CREDENTIAL_TYPE',
      'EXPIRY',
      'STATUS',
      'KEY_BINDING',
      'CLAIMS_DISCLOSED',
      'RULE',
    ]);
    expect(result.claims).toEqual({ given_name: 'Ada', age: 36 });
    expect(result.docType).toBe(DOC_TYPE);
    expect(result.status).toEqual({ idx: 3, uri: STATUS_URI });
    expect(result.certificateChain).toEqual(pki.x5c);
    expect(result.binding?.iss).toBe(ISS);
    expect(result.binding?.certificate?.path?.anchor.subject).toBe('CN=Platform CA');
  });

  it('answers dates as ISO 8601 text', async () => {
    const response = await present(issued, {
      disclose: [
        [NS, 'birth_date'],
        [NS, 'joined_at'],
      ],
    });
    const result = await verify(response, {
      requestedClaims: [
        { name: 'birth_date', path: [NS, 'birth_date'] },
        { name: 'joined_at', path: [NS, 'joined_at'] },
      ],
    });
    expect(result.verified).toBe(true);
    expect(result.claims).toEqual({ birth_date: '1990-12-10', joined_at: '2024-05-01T10:20:30Z' });
  });

  it('fails CLAIMS_DISCLOSED when a requested element is withheld', async () => {
    const response = await present(issued, { disclose: [[NS, 'given_name']] });
    const result = await verify(response);
    expect(failed(result)).toEqual(['CLAIMS_DISCLOSED']);
    expect(detail(result, 'CLAIMS_DISCLOSED')).toContain('age');
  });

  it('holder refuses to present an element the mdoc does not have', async () => {
    await expect(present(issued, { disclose: [[NS, 'nickname']] })).rejects.toMatchObject({
      code: 'MDOC_ELEMENT_MISSING',
    });
  });

  describe('issuer data tampered', () => {
    it('an element value changed: its digest no longer matches', async () => {
      const response = decodeResponse(await present(issued));
      const items = itemsOf(response);
      const age = items[1]!.data as CborMap;
      age.set('elementValue', 99);
      items[1] = DataItem.fromData(age);
      const result = await verify(encodeResponse(response));
      expect(failed(result)).toEqual(['ISSUER_SIGNATURE']);
      expect(detail(result, 'ISSUER_SIGNATURE')).toMatch(/age does not match its digest/);
      expect(result.verified).toBe(false);
      expect(result.claims).toEqual({});
    });

    it('an element the MSO does not cover is added', async () => {
      const response = decodeResponse(await present(issued));
      itemsOf(response).push(
        DataItem.fromData(
          new Map<string, unknown>([
            ['digestID', 4_000_000_000],
            ['random', crypto.getRandomValues(new Uint8Array(32))],
            ['elementIdentifier', 'is_admin'],
            ['elementValue', true],
          ]),
        ),
      );
      const result = await verify(encodeResponse(response));
      expect(failed(result)).toEqual(['ISSUER_SIGNATURE']);
      expect(detail(result, 'ISSUER_SIGNATURE')).toMatch(/is_admin is not in the MSO/);
    });

    it('an element disclosed twice (the same item replayed) is refused', async () => {
      const response = decodeResponse(await present(issued));
      itemsOf(response).push(itemsOf(response)[0]!);
      const result = await verify(encodeResponse(response));
      expect(detail(result, 'ISSUER_SIGNATURE')).toMatch(/disclosed twice/);
    });

    it('the issuerAuth signature altered', async () => {
      const response = decodeResponse(await present(issued));
      const issuerAuth = issuerSignedOf(response).get('issuerAuth') as Uint8Array[];
      const signature = issuerAuth[3]!.slice();
      signature[10] = (signature[10] ?? 0) ^ 0xff;
      issuerAuth[3] = signature;
      const result = await verify(encodeResponse(response));
      expect(failed(result)).toEqual(['ISSUER_SIGNATURE']);
      expect(detail(result, 'ISSUER_SIGNATURE')).toMatch(/does not verify/);
    });

    it('the MSO altered (validUntil pushed out) without the issuer key', async () => {
      const response = decodeResponse(await present(issued));
      const issuerAuth = issuerSignedOf(response).get('issuerAuth') as unknown[];
      const mso = cborDecode<CborMap>(issuerAuth[2] as Uint8Array);
      (mso.get('validityInfo') as CborMap).set('validUntil', new Date(Date.now() + 3650 * day));
      issuerAuth[2] = cborEncode(DataItem.fromData(mso));
      const result = await verify(encodeResponse(response));
      expect(failed(result)).toEqual(['ISSUER_SIGNATURE']);
    });

    it('an issuerAuth not signed ES256 is refused', async () => {
      const response = decodeResponse(await present(issued));
      const issuerAuth = issuerSignedOf(response).get('issuerAuth') as unknown[];
      issuerAuth[0] = cborEncode(new Map([[1, -35]]));
      const result = await verify(encodeResponse(response));
      expect(detail(result, 'ISSUER_SIGNATURE')).toMatch(/ES256/);
    });
  });

  describe('issuer certificate chain', () => {
    it('a chain to a CA that is not a trust anchor', async () => {
      const other = await makeIssuerPki(ISS, { root: 'Other Root' });
      const mdoc = await issueMdoc({
        signer: await coseSignerFromPrivateJwk(other.leaf.key.privateJwk),
        x5chain: other.x5c,
        docType: DOC_TYPE,
        namespace: NS,
        attributes,
        claims,
        holderJwk: holder.publicJwk,
        validUntil: new Date(Date.now() + day),
      });
      const result = await verify(await present(mdoc));
      expect(failed(result)).toContain('TRUSTED_ISSUER');
      expect(detail(result, 'TRUSTED_ISSUER')).toMatch(/CHAIN_UNTRUSTED/);
      expect(result.verified).toBe(false);
      expect(result.claims).toEqual({});
      expect(result.binding).toBeUndefined();
    });

    it('a self-signed leaf naming the issuer', async () => {
      const selfSigned = await makeCertificate({ subject: 'CN=Test Issuer', uris: [ISS] });
      const result = await verify(await present(await issue({}, selfSigned)));
      expect(failed(result)).toContain('TRUSTED_ISSUER');
      expect(result.verified).toBe(false);
      expect(result.claims).toEqual({});
    });

    it('the trust anchor itself as the signing certificate', async () => {
      const mdoc = await issueMdoc({
        signer: await coseSignerFromPrivateJwk(pki.root.key.privateJwk),
        x5chain: [pki.root.b64],
        docType: DOC_TYPE,
        namespace: NS,
        attributes,
        claims,
        holderJwk: holder.publicJwk,
        validUntil: new Date(Date.now() + day),
      });
      const result = await verify(await present(mdoc));
      expect(detail(result, 'TRUSTED_ISSUER')).toMatch(/LEAF_NOT_FOR_SIGNING/);
    });

    it('an x5chain whose leaf did not sign issuerAuth', async () => {
      // Signed by another organization's key under the same CA, presenting this organization's chain.
      const other = await makeCertificate({ subject: 'CN=Other', issuer: pki.intermediate, uris: [ISS] });
      const mdoc = await issueMdoc({
        signer: await coseSignerFromPrivateJwk(other.key.privateJwk),
        x5chain: pki.x5c,
        docType: DOC_TYPE,
        namespace: NS,
        attributes,
        claims,
        holderJwk: holder.publicJwk,
        validUntil: new Date(Date.now() + day),
      });
      const result = await verify(await present(mdoc));
      expect(failed(result)).toEqual(['ISSUER_SIGNATURE']);
    });

    it('a trust policy that fails is a failed check, not an exception', async () => {
      const result = await verify(
        await present(issued),
        {},
        {
          admitIssuer: async () => {
            throw new Error('database down');
          },
        },
      );
      expect(failed(result)).toEqual(['TRUSTED_ISSUER', 'CREDENTIAL_TYPE']);
      expect(detail(result, 'TRUSTED_ISSUER')).toMatch(/database down/);
      expect(result.claims).toEqual({});
    });

    it('an issuer the trust policy refuses', async () => {
      const result = await verify(
        await present(issued),
        {},
        {
          admitIssuer: async () => ({
            issuer: { admitted: false, reason: 'NOT_LISTED', detail: 'refused because not listed' },
            type: { passed: true },
          }),
        },
      );
      expect(failed(result)).toEqual(['TRUSTED_ISSUER']);
      expect(result.claims).toEqual({});
    });
  });

  describe('doctype', () => {
    it('another doctype than the one asked for', async () => {
      const result = await verify(await present(issued), { docType: mdocNames({ vct: `${ISS}/vct/other` }).docType });
      expect(failed(result)).toEqual(['CREDENTIAL_TYPE']);
    });

    it("another organization's doctype, signed with this organization's certificate", async () => {
      const foreign = mdocNames({ vct: 'https://issuer.example/orgs/8/vct/membership' });
      const mdoc = await issue({ docType: foreign.docType, namespace: foreign.namespace });
      const response = await present(mdoc, {
        disclose: [
          [foreign.namespace, 'given_name'],
          [foreign.namespace, 'age'],
        ],
      });
      const result = await verify(response, {
        docType: foreign.docType,
        requestedClaims: [{ name: 'given_name', path: [foreign.namespace, 'given_name'] }],
      });
      expect(failed(result)).toEqual(['CREDENTIAL_TYPE']);
      expect(detail(result, 'CREDENTIAL_TYPE')).toMatch(/may not issue/);
    });

    it('a document naming another doctype than its MSO', async () => {
      const response = decodeResponse(await present(issued));
      documentOf(response).set('docType', 'org.iso.18013.5.1.mDL');
      const result = await verify(encodeResponse(response));
      expect(failed(result)).toEqual(['CREDENTIAL_TYPE', 'KEY_BINDING']);
    });
  });

  describe('validity', () => {
    it('expired', async () => {
      const signedAt = new Date(Date.now() - 10 * day);
      const mdoc = await issue({ signedAt, validUntil: new Date(Date.now() - day) });
      const result = await verify(await present(mdoc));
      expect(failed(result)).toEqual(['EXPIRY']);
      expect(detail(result, 'EXPIRY')).toMatch(/expired/);
    });

    it('not yet valid', async () => {
      const mdoc = await issue({ validFrom: new Date(Date.now() + day), validUntil: new Date(Date.now() + 2 * day) });
      const result = await verify(await present(mdoc));
      expect(failed(result)).toEqual(['EXPIRY']);
      expect(detail(result, 'EXPIRY')).toMatch(/not valid yet/);
    });

    it('signed in the future', async () => {
      const signedAt = new Date(Date.now() + 2 * 3600_000);
      const mdoc = await issue({ signedAt, validUntil: new Date(Date.now() + 2 * day) });
      const result = await verify(await present(mdoc));
      expect(failed(result)).toContain('EXPIRY');
    });

    it('checked at the given time', async () => {
      const result = await verify(await present(issued), { now: Math.floor(Date.now() / 1000) + 31 * 86_400 });
      expect(failed(result)).toContain('EXPIRY');
    });
  });

  describe('status', () => {
    it('a revoked credential', async () => {
      const mdoc = await issue({ status: { idx: REVOKED_INDEX, uri: STATUS_URI } });
      const result = await verify(await present(mdoc));
      expect(failed(result)).toEqual(['STATUS']);
      expect(detail(result, 'STATUS')).toMatch(/revoked/);
      expect(result.status).toEqual({ idx: REVOKED_INDEX, uri: STATUS_URI });
    });

    it('a status list that cannot be had', async () => {
      const result = await verify(
        await present(issued),
        {},
        {
          fetchStatusListToken: async () => {
            throw new Error('503');
          },
        },
      );
      expect(failed(result)).toEqual(['STATUS']);
    });

    it('a status list token for another list', async () => {
      const otherList = await signStatusListToken({
        signer: await signerFromPrivateJwk(pki.leaf.key.privateJwk),
        header: {},
        uri: `${ISS}/status-lists/2`,
        lst: encodeStatusList(16, []),
        ttl: 300,
      });
      const result = await verify(await present(issued), {}, { fetchStatusListToken: async () => otherList });
      expect(failed(result)).toEqual(['STATUS']);
      expect(detail(result, 'STATUS')).toMatch(/another list/);
    });

    it('no status reference: nothing to check', async () => {
      const { status: _status, ...input } = {
        signer: await coseSignerFromPrivateJwk(pki.leaf.key.privateJwk),
        x5chain: pki.x5c,
        docType: DOC_TYPE,
        namespace: NS,
        attributes,
        claims,
        holderJwk: holder.publicJwk,
        validUntil: new Date(Date.now() + day),
        status: undefined,
      };
      const result = await verify(await present(await issueMdoc(input)));
      expect(result.verified).toBe(true);
      expect(result.status).toBeNull();
    });

    it('a malformed status reference signed by the issuer', async () => {
      const mdoc = await resignMso(issued, (mso) =>
        mso.set('status', new Map([['status_list', new Map([['idx', -1]])]])),
      );
      const result = await verify(await present(mdoc));
      expect(failed(result)).toEqual(['STATUS']);
    });
  });

  describe('device authentication', () => {
    it('signed by another key than the MSO device key', async () => {
      const stranger = await generateEs256KeyPair();
      const response = await present(issued, { signer: await coseSignerFromPrivateJwk(stranger.privateJwk) });
      const result = await verify(response);
      expect(failed(result)).toEqual(['KEY_BINDING']);
      expect(result.claims).toEqual({});
    });

    it.each([
      ['nonce', { nonce: 'another-nonce' }],
      ['client_id', { clientId: 'x509_san_dns:attacker.example' }],
      ['response_uri', { responseUri: 'https://attacker.example/response' }],
      ['jwk thumbprint', { jwkThumbprint: base64url(new Uint8Array(32)) }],
    ])('made for another %s (replayed to this verifier)', async (_name, other) => {
      const response = await present(issued, other);
      const result = await verify(response);
      expect(failed(result)).toEqual(['KEY_BINDING']);
      expect(detail(result, 'KEY_BINDING')).toMatch(/session transcript/);
    });

    it('bound to the encryption key thumbprint when the verifier gives one', async () => {
      const jwkThumbprint = base64url(await sha256('verifier encryption key'));
      const result = await verify(await present(issued, { jwkThumbprint }), { jwkThumbprint });
      expect(result.verified).toBe(true);
    });

    describe('over the Digital Credentials API', () => {
      const DC_API = { origin: 'https://verifier.example', nonce: 'n-0S6_WzA2Mj' };
      const dcApiExpectation = (jwkThumbprint: string): MdocPresentationExpectation => ({
        docType: DOC_TYPE,
        ...DC_API,
        jwkThumbprint,
        requestedClaims: [
          { name: 'given_name', path: [NS, 'given_name'] },
          { name: 'age', path: [NS, 'age'] },
        ],
      });
      const presentDcApi = async (handover: Record<string, unknown>) =>
        presentMdoc({
          issuerSigned: issued,
          disclose: [
            [NS, 'given_name'],
            [NS, 'age'],
          ],
          signer: await coseSignerFromPrivateJwk(holder.privateJwk),
          ...(handover as { origin: string; nonce: string }),
        });
      // The thumbprint of the key the response is encrypted to (dc_api.jwt); any 32 bytes for these checks.
      const jwkThumbprint = base64url(new Uint8Array(32).fill(7));

      it('verifies a device signature over the DC API transcript of this origin, nonce and key', async () => {
        const result = await verifyMdocPresentation(
          await presentDcApi({ ...DC_API, jwkThumbprint }),
          dcApiExpectation(jwkThumbprint),
          deps(),
        );
        expect(failed(result)).toEqual([]);
        expect(result.claims).toEqual({ given_name: 'Ada', age: 36 });
      });

      it.each([
        ['another origin', { ...DC_API, jwkThumbprint, origin: 'https://attacker.example' }],
        ['another nonce', { ...DC_API, jwkThumbprint, nonce: 'another-nonce' }],
        ['another encryption key', { ...DC_API, jwkThumbprint: base64url(new Uint8Array(32)) }],
        ['no encryption key (dc_api)', { ...DC_API }],
        ['the origin with its origin: prefix', { ...DC_API, jwkThumbprint, origin: `origin:${DC_API.origin}` }],
      ])('fails KEY_BINDING for a signature made for %s', async (_name, handover) => {
        const result = await verifyMdocPresentation(
          await presentDcApi(handover),
          dcApiExpectation(jwkThumbprint),
          deps(),
        );
        expect(failed(result)).toEqual(['KEY_BINDING']);
        expect(detail(result, 'KEY_BINDING')).toMatch(/DC API session transcript/);
        expect(result.claims).toEqual({});
      });

      it('fails KEY_BINDING for a signature over the redirect transcript of the same request, and the reverse', async () => {
        const redirect = await present(issued, { jwkThumbprint });
        const asDcApi = await verifyMdocPresentation(redirect, dcApiExpectation(jwkThumbprint), deps());
        expect(failed(asDcApi)).toEqual(['KEY_BINDING']);
        const dcApi = await presentDcApi({ ...DC_API, jwkThumbprint });
        expect(failed(await verify(dcApi, { jwkThumbprint }))).toEqual(['KEY_BINDING']);
      });
    });

    it('no deviceSignature', async () => {
      const response = decodeResponse(await present(issued));
      (documentOf(response).get('deviceSigned') as CborMap).set('deviceAuth', new Map());
      const result = await verify(encodeResponse(response));
      expect(failed(result)).toEqual(['KEY_BINDING']);
    });

    it('a device signature with an attached payload', async () => {
      const response = decodeResponse(await present(issued));
      const deviceAuth = (documentOf(response).get('deviceSigned') as CborMap).get('deviceAuth') as CborMap;
      (deviceAuth.get('deviceSignature') as unknown[])[2] = new Uint8Array([1]);
      const result = await verify(encodeResponse(response));
      expect(detail(result, 'KEY_BINDING')).toMatch(/detached/);
    });

    it('an MSO whose device key is unusable (no coordinates)', async () => {
      const mdoc = await resignMso(issued, (mso) =>
        mso.set('deviceKeyInfo', new Map([['deviceKey', new Map<number, unknown>([[1, 2]])]])),
      );
      const result = await verify(await present(mdoc));
      expect(failed(result)).toEqual(['KEY_BINDING']);
      expect(detail(result, 'KEY_BINDING')).toMatch(/device key/);
    });

    it('an MSO without deviceKeyInfo cannot be read', async () => {
      const mdoc = await resignMso(issued, (mso) => mso.delete('deviceKeyInfo'));
      const result = await verify(await present(mdoc));
      expect(result.verified).toBe(false);
      expect(detail(result, 'ISSUER_SIGNATURE')).toMatch(/MSO cannot be read/);
    });
  });

  describe('malformed responses are failed checks, never exceptions', () => {
    it.each([
      ['not base64url', '%%%'],
      ['not CBOR', base64url('hello')],
      ['a CBOR number', base64url(cborEncode(1))],
      [
        'no documents',
        base64url(
          cborEncode(
            new Map<string, unknown>([
              ['version', '1.0'],
              ['status', 0],
            ]),
          ),
        ),
      ],
    ])('%s', async (_name, token) => {
      const result = await verify(token);
      expect(failed(result)).toEqual(['RESPONSE_FORMAT']);
      expect(result.verified).toBe(false);
    });

    it('two documents', async () => {
      const response = decodeResponse(await present(issued));
      response.set('documents', [documentOf(response), documentOf(response)]);
      expect(failed(await verify(encodeResponse(response)))).toEqual(['RESPONSE_FORMAT']);
    });

    it('an IssuerSigned sent instead of a DeviceResponse', async () => {
      expect(failed(await verify(issued))).toEqual(['RESPONSE_FORMAT']);
    });
  });
});
