import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';
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
  /** SubjectAltName URIs (the issuer URL). */
  uris?: string[];
  /** SubjectAltName DNS names: only for a certificate that speaks for a whole host. */
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

/** Splits a PEM bundle into its certificates. */
export const pemCertificates = (bundle: string) =>
  bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

export function certificatePublicJwkFromPem(pem: string): Promise<JsonWebKey> {
  return x5cLeafJwk([new x509.X509Certificate(pem).toString('base64')]);
}

/**
 * What is computed from a certificate alone (its key, its hash), kept for the last CERTIFICATE_MEMO_MAX
 * certificates asked about: a verifier signs every request object with the same chain, and sees the same issuer
 * certificates in presentation after presentation (parsing one with @peculiar/x509 costs ≈ 0.4 ms). A pure
 * function of the certificate's bytes, so nothing about trust is kept; a failure is not kept.
 */
const CERTIFICATE_MEMO_MAX = 256;
/** Larger certificates (base64 characters) are computed each time, so the memo stays within 256 × 8 KB. */
const CERTIFICATE_MEMO_CHARS = 8192;

function memoByCertificate<T>(compute: (certificate: string) => T): (certificate: string) => T {
  const kept = new Map<string, T>();
  return (certificate) => {
    if (certificate.length > CERTIFICATE_MEMO_CHARS) return compute(certificate);
    if (kept.has(certificate)) return kept.get(certificate) as T;
    // A computation that throws is not kept, nor one that rejects (deleted when it does).
    const answer = compute(certificate);
    kept.set(certificate, answer);
    if (answer instanceof Promise) answer.catch(() => kept.delete(certificate));
    if (kept.size > CERTIFICATE_MEMO_MAX) kept.delete(kept.keys().next().value as string);
    return answer;
  };
}

const leafJwk = memoByCertificate((leaf) => certificateJwk(new x509.X509Certificate(leaf)));

/** The public key of an x5c chain's leaf (not a trust decision: see validateCertificationPath). */
export async function x5cLeafJwk(x5c: string[]): Promise<JsonWebKey> {
  if (typeof x5c[0] !== 'string') throw new TypeError('x5c has no leaf certificate');
  return { ...(await leafJwk(x5c[0])) };
}

async function certificateJwk(certificate: x509.X509Certificate): Promise<JsonWebKey> {
  const key = await certificate.publicKey.export(ECDSA_P256, ['verify']);
  const jwk = await crypto.subtle.exportKey('jwk', key);
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

// ---- Certification path validation (RFC 5280 §6) ------------------------------------------------

export type CertificatePathErrorCode =
  /** x5c is not an array of 1 to MAX_CHAIN_LENGTH base64 DER certificates. */
  | 'CHAIN_MALFORMED'
  /** No path from the leaf to a trust anchor (unknown CA, broken signature, wrong order…). */
  | 'CHAIN_UNTRUSTED'
  /** A certificate of the path is expired or not yet valid. */
  | 'CHAIN_NOT_VALID_NOW'
  /** A certificate above the leaf is not a CA (basicConstraints cA). */
  | 'CHAIN_NOT_CA'
  /** A CA above the leaf may not sign certificates (keyUsage keyCertSign). */
  | 'CHAIN_KEY_USAGE'
  /** A CA's pathLenConstraint allows fewer intermediates than the path has. */
  | 'CHAIN_PATH_LENGTH'
  /** A certificate carries a critical extension this validator does not process. */
  | 'CHAIN_CRITICAL_EXTENSION'
  /** A CA's name constraints exclude a name below it. */
  | 'CHAIN_NAME_CONSTRAINTS'
  /** The leaf is a CA, or its key usage does not allow digital signatures. */
  | 'LEAF_NOT_FOR_SIGNING';

export class CertificatePathError extends Error {
  constructor(
    readonly code: CertificatePathErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CertificatePathError';
  }
}

export interface CertificationPath {
  leafJwk: JsonWebKey;
  subject: string;
  /** SubjectAltName URIs of the leaf (the issuer URL of an organization certificate). */
  uris: string[];
  /** SubjectAltName DNS names of the leaf. */
  dnsNames: string[];
  /** Which of the given anchors the path ends at (its index), with its subject and SHA-256 fingerprint. */
  anchor: { index: number; subject: string; fingerprint: string };
  /** Certificates in the path, leaf first, anchor last. */
  length: number;
  /** When every certificate of the path is valid: from the latest notBefore to the earliest notAfter. */
  validFrom: Date;
  validUntil: Date;
}

/** Backwards-compatible name of the validated path. */
export type VerifiedChain = CertificationPath;

/** Longest x5c accepted: real issuer chains have 1-3 certificates. */
export const MAX_CHAIN_LENGTH = 6;

/** Extensions whose semantics the path validation honours (pkijs or the explicit checks below). */
const PROCESSED_EXTENSIONS = new Set([
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.15', // keyUsage
  '2.5.29.17', // subjectAltName
  '2.5.29.19', // basicConstraints
  '2.5.29.30', // nameConstraints (pkijs)
  '2.5.29.32', // certificatePolicies (pkijs)
  '2.5.29.33', // policyMappings (pkijs)
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.36', // policyConstraints (pkijs)
  '2.5.29.37', // extKeyUsage
  '2.5.29.54', // inhibitAnyPolicy (pkijs)
]);

pkijs.setEngine('webcrypto', new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto }));

interface ParsedCertificate {
  der: Uint8Array;
  peculiar: x509.X509Certificate;
  pkijs: pkijs.Certificate;
}

const derOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

function parseCertificate(der: Uint8Array): ParsedCertificate {
  const buffer = der.slice().buffer;
  return { der, peculiar: new x509.X509Certificate(buffer), pkijs: pkijs.Certificate.fromBER(buffer) };
}

/** Parsed anchors by PEM text: the same anchors are given on every call. */
const parsedAnchors = new Map<string, { certificate: ParsedCertificate; fingerprint: string }>();
const PARSED_ANCHORS_MAX = 1000;

async function parseAnchor(pem: string) {
  const cached = parsedAnchors.get(pem);
  if (cached) return cached;
  const certificate = parseCertificate(new Uint8Array(new x509.X509Certificate(pem).rawData));
  const entry = { certificate, fingerprint: hex(await sha256(certificate.der)) };
  parsedAnchors.set(pem, entry);
  if (parsedAnchors.size > PARSED_ANCHORS_MAX) parsedAnchors.delete(parsedAnchors.keys().next().value as string);
  return entry;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** SHA-256 of a certificate's DER, lowercase hex (the anchor's fingerprint). */
export async function certificateFingerprint(pem: string): Promise<string> {
  return (await parseAnchor(pem)).fingerprint;
}

/** pkijs result codes (CertificateChainValidationEngine) → ours. */
function pkijsFailure(code: number, message: string): CertificatePathError {
  if (code === 8) return new CertificatePathError('CHAIN_NOT_VALID_NOW', 'A certificate is expired or not yet valid');
  if (code === 14 || code === 7)
    return new CertificatePathError('CHAIN_NOT_CA', 'A certificate above the leaf is not a CA');
  if (code === 3 || code === 4) {
    return new CertificatePathError('CHAIN_KEY_USAGE', 'A CA above the leaf may not sign certificates (keyCertSign)');
  }
  if (code === 6) return new CertificatePathError('CHAIN_CRITICAL_EXTENSION', message);
  if (code === 41 || code === 42) return new CertificatePathError('CHAIN_NAME_CONSTRAINTS', message);
  return new CertificatePathError(
    'CHAIN_UNTRUSTED',
    `The chain does not lead to a trusted certificate authority (${message})`,
  );
}

/**
 * pkijs reports every unfit CA as "not a CA"; the x5c order (each certificate certified by the next,
 * RFC 7515 §4.1.6) tells which certificate failed and why.
 */
function diagnoseIssuers(chain: ParsedCertificate[]): CertificatePathError | undefined {
  for (const { peculiar: certificate } of chain.slice(1)) {
    if (!certificate.getExtension(x509.BasicConstraintsExtension)?.ca) {
      return new CertificatePathError(
        'CHAIN_NOT_CA',
        `${certificate.subject} is not a CA but certifies another certificate`,
      );
    }
    const usages = keyUsage(certificate);
    if (usages !== undefined && (usages & x509.KeyUsageFlags.keyCertSign) === 0) {
      return new CertificatePathError(
        'CHAIN_KEY_USAGE',
        `${certificate.subject} may not sign certificates (keyCertSign)`,
      );
    }
  }
  return undefined;
}

function keyUsage(certificate: x509.X509Certificate): number | undefined {
  return certificate.getExtension(x509.KeyUsagesExtension)?.usages;
}

/**
 * Validates an `x5c` chain as a certification path (RFC 5280 §6) up to one of the trust anchors, with
 * pkijs' CertificateChainValidationEngine (path building, signatures, validity, name chaining, name
 * constraints, policies) and, on top, what it leaves out: every certificate above the leaf is a CA with
 * keyCertSign, path length constraints hold, no critical extension goes unprocessed, and the leaf is fit
 * to sign (not a CA; digitalSignature when key usage is present). Which names the leaf may speak for is
 * the caller's question (see certificateNamesIssuer).
 */
export async function validateCertificationPath(
  x5c: unknown,
  trustAnchorsPem: string[],
  now = new Date(),
): Promise<CertificationPath> {
  if (
    !Array.isArray(x5c) ||
    x5c.length === 0 ||
    x5c.length > MAX_CHAIN_LENGTH ||
    !x5c.every((c) => typeof c === 'string' && c.length > 0 && c.length < 20_000)
  ) {
    throw new CertificatePathError('CHAIN_MALFORMED', `x5c must hold 1 to ${MAX_CHAIN_LENGTH} certificates`);
  }
  let chain: ParsedCertificate[];
  try {
    chain = (x5c as string[]).map((b64) => parseCertificate(derOf(b64)));
  } catch {
    throw new CertificatePathError('CHAIN_MALFORMED', 'x5c holds something that is not a DER certificate');
  }
  if (chain.some((c, i) => chain.findIndex((other) => sameBytes(other.der, c.der)) !== i)) {
    throw new CertificatePathError('CHAIN_MALFORMED', 'x5c holds the same certificate twice');
  }
  const anchors = await Promise.all(trustAnchorsPem.map(parseAnchor));
  if (anchors.length === 0) throw new CertificatePathError('CHAIN_UNTRUSTED', 'No trust anchor is configured');
  const leaf = chain[0]!;
  if (anchors.some((a) => sameBytes(a.certificate.der, leaf.der))) {
    throw new CertificatePathError('LEAF_NOT_FOR_SIGNING', 'The signing certificate is a trust anchor itself');
  }
  // Anchors the issuer sent along are the anchors themselves: pass them only once.
  const intermediates = chain.slice(1).filter((c) => !anchors.some((a) => sameBytes(a.certificate.der, c.der)));
  const engine = new pkijs.CertificateChainValidationEngine({
    trustedCerts: anchors.map((a) => a.certificate.pkijs),
    certs: [...intermediates.map((c) => c.pkijs), leaf.pkijs],
    checkDate: now,
  });
  const verdict = await engine.verify();
  if (!verdict.result || !verdict.certificatePath) {
    throw diagnoseIssuers(chain) ?? pkijsFailure(verdict.resultCode, verdict.resultMessage);
  }

  // The path pkijs built, leaf first; map each certificate back to its parsed form.
  const known = [...chain, ...anchors.map((a) => a.certificate)];
  const path = verdict.certificatePath.map((certificate) => {
    const der = new Uint8Array(certificate.toSchema().toBER());
    const match = known.find((k) => sameBytes(k.der, der));
    if (!match) throw new CertificatePathError('CHAIN_UNTRUSTED', 'The path holds an unknown certificate');
    return match;
  });
  const anchorIndex = anchors.findIndex((a) => sameBytes(a.certificate.der, path[path.length - 1]!.der));
  if (anchorIndex < 0 || !sameBytes(path[0]!.der, leaf.der)) {
    throw new CertificatePathError('CHAIN_UNTRUSTED', 'The path does not run from the leaf to a trust anchor');
  }

  for (const [index, { peculiar: certificate }] of path.entries()) {
    if (certificate.notBefore > now || certificate.notAfter < now) {
      throw new CertificatePathError('CHAIN_NOT_VALID_NOW', 'A certificate is expired or not yet valid');
    }
    const unprocessed = certificate.extensions.find((e) => e.critical && !PROCESSED_EXTENSIONS.has(e.type));
    if (unprocessed) {
      throw new CertificatePathError('CHAIN_CRITICAL_EXTENSION', `Unprocessed critical extension ${unprocessed.type}`);
    }
    const constraints = certificate.getExtension(x509.BasicConstraintsExtension);
    const usages = keyUsage(certificate);
    if (index === 0) {
      if (constraints?.ca) throw new CertificatePathError('LEAF_NOT_FOR_SIGNING', 'The signing certificate is a CA');
      if (usages !== undefined && (usages & x509.KeyUsageFlags.digitalSignature) === 0) {
        throw new CertificatePathError(
          'LEAF_NOT_FOR_SIGNING',
          'The signing certificate may not sign (digitalSignature)',
        );
      }
      continue;
    }
    if (!constraints?.ca) throw new CertificatePathError('CHAIN_NOT_CA', 'A certificate above the leaf is not a CA');
    // RFC 5280 §4.2.1.3: a CA certificate carries key usage. An anchor configured without one is
    // accepted (§6.1.4 (n) checks keyCertSign only when present); a certificate sent in x5c is not.
    const isAnchor = index === path.length - 1;
    if (
      (usages === undefined && !isAnchor) ||
      (usages !== undefined && (usages & x509.KeyUsageFlags.keyCertSign) === 0)
    ) {
      throw new CertificatePathError('CHAIN_KEY_USAGE', 'A CA above the leaf may not sign certificates (keyCertSign)');
    }
    // pathLenConstraint: the most intermediate (non-leaf) certificates that may follow this one.
    const below = index - 1;
    if (constraints.pathLength !== undefined && below > constraints.pathLength) {
      throw new CertificatePathError(
        'CHAIN_PATH_LENGTH',
        `A CA allows ${constraints.pathLength} intermediate certificate(s) below it; the path has ${below}`,
      );
    }
  }

  const leafCertificate = leaf.peculiar;
  const names = leafCertificate.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
  const anchor = anchors[anchorIndex]!;
  return {
    leafJwk: await certificateJwk(leafCertificate),
    subject: leafCertificate.subject,
    uris: names.filter((n) => n.type === 'url').map((n) => n.value),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value.toLowerCase()),
    anchor: { index: anchorIndex, subject: anchor.certificate.peculiar.subject, fingerprint: anchor.fingerprint },
    length: path.length,
    ...validityWindow(path.map((c) => c.peculiar)),
  };
}

/** The span in which every one of `certificates` is valid (latest notBefore to earliest notAfter). */
function validityWindow(certificates: x509.X509Certificate[]): { validFrom: Date; validUntil: Date } {
  return {
    validFrom: new Date(Math.max(...certificates.map((c) => c.notBefore.getTime()))),
    validUntil: new Date(Math.min(...certificates.map((c) => c.notAfter.getTime()))),
  };
}

/**
 * validateCertificationPath with its answers kept, for a party that sees the same chains again and again (a
 * verifier the same issuers', a wallet the same verifier's request chain): keyed by the chain and the anchors'
 * text, for at most `maxAgeMs`, the last `max` of them. A kept answer is given only while the moment asked about
 * lies inside its path's validity window (so an expired certificate is refused at once, as without the cache);
 * otherwise, like any failure, it is computed again. A call that names its `now` (a check of another moment) is
 * always computed.
 */
export function cachedPathValidator(options: { maxAgeMs: number; max: number }) {
  const kept = new Map<string, { at: number; path: Promise<CertificationPath> }>();
  return async (x5c: unknown, trustAnchorsPem: string[], now?: Date): Promise<CertificationPath> => {
    if (now) return validateCertificationPath(x5c, trustAnchorsPem, now);
    const key = `${JSON.stringify(x5c)}|${trustAnchorsPem.join('')}`;
    const hit = kept.get(key);
    if (hit && Date.now() - hit.at < options.maxAgeMs) {
      const path = await hit.path.catch(() => undefined);
      const at = new Date();
      if (path && path.validFrom <= at && at <= path.validUntil) return path;
    }
    const path = validateCertificationPath(x5c, trustAnchorsPem);
    kept.delete(key);
    kept.set(key, { at: Date.now(), path });
    path.catch(() => {
      if (kept.get(key)?.path === path) kept.delete(key);
    });
    if (kept.size > options.max) kept.delete(kept.keys().next().value as string);
    return path;
  };
}

/**
 * Validates an `x5c` chain against certificates trusted in two ways: a CA certificate anchors a certification
 * path (validateCertificationPath), and an end-entity certificate is pinned: the chain's leaf is trusted when it
 * is that very certificate, valid now, fit to sign (not a CA; digitalSignature when key usage is present) and
 * without unprocessed critical extensions. `anchor.index` names the trusted certificate either way. Used where
 * an operator may trust a party's signing certificate itself (a wallet provider's attestation key).
 */
export async function validateSigningChain(
  x5c: unknown,
  trustedPems: string[],
  now = new Date(),
): Promise<CertificationPath> {
  if (!Array.isArray(x5c) || x5c.length === 0 || x5c.length > MAX_CHAIN_LENGTH || typeof x5c[0] !== 'string') {
    throw new CertificatePathError('CHAIN_MALFORMED', `x5c must hold 1 to ${MAX_CHAIN_LENGTH} certificates`);
  }
  const trusted = await Promise.all(trustedPems.map(parseAnchor));
  let leaf: ParsedCertificate;
  try {
    leaf = parseCertificate(derOf(x5c[0]));
  } catch {
    throw new CertificatePathError('CHAIN_MALFORMED', 'x5c holds something that is not a DER certificate');
  }
  const pinned = trusted.findIndex((t) => sameBytes(t.certificate.der, leaf.der));
  if (pinned >= 0) {
    const certificate = leaf.peculiar;
    if (certificate.notBefore > now || certificate.notAfter < now) {
      throw new CertificatePathError('CHAIN_NOT_VALID_NOW', 'The signing certificate is expired or not yet valid');
    }
    const unprocessed = certificate.extensions.find((e) => e.critical && !PROCESSED_EXTENSIONS.has(e.type));
    if (unprocessed) {
      throw new CertificatePathError('CHAIN_CRITICAL_EXTENSION', `Unprocessed critical extension ${unprocessed.type}`);
    }
    const usages = keyUsage(certificate);
    if (certificate.getExtension(x509.BasicConstraintsExtension)?.ca) {
      throw new CertificatePathError('LEAF_NOT_FOR_SIGNING', 'The signing certificate is a CA');
    }
    if (usages !== undefined && (usages & x509.KeyUsageFlags.digitalSignature) === 0) {
      throw new CertificatePathError('LEAF_NOT_FOR_SIGNING', 'The signing certificate may not sign (digitalSignature)');
    }
    const names = certificate.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
    return {
      leafJwk: await certificateJwk(certificate),
      subject: certificate.subject,
      uris: names.filter((n) => n.type === 'url').map((n) => n.value),
      dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value.toLowerCase()),
      anchor: { index: pinned, subject: certificate.subject, fingerprint: trusted[pinned]!.fingerprint },
      length: 1,
      ...validityWindow([certificate]),
    };
  }
  // Only CA certificates can anchor a path; the indexes stay those of `trustedPems`.
  const cas = trustedPems
    .map((pem, index) => ({ pem, index }))
    .filter((_, i) => trusted[i]!.certificate.peculiar.getExtension(x509.BasicConstraintsExtension)?.ca === true);
  const path = await validateCertificationPath(
    x5c,
    cas.map((c) => c.pem),
    now,
  );
  return { ...path, anchor: { ...path.anchor, index: cas[path.anchor.index]!.index } };
}

/**
 * Whether a validated leaf speaks for `iss` (SD-JWT VC §3.5, HAIP): a SubjectAltName URI equal to `iss`;
 * or, for an https `iss`, a dNSName equal to its host, only when the certificate names no URI at all.
 * (A certificate that names URIs speaks for those issuers only: a platform hosting many issuers on one
 * host must not let one issuer's certificate speak for all of them through the shared host name.)
 */
export function certificateNamesIssuer(path: Pick<CertificationPath, 'uris' | 'dnsNames'>, iss: string): boolean {
  const trim = (value: string) => value.replace(/\/+$/, '');
  if (path.uris.some((uri) => trim(uri) === trim(iss))) return true;
  if (path.uris.length > 0) return false;
  try {
    const url = new URL(iss);
    return url.protocol === 'https:' && path.dnsNames.includes(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** What a certificate says about itself, for an operator adding it as a trust anchor. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  fingerprint: string;
  isCa: boolean;
  canSignCertificates: boolean;
  selfSigned: boolean;
  pem: string;
}

/** The subject DN of a PEM certificate. */
export const certificateSubject = (pem: string) => new x509.X509Certificate(pem).subject;

/** Reads one PEM certificate (throws when it is not one). */
export async function describeCertificate(pem: string): Promise<CertificateSummary> {
  const certificate = new x509.X509Certificate(pem);
  const constraints = certificate.getExtension(x509.BasicConstraintsExtension);
  const usages = keyUsage(certificate);
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    fingerprint: hex(await sha256(new Uint8Array(certificate.rawData))),
    isCa: constraints?.ca === true,
    canSignCertificates: usages === undefined || (usages & x509.KeyUsageFlags.keyCertSign) !== 0,
    selfSigned: await certificate.isSelfSigned(),
    pem: certificate.toString('pem'),
  };
}

/** OpenID4VP `x509_hash` client identifier: base64url SHA-256 of the leaf certificate's DER. */
export const x509Hash: (x5cLeaf: string) => Promise<string> = memoByCertificate(async (x5cLeaf) => {
  const der = Uint8Array.from(atob(x5cLeaf), (c) => c.charCodeAt(0));
  return base64url(await sha256(der));
});

/** The leaf of an x5c as parsed (validity and names), without any trust decision. Each caller gets its own copy. */
export function describeLeaf(x5cLeaf: string): LeafDescription {
  const d = readLeaf(x5cLeaf);
  return {
    subject: d.subject,
    notBefore: new Date(d.notBefore),
    notAfter: new Date(d.notAfter),
    uris: [...d.uris],
    dnsNames: [...d.dnsNames],
  };
}

export interface LeafDescription {
  subject: string;
  notBefore: Date;
  notAfter: Date;
  uris: string[];
  dnsNames: string[];
}

const readLeaf = memoByCertificate((x5cLeaf): LeafDescription => {
  const certificate = new x509.X509Certificate(x5cLeaf);
  const names = certificate.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
  return {
    subject: certificate.subject,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    uris: names.filter((n) => n.type === 'url').map((n) => n.value),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value.toLowerCase()),
  };
});
