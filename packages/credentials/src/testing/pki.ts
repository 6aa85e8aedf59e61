import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { generateEs256KeyPair } from '../jws.ts';

/**
 * Test PKI: certificates of every shape an attacker or a careless CA could produce (leaves acting as
 * CAs, CAs without keyCertSign, broken path lengths, expired or misnamed certificates), signed for real.
 * Only tests import this (`@cp/credentials/testing`).
 */

const ALG = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

export interface TestKey {
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}

export interface TestCertificate {
  pem: string;
  /** base64 DER, as in x5c. */
  b64: string;
  key: TestKey;
  subject: string;
}

export interface CertificateOptions {
  subject: string;
  /** Signed by this certificate's key; absent: self-signed. */
  issuer?: TestCertificate;
  key?: TestKey;
  /** basicConstraints cA=true, with an optional pathLenConstraint; absent or false: an end entity. */
  ca?: boolean | { pathLength?: number };
  /** keyUsage flags; 'none' leaves the extension out. Default: CA → keyCertSign|cRLSign, leaf → digitalSignature. */
  keyUsage?: number | 'none';
  uris?: string[];
  dnsNames?: string[];
  notBefore?: Date;
  notAfter?: Date;
  /** Adds a critical extension nobody processes. */
  unknownCriticalExtension?: boolean;
}

let serialCounter = 1;

export async function makeCertificate(options: CertificateOptions): Promise<TestCertificate> {
  const key = options.key ?? (await generateEs256KeyPair());
  const publicKey = await crypto.subtle.importKey('jwk', key.publicJwk, ALG, true, ['verify']);
  const signer = options.issuer?.key ?? key;
  const signingKey = await crypto.subtle.importKey('jwk', signer.privateJwk, ALG, false, ['sign']);
  const isCa = options.ca !== undefined && options.ca !== false;
  const pathLength = typeof options.ca === 'object' ? options.ca.pathLength : undefined;
  const usage =
    options.keyUsage ??
    (isCa ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign : x509.KeyUsageFlags.digitalSignature);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(isCa, pathLength, true),
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
  ];
  if (usage !== 'none') extensions.push(new x509.KeyUsagesExtension(usage, true));
  if (options.issuer) {
    extensions.push(
      await x509.AuthorityKeyIdentifierExtension.create(new x509.X509Certificate(options.issuer.pem), false),
    );
  }
  const names = [
    ...(options.uris ?? []).map((value) => ({ type: 'url' as const, value })),
    ...(options.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
  ];
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  if (options.unknownCriticalExtension) {
    extensions.push(new x509.Extension('1.3.6.1.4.1.99999.1', true, new Uint8Array([0x05, 0x00]).buffer));
  }
  const notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: (serialCounter++).toString(16).padStart(8, '0'),
    subject: options.subject,
    issuer: options.issuer ? options.issuer.subject : options.subject,
    notBefore,
    notAfter: options.notAfter ?? new Date(notBefore.getTime() + 365 * 86_400_000),
    publicKey,
    signingKey,
    signingAlgorithm: SIGNING,
    extensions,
  });
  return { pem: certificate.toString('pem'), b64: certificate.toString('base64'), key, subject: certificate.subject };
}

/** A root CA, an intermediate CA under it and an issuer leaf naming `iss`: the usual three-level PKI. */
export async function makeIssuerPki(iss: string, names: { root?: string; intermediate?: string } = {}) {
  const root = await makeCertificate({ subject: `CN=${names.root ?? 'Test Root CA'}`, ca: { pathLength: 1 } });
  const intermediate = await makeCertificate({
    subject: `CN=${names.intermediate ?? 'Test Issuing CA'}`,
    issuer: root,
    ca: { pathLength: 0 },
  });
  const leaf = await makeCertificate({ subject: 'CN=Test Issuer', issuer: intermediate, uris: [iss] });
  return { root, intermediate, leaf, x5c: [leaf.b64, intermediate.b64] };
}
