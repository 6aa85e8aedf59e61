import { createHash } from 'node:crypto';
import { issueLeafCertificate, pemToX5c, x5cLeafJwk } from '@cp/credentials';
import type { Database } from '@cp/db';
import * as organizationsService from '../organizations/organizations.service.ts';
import { issuerUrl, organizationDid } from './identifiers.ts';
import type { KeyStore, OrganizationKeySigner } from './key-store.ts';
import * as repository from './organization-keys.repository.ts';
import type { PlatformCa } from './platform-ca.ts';

export interface KeyDeps {
  db: Database;
  keyStore: KeyStore;
  ca: PlatformCa;
  publicUrl: string;
}

/** RFC 7638 JWK thumbprint of an EC key: the stable `kid`. */
export function jwkThumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

async function createKey(deps: KeyDeps, organizationId: string) {
  const organization = await organizationsService.getPublicOrganization(deps.db, organizationId);
  const label = `organization-key:${organizationId}:${Date.now()}`;
  const { publicJwk, wrapped } = await deps.keyStore.createKey(label);
  const kid = jwkThumbprint(publicJwk);
  const url = issuerUrl(deps.publicUrl, organizationId);
  const certificatePem = await issueLeafCertificate({
    subject: { commonName: organization.name, organization: organization.name },
    publicJwk,
    caCertificatePem: deps.ca.certificatePem,
    caPrivateJwk: deps.ca.privateJwk,
    uris: [url],
  });
  await repository.insertActiveKey(deps.db, {
    organizationId,
    kid,
    publicJwk: { ...publicJwk, kid } as Record<string, unknown> as never,
    // The label travels inside the ciphertext's associated data: store it with the envelope.
    privateJwkCiphertext: `${label}|${wrapped}`,
    certificatePem,
  });
}

/** The organization's active key, created (with its certificate) the first time it is needed. */
export async function ensureActiveKey(deps: KeyDeps, organizationId: string) {
  const existing = await repository.findActiveKey(deps.db, organizationId);
  if (existing) return existing;
  await createKey(deps, organizationId);
  const created = await repository.findActiveKey(deps.db, organizationId);
  if (!created) throw new Error('The organization key could not be created');
  return created;
}

export interface OrganizationSigner {
  keyId: string;
  kid: string;
  signer: OrganizationKeySigner;
  /** The certificate chain for the `x5c` header: the organization's certificate, then the CA's. */
  x5c: string[];
  /** The same chain without the platform CA (the trust anchor, ISO 18013-5's IACA): an mdoc's `x5chain`. */
  x5chain: string[];
}

/**
 * Signers by key row: unwrapping the private key and parsing the certificate chain cost more than the
 * signature itself, and a key row never changes (rotation makes a new row). Bounded; oldest out first.
 */
const signers = new Map<string, Promise<OrganizationSigner>>();
const SIGNER_CACHE_MAX = 1000;

export function signerFor(deps: KeyDeps, row: repository.OrganizationKeyRow): Promise<OrganizationSigner> {
  const cacheKey = `${row.id}:${row.certificatePem?.length ?? 0}`;
  const cached = signers.get(cacheKey);
  if (cached) return cached;
  const created = createSigner(deps, row);
  signers.set(cacheKey, created);
  created.catch(() => signers.delete(cacheKey));
  if (signers.size > SIGNER_CACHE_MAX) signers.delete(signers.keys().next().value as string);
  return created;
}

async function createSigner(deps: KeyDeps, row: repository.OrganizationKeyRow): Promise<OrganizationSigner> {
  const separator = row.privateJwkCiphertext.indexOf('|');
  const label = row.privateJwkCiphertext.slice(0, separator);
  const wrapped = row.privateJwkCiphertext.slice(separator + 1);
  return {
    keyId: row.id,
    kid: row.kid,
    signer: await deps.keyStore.signer(wrapped, label),
    x5c: pemToX5c([row.certificatePem ?? '', deps.ca.certificatePem].filter(Boolean)),
    x5chain: pemToX5c([row.certificatePem ?? ''].filter(Boolean)),
  };
}

/**
 * The active key row by organization, for a few seconds: every credential and request object is signed
 * with it, and it changes only on rotation. A rotation here is seen at once; one made by another process
 * (or the admin CLI) within ACTIVE_KEY_CACHE_MS — signatures by the retired key keep verifying meanwhile.
 */
const activeKeys = new Map<string, { at: number; row: repository.OrganizationKeyRow }>();
const ACTIVE_KEY_CACHE_MS = 30_000;
const ACTIVE_KEY_CACHE_MAX = 1000;

export async function getActiveSigner(deps: KeyDeps, organizationId: string): Promise<OrganizationSigner> {
  const hit = activeKeys.get(organizationId);
  if (hit && Date.now() - hit.at < ACTIVE_KEY_CACHE_MS) return signerFor(deps, hit.row);
  const row = await ensureActiveKey(deps, organizationId);
  activeKeys.delete(organizationId);
  activeKeys.set(organizationId, { at: Date.now(), row });
  if (activeKeys.size > ACTIVE_KEY_CACHE_MAX) activeKeys.delete(activeKeys.keys().next().value as string);
  return signerFor(deps, row);
}

/**
 * The organization's signer with a certificate for its verifier under `x509_san_dns` (OpenID4VP 1.0 §5.9.3): the
 * same key, certified by the platform CA for the platform's host (dNSName) and, as every organization
 * certificate, the organization's issuer URL (URI). Used only for request objects, never put in credentials, and
 * not stored: the organization's stored certificate (credentials' `x5c`) keeps naming its issuer URL alone, as a
 * certificate naming the shared host could be read by a verifier that matches `iss` by host as speaking for every
 * organization on it (certificateNamesIssuer never reads it so: a certificate naming a URI speaks for that URI
 * only). Issued on demand for each key, kept a day, valid a week; processes issue their own (the client id is
 * the host, not the certificate, so they need not agree).
 */
export async function getSanDnsVerifierSigner(deps: KeyDeps, organizationId: string): Promise<OrganizationSigner> {
  const signer = await getActiveSigner(deps, organizationId);
  const host = new URL(deps.publicUrl).hostname;
  const cacheKey = `${signer.keyId}|${host}`;
  const hit = sanDnsCertificates.get(cacheKey);
  if (hit && Date.now() - hit.at < SAN_DNS_CERTIFICATE_REFRESH_MS) return { ...signer, x5c: hit.x5c };
  // The signer's own public key, as its stored certificate holds it.
  const publicJwk = await x5cLeafJwk(signer.x5c);
  const organization = await organizationsService.getPublicOrganization(deps.db, organizationId);
  const certificatePem = await issueLeafCertificate({
    subject: { commonName: organization.name, organization: organization.name },
    publicJwk,
    caCertificatePem: deps.ca.certificatePem,
    caPrivateJwk: deps.ca.privateJwk,
    uris: [issuerUrl(deps.publicUrl, organizationId)],
    dnsNames: [host],
    validityDays: 7,
  });
  const x5c = pemToX5c([certificatePem, deps.ca.certificatePem]);
  sanDnsCertificates.delete(cacheKey);
  sanDnsCertificates.set(cacheKey, { at: Date.now(), x5c });
  if (sanDnsCertificates.size > SIGNER_CACHE_MAX) {
    sanDnsCertificates.delete(sanDnsCertificates.keys().next().value as string);
  }
  return { ...signer, x5c };
}

const sanDnsCertificates = new Map<string, { at: number; x5c: string[] }>();
const SAN_DNS_CERTIFICATE_REFRESH_MS = 86_400_000;

/** Every public key (active and retired) so credentials signed before a rotation keep verifying. */
export async function listPublicKeys(deps: Pick<KeyDeps, 'db'>, organizationId: string) {
  const rows = await repository.findKeys(deps.db, organizationId);
  return rows.map((row) => ({
    jwk: { ...(row.publicJwk as JsonWebKey), kid: row.kid, use: 'sig', alg: 'ES256' },
    active: row.retiredAt === null,
    certificatePem: row.certificatePem,
  }));
}

/** Retires the active key and creates a new one: new credentials use it, old ones keep verifying. */
export async function rotateKey(deps: KeyDeps, organizationId: string) {
  await organizationsService.getPublicOrganization(deps.db, organizationId);
  await repository.retireActiveKey(deps.db, organizationId);
  activeKeys.delete(organizationId);
  return ensureActiveKey(deps, organizationId);
}

export const KEY_BACKFILL_QUEUE = 'organization-keys.backfill';

/** Gives every organization without a key its key pair and certificate, a batch at a time. */
export async function backfillKeys(deps: KeyDeps, batchSize = 100): Promise<number> {
  let created = 0;
  for (;;) {
    const rows = await repository.findOrganizationsWithoutActiveKey(deps.db, batchSize);
    if (rows.length === 0) return created;
    for (const row of rows) {
      await ensureActiveKey(deps, row.id);
      created += 1;
    }
  }
}

/**
 * The organization's did:web document: every key it ever signed with as a verification method, only the
 * active one for assertions (a retired key no longer issues).
 */
export async function didDocument(deps: KeyDeps, organizationId: string) {
  const organization = await organizationsService.getPublicOrganization(deps.db, organizationId);
  await ensureActiveKey(deps, organization.id);
  const did = organizationDid(deps.publicUrl, organization.id);
  const keys = await listPublicKeys(deps, organization.id);
  const methods = keys.map((key) => ({
    id: `${did}#${key.jwk.kid}`,
    type: 'JsonWebKey2020',
    controller: did,
    publicKeyJwk: { kty: key.jwk.kty, crv: key.jwk.crv, x: key.jwk.x, y: key.jwk.y, kid: key.jwk.kid },
  }));
  const active = methods.filter((_, index) => keys[index]?.active).map((m) => m.id);
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    alsoKnownAs: [issuerUrl(deps.publicUrl, organization.id)],
    verificationMethod: methods,
    assertionMethod: active,
    authentication: active,
  };
}

/** The organization's JWT VC Issuer Metadata (SD-JWT VC §5): every key it ever signed with. */
export async function issuerMetadata(deps: KeyDeps, organizationId: string) {
  const organization = await organizationsService.getPublicOrganization(deps.db, organizationId);
  await ensureActiveKey(deps, organization.id);
  const keys = await listPublicKeys(deps, organization.id);
  return {
    issuer: issuerUrl(deps.publicUrl, organization.id),
    // Each key with its certificate chain (the JWK `x5c` member, RFC 7517 §4.7): a wallet can tell, before it
    // accepts a credential, that this platform's CA certifies the issuer.
    jwks: {
      keys: keys.map((k) =>
        k.certificatePem ? { ...k.jwk, x5c: pemToX5c([k.certificatePem, deps.ca.certificatePem]) } : k.jwk,
      ),
    },
    // Not part of the standard metadata: lets a verifier see the platform's KYB decision.
    organization: {
      name: organization.name,
      verified: organization.verifiedAt !== null,
      verification_status: organization.verificationStatus,
    },
  };
}
