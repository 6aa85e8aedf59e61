import { buildMdocDcqlQuery, type DcqlQuery, generateEs256KeyPair } from '@cp/credentials';
import {
  coseSignerFromPrivateJwk,
  isMdocDocTypeOf,
  issueMdoc,
  mdocNames,
  verifyMdocPresentation,
} from '@cp/credentials/mdoc';
import { makeIssuerPki } from '@cp/credentials/testing';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { matchDcqlQuery } from './dcql.ts';
import { buildMdocDeviceResponse, mdocHandover, type ParsedMdoc, parseMdoc } from './mdoc.ts';
import type { PresentationRequest } from './request.ts';

const ISS = 'https://issuer.example/orgs/7';
const { docType: DOC_TYPE, namespace: NS } = mdocNames({ vct: `${ISS}/vct/membership` });
const REQUEST = {
  clientId: 'x509_san_dns:verifier.example',
  nonce: 'nonce-1',
  responseUri: 'https://verifier.example/response',
};

let pki: Awaited<ReturnType<typeof makeIssuerPki>>;
let holder: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let issued: string;
let parsed: ParsedMdoc;

beforeAll(async () => {
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
      { name: 'birth_date', type: 'DATETIME' },
    ],
    claims: { given_name: 'Ada', age: 36, birth_date: '1990-12-10' },
    holderJwk: holder.publicJwk,
    validUntil: new Date(Date.now() + 86_400_000),
  });
  parsed = parseMdoc(issued);
});

const sdJwt = { vct: 'https://issuer.example/vct/membership', claims: { given_name: 'Ada', age: 36 } };

describe('parseMdoc', () => {
  it('reads the doctype and every element, without verifying', () => {
    expect(parsed).toMatchObject({
      format: 'mso_mdoc',
      docType: DOC_TYPE,
      namespaces: { [NS]: { given_name: 'Ada', age: 36, birth_date: '1990-12-10' } },
      deviceJwk: { kty: 'EC', crv: 'P-256', x: holder.publicJwk.x, y: holder.publicJwk.y },
    });
  });

  it('refuses what is not an mdoc', () => {
    expect(() => parseMdoc('eyJhbGciOiJFUzI1NiJ9')).toThrow(expect.objectContaining({ code: 'CREDENTIAL_INVALID' }));
  });
});

describe('DCQL mso_mdoc queries', () => {
  const query = buildMdocDcqlQuery({
    id: 'membership',
    docType: DOC_TYPE,
    claims: [
      [NS, 'given_name'],
      [NS, 'age'],
    ],
  });

  it('match an mdoc of the doctype with the elements, never an SD-JWT VC, and give the paths to disclose', () => {
    expect(matchDcqlQuery(query, [sdJwt, parsed]).get('membership')).toEqual([
      {
        queryId: 'membership',
        credential: parsed,
        disclose: ['given_name', 'age'],
        paths: [
          [NS, 'given_name'],
          [NS, 'age'],
        ],
      },
    ]);
  });

  it('do not match another doctype, a missing element or another value', () => {
    const otherType = buildMdocDcqlQuery({ id: 'q', docType: `${DOC_TYPE}x`, claims: [[NS, 'age']] });
    expect(matchDcqlQuery(otherType, [parsed]).get('q')).toEqual([]);
    const missing = buildMdocDcqlQuery({ id: 'q', docType: DOC_TYPE, claims: [[NS, 'nickname']] });
    expect(matchDcqlQuery(missing, [parsed]).get('q')).toEqual([]);
    const value: DcqlQuery = {
      credentials: [
        {
          id: 'q',
          format: 'mso_mdoc',
          meta: { doctype_value: DOC_TYPE },
          claims: [{ path: [NS, 'age'], values: [37] }],
        },
      ],
    };
    expect(matchDcqlQuery(value, [parsed]).get('q')).toEqual([]);
  });

  it('an SD-JWT VC query does not match an mdoc', () => {
    const sdJwtQuery: DcqlQuery = { credentials: [{ id: 'q', format: 'dc+sd-jwt', claims: [{ path: ['age'] }] }] };
    expect(matchDcqlQuery(sdJwtQuery, [parsed]).get('q')).toEqual([]);
  });
});

describe('buildMdocDeviceResponse', () => {
  it('answers a query with a DeviceResponse the verifier accepts, disclosing only the matched elements', async () => {
    const query = buildMdocDcqlQuery({ id: 'membership', docType: DOC_TYPE, claims: [[NS, 'age']] });
    const [match] = matchDcqlQuery(query, [parsed]).get('membership') ?? [];
    const response = await buildMdocDeviceResponse({
      issuerSigned: issued,
      paths: match!.paths,
      signer: await coseSignerFromPrivateJwk(holder.privateJwk),
      ...REQUEST,
    });
    const result = await verifyMdocPresentation(
      response,
      {
        docType: DOC_TYPE,
        ...REQUEST,
        requestedClaims: [
          { name: 'age', path: [NS, 'age'] },
          { name: 'given_name', path: [NS, 'given_name'] },
        ],
      },
      {
        trustAnchors: [pki.root.pem],
        admitIssuer: async (binding, credential) => ({
          issuer: { admitted: true, reason: 'ANCHOR', detail: 'admitted' },
          type: { passed: isMdocDocTypeOf(credential.docType, binding.iss) },
        }),
        fetchStatusListToken: async () => {
          throw new Error('no status expected');
        },
      },
    );
    // given_name was not asked of the holder, so it was not disclosed: only age reaches the verifier.
    expect(result.checks.filter((c) => !c.passed)).toEqual([
      { code: 'CLAIMS_DISCLOSED', passed: false, detail: 'Not disclosed: given_name' },
    ]);
    expect(result.claims).toEqual({ age: 36 });
  });

  it('refuses a path that is not [namespace, element]', async () => {
    await expect(
      buildMdocDeviceResponse({
        issuerSigned: issued,
        paths: [['age']],
        signer: await coseSignerFromPrivateJwk(holder.privateJwk),
        ...REQUEST,
      }),
    ).rejects.toMatchObject({ code: 'REQUEST_INVALID' });
  });

  it('refuses an element the mdoc does not have', async () => {
    await expect(
      buildMdocDeviceResponse({
        issuerSigned: issued,
        paths: [[NS, 'nickname']],
        signer: await coseSignerFromPrivateJwk(holder.privateJwk),
        ...REQUEST,
      }),
    ).rejects.toMatchObject({ code: 'NO_MATCHING_CREDENTIAL' });
  });

  it('refuses what is not an mdoc', async () => {
    await expect(
      buildMdocDeviceResponse({
        issuerSigned: 'AAAA',
        paths: [[NS, 'age']],
        signer: await coseSignerFromPrivateJwk(holder.privateJwk),
        ...REQUEST,
      }),
    ).rejects.toMatchObject({ code: 'CREDENTIAL_INVALID' });
  });
});

describe('mdocHandover (OpenID4VP 1.0 B.2.6.1)', () => {
  const request = (responseMode: 'direct_post' | 'direct_post.jwt', jwk?: JsonWebKey) =>
    ({
      clientId: REQUEST.clientId,
      nonce: REQUEST.nonce,
      responseUri: REQUEST.responseUri,
      responseMode,
      ...(jwk ? { encryption: { jwk, enc: 'A128GCM' } } : {}),
    }) as unknown as PresentationRequest;

  it("adds the thumbprint of the verifier's encryption key for direct_post.jwt, and only then", async () => {
    const { publicJwk } = await generateEs256KeyPair();
    const encrypted = await mdocHandover(request('direct_post.jwt', publicJwk));
    expect(encrypted).toEqual({ ...REQUEST, jwkThumbprint: await calculateJwkThumbprint(publicJwk as JWK, 'sha256') });
    expect(await mdocHandover(request('direct_post'))).toEqual(REQUEST);
    // A plain response to a request that gave a key: no thumbprint (the transcript says how it was sent).
    expect(await mdocHandover(request('direct_post.jwt', publicJwk), { responseMode: 'direct_post' })).toEqual(REQUEST);
  });

  it('binds the device signature to it: a verifier expecting another key refuses', async () => {
    const { publicJwk } = await generateEs256KeyPair();
    const handover = await mdocHandover(request('direct_post.jwt', publicJwk));
    const deviceResponse = await buildMdocDeviceResponse({
      ...handover,
      issuerSigned: issued,
      paths: [[NS, 'age']],
      signer: await coseSignerFromPrivateJwk(holder.privateJwk),
    });
    const deps = {
      trustAnchors: [pki.root.pem],
      admitIssuer: async () => ({
        issuer: { admitted: true, reason: 'ANY_ISSUER', detail: 'test' },
        type: { passed: true },
      }),
      fetchStatusListToken: async () => {
        throw new Error('no status');
      },
    };
    const expectation = { docType: DOC_TYPE, requestedClaims: [{ name: 'age', path: [NS, 'age'] }] };
    const right = await verifyMdocPresentation(deviceResponse, { ...expectation, ...handover }, deps);
    expect(right.checks.find((c) => c.code === 'KEY_BINDING')?.passed).toBe(true);
    const other = await verifyMdocPresentation(deviceResponse, { ...expectation, ...REQUEST }, deps);
    expect(other.checks.find((c) => c.code === 'KEY_BINDING')?.passed).toBe(false);
  });
});
