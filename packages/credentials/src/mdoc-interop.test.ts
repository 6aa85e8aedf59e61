import 'reflect-metadata';
import {
  CoseKey,
  DeviceRequest,
  DeviceResponse,
  DocRequest,
  IssuerSigned,
  ItemsRequest,
  type MdocContext,
  SessionTranscript,
  type VerificationAssessment,
  Verifier,
} from '@owf/mdoc';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import { base64url, sha256 } from './encoding.ts';
import { generateEs256KeyPair } from './jws.ts';
import { coseSignerFromPrivateJwk, issueMdoc, mdocNames, openId4VpSessionTranscript, presentMdoc } from './mdoc.ts';
import { verifyMdocPresentation } from './mdoc-verify.ts';
import { makeCertificate, type TestCertificate } from './testing/pki.ts';
import { validateCertificationPath, x5cLeafJwk } from './x509.ts';

/**
 * Interoperability with an independent implementation: @owf/mdoc's own verifier and holder (its defaults,
 * not our byte-level code) on our mdocs and DeviceResponses, and ours on its DeviceResponses.
 */

const ISS = 'https://issuer.example/orgs/7';
const { docType: DOC_TYPE, namespace: NS } = mdocNames({ vct: `${ISS}/vct/membership` });
const REQUEST = {
  clientId: 'x509_san_dns:verifier.example',
  nonce: 'interop-nonce',
  responseUri: 'https://verifier.example/response',
};

const b64 = (der: Uint8Array) => btoa(Array.from(der, (b) => String.fromCharCode(b)).join(''));

async function verifyRaw(jwk: JsonWebKey, signature: Uint8Array, data: Uint8Array) {
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature as BufferSource, data as BufferSource);
}

/** @owf/mdoc's crypto callbacks, with WebCrypto and this package's path validation. */
const context = (anchors: string[]): MdocContext => ({
  crypto: {
    random: (length) => crypto.getRandomValues(new Uint8Array(length)),
    digest: ({ bytes }) => sha256(bytes),
    calculateEphemeralMacKey: () => {
      throw new Error('MAC is not used');
    },
  },
  cose: {
    sign1: {
      async sign({ toBeSigned, key }) {
        const jwk = key.jwk as Record<string, string>;
        const signer = await coseSignerFromPrivateJwk({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d });
        return signer.sign(toBeSigned);
      },
      verify: async ({ key, sign1 }) => {
        const jwk = key.jwk as Record<string, string>;
        return verifyRaw({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, sign1.signature, sign1.toBeSigned);
      },
    },
    mac0: {
      sign: () => {
        throw new Error('MAC is not used');
      },
      verify: () => false,
    },
  },
  x509: {
    getIssuerNameField: ({ certificate, field }) =>
      new x509.X509Certificate(certificate as BufferSource).issuerName.getField(field),
    getPublicKey: async ({ certificate }) =>
      CoseKey.fromJwk((await x5cLeafJwk([b64(certificate)])) as Record<string, unknown>),
    verifyCertificateChain: async ({ x5chain, now }) => {
      await validateCertificationPath(x5chain.map(b64), anchors, now);
    },
    getCertificateData: async ({ certificate }) => {
      const parsed = new x509.X509Certificate(certificate as BufferSource);
      return {
        issuerName: parsed.issuer,
        subjectName: parsed.subject,
        serialNumber: parsed.serialNumber,
        thumbprint: base64url(new Uint8Array(await parsed.getThumbprint())),
        notBefore: parsed.notBefore,
        notAfter: parsed.notAfter,
        pem: parsed.toString('pem'),
      };
    },
  },
});

let root: TestCertificate;
let leaf: TestCertificate;
let x5chain: string[];
let holder: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let issued: string;

beforeAll(async () => {
  // ISO 18013-5 wants the country (C) in the issuer's DN; the platform's certificates will need it too.
  root = await makeCertificate({ subject: 'C=NL, CN=Platform IACA', ca: { pathLength: 1 } });
  const intermediate = await makeCertificate({ subject: 'C=NL, CN=Issuing CA', issuer: root, ca: { pathLength: 0 } });
  leaf = await makeCertificate({ subject: 'C=NL, CN=Acme', issuer: intermediate, uris: [ISS] });
  x5chain = [leaf.b64, intermediate.b64];
  holder = await generateEs256KeyPair();
  issued = await issueMdoc({
    signer: await coseSignerFromPrivateJwk(leaf.key.privateJwk),
    x5chain,
    docType: DOC_TYPE,
    namespace: NS,
    attributes: [
      { name: 'given_name', type: 'TEXT' },
      { name: 'age', type: 'NUMBER' },
      { name: 'birth_date', type: 'DATETIME' },
    ],
    claims: { given_name: 'Ada', age: 36, birth_date: '1990-12-10' },
    holderJwk: holder.publicJwk,
    status: { idx: 3, uri: `${ISS}/status-lists/1` },
    validUntil: new Date(Date.now() + 86_400_000),
  });
});

describe('mdoc interoperability with @owf/mdoc', () => {
  it("@owf/mdoc's verifier accepts our DeviceResponse over the OpenID4VP session transcript", async () => {
    const response = await presentMdoc({
      issuerSigned: issued,
      disclose: [
        [NS, 'age'],
        [NS, 'birth_date'],
      ],
      signer: await coseSignerFromPrivateJwk(holder.privateJwk),
      ...REQUEST,
    });
    const assessments: VerificationAssessment[] = [];
    await Verifier.verifyDeviceResponse(
      {
        deviceResponse: DeviceResponse.fromEncodedForOid4Vp(response),
        sessionTranscript: (await openId4VpSessionTranscript(REQUEST)).bytes,
        trustedCertificates: [new Uint8Array(new x509.X509Certificate(root.pem).rawData)],
        onCheck: (assessment) => assessments.push(assessment),
      },
      context([root.pem]),
    );
    expect(assessments.filter((a) => a.status !== 'PASSED')).toEqual([]);
    const checked = assessments.map((a) => a.check);
    expect(checked).toContain('Device signature must be valid');
    expect(checked).toContain('Issuer certificate must be valid');
    expect(checked.filter((c) => c.startsWith('The calculated digest'))).toHaveLength(2);
  });

  it("@owf/mdoc's verifier accepts our DeviceResponse over its OpenID4VP DC API session transcript", async () => {
    const dcApi = { origin: 'https://verifier.example', nonce: 'interop-nonce', jwkThumbprint: await sha256('key') };
    const response = await presentMdoc({
      issuerSigned: issued,
      disclose: [[NS, 'age']],
      signer: await coseSignerFromPrivateJwk(holder.privateJwk),
      ...dcApi,
    });
    const ctx = context([root.pem]);
    const verifyOver = async (sessionTranscript: Uint8Array) => {
      const assessments: VerificationAssessment[] = [];
      await Verifier.verifyDeviceResponse(
        {
          deviceResponse: DeviceResponse.fromEncodedForOid4Vp(response),
          sessionTranscript,
          trustedCertificates: [new Uint8Array(new x509.X509Certificate(root.pem).rawData)],
          onCheck: (assessment) => assessments.push(assessment),
        },
        ctx,
      );
      return assessments.filter((a) => a.status === 'FAILED').map((a) => a.check);
    };
    expect(await verifyOver((await SessionTranscript.forOid4VpDcApi(dcApi, ctx)).encode())).toEqual([]);
    // ...and not over another origin's.
    expect(
      await verifyOver(
        (await SessionTranscript.forOid4VpDcApi({ ...dcApi, origin: 'https://evil.example' }, ctx)).encode(),
      ),
    ).toEqual(['Device signature must be valid']);
  });

  it("@owf/mdoc's verifier refuses our DeviceResponse for another nonce (the transcripts agree)", async () => {
    const response = await presentMdoc({
      issuerSigned: issued,
      disclose: [[NS, 'age']],
      signer: await coseSignerFromPrivateJwk(holder.privateJwk),
      ...REQUEST,
      nonce: 'other',
    });
    const assessments: VerificationAssessment[] = [];
    await Verifier.verifyDeviceResponse(
      {
        deviceResponse: DeviceResponse.fromEncodedForOid4Vp(response),
        sessionTranscript: (await openId4VpSessionTranscript(REQUEST)).bytes,
        trustedCertificates: [new Uint8Array(new x509.X509Certificate(root.pem).rawData)],
        onCheck: (assessment) => assessments.push(assessment),
      },
      context([root.pem]),
    );
    expect(assessments.filter((a) => a.status === 'FAILED').map((a) => a.check)).toEqual([
      'Device signature must be valid',
    ]);
  });

  it("our verifier accepts a DeviceResponse built by @owf/mdoc's holder", async () => {
    const ctx = context([root.pem]);
    const deviceResponse = await DeviceResponse.createWithDeviceRequest(
      {
        deviceRequest: DeviceRequest.create({
          docRequests: [
            DocRequest.create({
              itemsRequest: ItemsRequest.create({ docType: DOC_TYPE, namespaces: { [NS]: { given_name: false } } }),
            }),
          ],
        }),
        sessionTranscript: await SessionTranscript.forOid4Vp(REQUEST, ctx),
        issuerSigned: [IssuerSigned.fromEncodedForOid4Vci(issued)],
        signature: { signingKey: CoseKey.fromJwk({ ...holder.privateJwk, alg: 'ES256' }) },
      },
      ctx,
    );
    const result = await verifyMdocPresentation(
      deviceResponse.encodedForOid4Vp,
      { docType: DOC_TYPE, ...REQUEST, requestedClaims: [{ name: 'given_name', path: [NS, 'given_name'] }] },
      {
        trustAnchors: [root.pem],
        admitIssuer: async () => ({
          issuer: { admitted: true, reason: 'ANCHOR', detail: 'admitted' },
          type: { passed: true },
        }),
        fetchStatusListToken: async () => {
          throw new Error('offline');
        },
      },
    );
    // Everything but the status list, which this test does not serve.
    expect(result.checks.filter((c) => !c.passed).map((c) => c.code)).toEqual(['STATUS']);
    expect(result.claims).toEqual({ given_name: 'Ada' });
  });
});
