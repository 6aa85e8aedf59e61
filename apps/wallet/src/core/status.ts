import { decodeJwt, statusFromToken, verifyJwtSignature, verifyStatusListToken } from '@cp/credentials';
import { http } from './http.ts';
import { issuerTrustOptions, type ResolvedKey, resolveSignerKey } from './issuer-key.ts';
import { loadPlatformTrust, type PlatformTrust } from './platform-trust.ts';
import type { CredentialStatus, StoredCredential, WalletVault } from './types.ts';

/**
 * A credential's status: EXPIRED by its `exp` (an mdoc: its `validUntil`); otherwise the bit of the IETF Token
 * Status List it points to (0 valid, 1 revoked, 2 suspended; an mdoc points from its MSO's `status.status_list`),
 * read from a token verifyStatusListToken accepts for the credential's issuer binding — the trust function that
 * decided the credential's own key. Anything that prevents a trustworthy answer (network, bad signature, another
 * list) is UNKNOWN.
 */

export interface CheckOptions {
  /** The platform's anchors (default: read from the platform, null when it cannot be read). */
  trust?: PlatformTrust | null;
  now?: Date;
}

/** Once per check: the platform's trust (read only when a key has to be decided) and the issuer's key. */
function checkContext(credential: StoredCredential, options: CheckOptions) {
  let trust: Promise<PlatformTrust | null> | undefined;
  let key: Promise<ResolvedKey | undefined> | undefined;
  const platformTrust = () =>
    (trust ??= options.trust !== undefined ? Promise.resolve(options.trust) : loadPlatformTrust());
  const issuerKey = () => (key ??= platformTrust().then((value) => bindCredentialIssuer(credential, value)));
  return { platformTrust, issuerKey, now: options.now ?? new Date() };
}

/** The key that speaks for the credential's issuer today, and that did sign the credential. */
async function bindCredentialIssuer(
  credential: StoredCredential,
  trust: PlatformTrust | null,
): Promise<ResolvedKey | undefined> {
  if (credential.format === 'mso_mdoc') {
    // An mdoc's issuerAuth verified with its x5chain leaf when it was received, and the record is sealed since: what
    // is decided again is whether that chain still speaks for the issuer today (no CBOR needed on this screen).
    if (!credential.mdoc) return undefined;
    try {
      return await resolveSignerKey({ x5c: credential.mdoc.x5chain }, { iss: credential.issuer.id }, trust);
    } catch {
      return undefined;
    }
  }
  const jwt = credential.raw.split('~')[0] ?? '';
  try {
    const { header, payload } = decodeJwt(jwt);
    const key = await resolveSignerKey(header, payload, trust);
    return (await verifyJwtSignature(jwt, key.jwk)) ? key : undefined;
  } catch {
    return undefined;
  }
}

async function statusOf(
  credential: StoredCredential,
  context: ReturnType<typeof checkContext>,
): Promise<CredentialStatus> {
  const { now } = context;
  if (credential.expiresAt && new Date(credential.expiresAt).getTime() <= now.getTime()) return 'EXPIRED';
  const reference = credential.statusReference;
  if (!reference) return 'VALID';
  const key = await context.issuerKey();
  if (!key) return 'UNKNOWN';
  try {
    const answer = await http(reference.uri, { headers: { accept: 'application/statuslist+jwt' } });
    if (!answer.ok) return 'UNKNOWN';
    const token = answer.text.trim();
    // draft-ietf-oauth-status-list §8.3: typ, sub = the list, not expired, signed for the same issuer.
    const trust = await context.platformTrust();
    await verifyStatusListToken(token, reference.uri, key.binding, issuerTrustOptions(trust, now));
    const { status } = statusFromToken(token, reference.idx);
    if (status === 0) return 'VALID';
    if (status === 1) return 'REVOKED';
    if (status === 2) return 'SUSPENDED';
    return 'UNKNOWN';
  } catch {
    return 'UNKNOWN';
  }
}

export function checkStatus(credential: StoredCredential, options: CheckOptions = {}): Promise<CredentialStatus> {
  return statusOf(credential, checkContext(credential, options));
}

export interface CredentialCheck {
  /** The credential with what this check learnt (save it). */
  credential: StoredCredential;
  /** The status was answered now; false: it could not be checked, and the last known one is kept. */
  answered: boolean;
}

/**
 * Checks a held credential again: its status (see checkStatus) and, when the wallet does not know it yet
 * or decided it without the platform's anchors, who vouches for its issuer. A status that cannot be read
 * leaves the last known status and its time as they were.
 */
export async function recheckCredential(
  credential: StoredCredential,
  options: CheckOptions = {},
): Promise<CredentialCheck> {
  const context = checkContext(credential, options);
  const status = await statusOf(credential, context);
  let issuer = credential.issuer;
  if (!issuer.assurance || issuer.assurance.provisional) {
    const resolved = await context.issuerKey();
    if (resolved) issuer = { ...issuer, keySource: resolved.keySource, assurance: resolved.assurance };
  }
  const answered = status !== 'UNKNOWN';
  return {
    credential: {
      ...credential,
      issuer,
      ...(answered ? { lastStatus: status, lastCheckedAt: context.now.toISOString() } : {}),
    },
    answered,
  };
}

/**
 * Checks every stored credential and saves what changed (read it back with `vault.listCredentials()`). A
 * check that cannot answer (offline) keeps the last known status and time.
 */
export async function refreshStatuses(vault: WalletVault, options: CheckOptions = {}): Promise<void> {
  const credentials = await vault.listCredentials();
  // The platform's trust is read once for all of them (loadPlatformTrust shares a read under way).
  await Promise.all(
    credentials.map(async (credential) => {
      const checked = await recheckCredential(credential, options);
      if (JSON.stringify(checked.credential) === JSON.stringify(credential)) return;
      // Deleted while it was being checked: never write it back.
      if (await vault.getCredential(credential.id)) await vault.saveCredential(checked.credential);
    }),
  );
}
