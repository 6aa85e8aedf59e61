import { decodeJwt, statusFromToken, verifyJwtSignature } from '@cp/credentials';
import { http } from './http.ts';
import { resolveSignerKey } from './issuer-key.ts';
import type { CredentialStatus, StoredCredential, WalletVault } from './types.ts';

/**
 * A credential's status: EXPIRED by its `exp`; otherwise the bit of the IETF Token Status List it
 * points to (0 valid, 1 revoked, 2 suspended), read from a token signed by the credential's issuer.
 * Anything that prevents a trustworthy answer (network, bad signature, another list) is UNKNOWN.
 */
export async function checkStatus(credential: StoredCredential, now = new Date()): Promise<CredentialStatus> {
  if (credential.expiresAt && new Date(credential.expiresAt).getTime() <= now.getTime()) return 'EXPIRED';
  const reference = credential.statusReference;
  if (!reference) return 'VALID';
  let iss: unknown;
  try {
    iss = decodeJwt(credential.raw.split('~')[0] ?? '').payload.iss;
  } catch {
    return 'UNKNOWN';
  }
  try {
    const answer = await http(reference.uri, {
      headers: { accept: 'application/statuslist+jwt' },
    });
    if (!answer.ok) return 'UNKNOWN';
    const token = answer.text.trim();
    const { header, payload } = decodeJwt(token);
    if (header.typ !== undefined && header.typ !== 'statuslist+jwt') return 'UNKNOWN';
    const key = await resolveSignerKey(header, { iss });
    if (!(await verifyJwtSignature(token, key.jwk))) return 'UNKNOWN';
    if (typeof payload.exp === 'number' && payload.exp * 1000 < now.getTime()) return 'UNKNOWN';
    const status = statusFromToken(token, reference.idx);
    if (status.sub !== reference.uri) return 'UNKNOWN';
    if (status.status === 0) return 'VALID';
    if (status.status === 1) return 'REVOKED';
    if (status.status === 2) return 'SUSPENDED';
    return 'UNKNOWN';
  } catch {
    return 'UNKNOWN';
  }
}

/**
 * Checks every stored credential and saves its `lastStatus` / `lastCheckedAt` (read them back with
 * `vault.listCredentials()`). A check that cannot answer (offline) keeps the last known status and time.
 */
export async function refreshStatuses(vault: WalletVault): Promise<void> {
  const credentials = await vault.listCredentials();
  await Promise.all(
    credentials.map(async (credential) => {
      const status = await checkStatus(credential);
      if (status === 'UNKNOWN' && credential.lastStatus !== 'UNKNOWN' && credential.lastCheckedAt) return;
      const updated: StoredCredential = { ...credential, lastStatus: status, lastCheckedAt: new Date().toISOString() };
      await vault.saveCredential(updated);
    }),
  );
}
