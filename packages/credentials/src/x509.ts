import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { base64url, sha256 } from './encoding.ts';

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

const importPrivate = (jwk: JsonWebKey) => crypto.subtle.importKey('jwk', jwk, ECDSA_P256, true, ['sign']);
const importPublic = (jwk: JsonWebKey) => crypto.subtle.importKey('jwk', jwk, ECDSA_P256, true, ['verify']);
const serial = () => base64ToHex(base64url(crypto.getRandomValues(new Uint8Array(16))));

function base64ToHex(text: string): string {
  const bytes = Uint8Array.from(
    atob(text.replaceAll('-', '+').replaceAll('_', '/') + '=='.slice((text.length + 2) % 4 || 2)),
    (c) => c.charCodeAt(0),
  );
  // A positive serial number: clear the top bit.
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A self-signed certificate authority for the platform (ES256 / P-256). */
export async function createCaCertificate(input: {
  commonName: string;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  validityYears?: number;
}): Promise<string> {
  const keys = { privateKey: await importPrivate(input.privateJwk), publicKey: await importPublic(input.publicJwk) };
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + (input.validityYears ?? 10) * 365 * 86_400_000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: [{ CN: [input.commonName] }],
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return certificate.toString('pem');
}

/** An end-entity certificate for an organization's signing key, issued by the platform CA. */
export async function issueLeafCertificate(input: {
  subject: { commonName: string; organization: string };
  publicJwk: JsonWebKey;
  caCertificatePem: string;
  caPrivateJwk: JsonWebKey;
  /** SubjectAltName URIs (the issuer URL) and DNS names (its host). */
  uris?: string[];
  dnsNames?: string[];
  validityDays?: number;
}): Promise<string> {
  const ca = new x509.X509Certificate(input.caCertificatePem);
  const publicKey = await importPublic(input.publicJwk);
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + (input.validityDays ?? 825) * 86_400_000);
  const escapeDn = (v: string) => v.replace(/[,+"\\<>;=]/g, (c) => `\\${c}`);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${escapeDn(input.subject.commonName)}, O=${escapeDn(input.subject.organization)}`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey,
    signingKey: await importPrivate(input.caPrivateJwk),
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca, false),
      new x509.SubjectAlternativeNameExtension([
        ...(input.uris ?? []).map((value) => ({ type: 'url' as const, value })),
        ...(input.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
      ]),
    ],
  });
  return certificate.toString('pem');
}

/** PEM certificates → the `x5c` header value (base64 DER, leaf first). */
export function pemToX5c(pems: string[]): string[] {
  return pems.map((pem) => new x509.X509Certificate(pem).toString('base64'));
}

export function certificatePublicJwkFromPem(pem: string): Promise<JsonWebKey> {
  return x5cLeafJwk([new x509.X509Certificate(pem).toString('base64')]);
}

/** The public key of an x5c chain's leaf (not a trust decision: see verifyX5cChain). */
export async function x5cLeafJwk(x5c: string[]): Promise<JsonWebKey> {
  const leaf = new x509.X509Certificate(x5c[0]!);
  const key = await leaf.publicKey.export(ECDSA_P256, ['verify']);
  const jwk = await crypto.subtle.exportKey('jwk', key);
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

export interface VerifiedChain {
  leafJwk: JsonWebKey;
  subject: string;
  /** SubjectAltName URIs of the leaf (the issuer URL of an organization certificate). */
  uris: string[];
  dnsNames: string[];
}

/**
 * Verifies an `x5c` chain up to one of the trust anchors: each certificate signed by the next, all
 * within their validity at `now`, the last one signed by (or equal to) a trust anchor.
 */
export async function verifyX5cChain(
  x5c: string[],
  trustAnchorsPem: string[],
  now = new Date(),
): Promise<VerifiedChain> {
  if (!Array.isArray(x5c) || x5c.length === 0) throw new Error('x5c is empty');
  const chain = x5c.map((der) => new x509.X509Certificate(der));
  const anchors = trustAnchorsPem.map((pem) => new x509.X509Certificate(pem));
  for (const [index, certificate] of chain.entries()) {
    if (certificate.notBefore > now || certificate.notAfter < now) throw new Error('A certificate is not valid now');
    const issuer = chain[index + 1];
    if (issuer) {
      if (!(await certificate.verify({ publicKey: issuer, signatureOnly: true }))) {
        throw new Error('A certificate is not signed by the next one');
      }
    }
  }
  const last = chain[chain.length - 1]!;
  let anchored = false;
  for (const anchor of anchors) {
    if (
      sameCertificate(last, anchor) ||
      (last.issuer === anchor.subject && (await last.verify({ publicKey: anchor, signatureOnly: true })))
    ) {
      anchored = true;
      break;
    }
  }
  if (!anchored) throw new Error('The chain does not end at a trusted certificate authority');
  const san = chain[0]!.getExtension(x509.SubjectAlternativeNameExtension);
  const names = san?.names.toJSON() ?? [];
  return {
    leafJwk: await x5cLeafJwk(x5c),
    subject: chain[0]!.subject,
    uris: names.filter((n) => n.type === 'url').map((n) => n.value),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
  };
}

function sameCertificate(a: x509.X509Certificate, b: x509.X509Certificate): boolean {
  const left = new Uint8Array(a.rawData);
  const right = new Uint8Array(b.rawData);
  return left.length === right.length && left.every((byte, i) => byte === right[i]);
}

/** OpenID4VP `x509_hash` client identifier: base64url SHA-256 of the leaf certificate's DER. */
export async function x509Hash(x5cLeaf: string): Promise<string> {
  const der = Uint8Array.from(atob(x5cLeaf), (c) => c.charCodeAt(0));
  return base64url(await sha256(der));
}
