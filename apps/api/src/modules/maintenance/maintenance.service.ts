import { type Database, schema } from '@cp/db';
import { and, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { compactCredentialCounts } from '../credentials/credentials.repository.ts';

export const CLEANUP_QUEUE = 'maintenance.cleanup';
/** Rotated and revoked refresh tokens are kept a while so reuse can still be detected. */
const REFRESH_TOKEN_GRACE_MS = 7 * 86_400_000;
/** A verification attempt no wallet answered within a day is abandoned (its request expired long before). */
const ABANDONED_ATTEMPT_MS = 86_400_000;
/** An organization's credential count deltas are merged once they are this many rows (the list also merges). */
const COUNT_ROWS_TO_COMPACT = 100;
/**
 * Pushed authorization requests live 60 s, their codes 60 s, browser flows 10 min; kept a day so that the e-mail
 * codes sent to an address in the last hour are counted (migration 0021). Deleting one deletes its codes.
 */
const AUTHORIZATION_REQUEST_KEEP_MS = 86_400_000;

/**
 * Deletes what has expired: provider sessions and codes, sign-in attempts, old refresh tokens, nonces
 * (OpenID4VCI c_nonces, logout-token ids: refused by their time checks once expired), the authorization code
 * flow's requests of the day before (with their codes and e-mail codes), and verification
 * attempts no wallet ever answered (answered ones are the verification's history: kept).
 */
export async function deleteExpiredRows(db: Database, now = new Date()) {
  const payloads = await db
    .delete(schema.oidcPayloads)
    .where(and(isNotNull(schema.oidcPayloads.expiresAt), lt(schema.oidcPayloads.expiresAt, now)))
    .returning({ id: schema.oidcPayloads.id });
  const attempts = await db
    .delete(schema.authSessions)
    .where(lt(schema.authSessions.expiresAt, now))
    .returning({ id: schema.authSessions.id });
  const cutoff = new Date(now.getTime() - REFRESH_TOKEN_GRACE_MS);
  const tokens = await db
    .delete(schema.refreshTokens)
    .where(or(lt(schema.refreshTokens.expiresAt, cutoff), lt(schema.refreshTokens.revokedAt, cutoff)))
    .returning({ id: schema.refreshTokens.id });
  const individuals = schema.verificationIndividuals;
  const abandoned = await db
    .delete(individuals)
    .where(
      and(
        inArray(individuals.status, ['CREATED', 'REQUESTED']),
        lt(individuals.createdAt, new Date(now.getTime() - ABANDONED_ATTEMPT_MS)),
      ),
    )
    .returning({ id: individuals.id });
  const authorizationRequests = await db
    .delete(schema.authorizationRequests)
    .where(lt(schema.authorizationRequests.createdAt, new Date(now.getTime() - AUTHORIZATION_REQUEST_KEEP_MS)))
    .returning({ id: schema.authorizationRequests.id });
  const expiredNonces = await db
    .delete(schema.nonces)
    .where(lt(schema.nonces.expiresAt, now))
    .returning({ hash: schema.nonces.nonceHash });
  return {
    nonces: expiredNonces.length,
    providerPayloads: payloads.length,
    signInAttempts: attempts.length,
    refreshTokens: tokens.length,
    abandonedVerificationAttempts: abandoned.length,
    authorizationRequests: authorizationRequests.length,
  };
}

/**
 * Keeps the credential list's counters small: merges the deltas of organizations that piled up many rows
 * (a burst of issuance with nobody listing), and drops the rows of deleted organizations (they sum to zero;
 * the table has no foreign key, see credential_counts in the schema).
 */
export async function compactCounters(db: Database) {
  const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
  const orphans = rowsOf<{ id: number }>(
    await db.execute(sql`
      delete from credential_counts c
      where not exists (select 1 from organizations o where o.id = c.organization_id)
      returning c.id`),
  );
  const piled = rowsOf<{ organization_id: string }>(
    await db.execute(sql`
      select organization_id from credential_counts
      group by organization_id having count(*) > ${COUNT_ROWS_TO_COMPACT}`),
  );
  for (const row of piled) await compactCredentialCounts(db, row.organization_id);
  return { orphanCounterRows: orphans.length, compactedOrganizations: piled.length };
}
