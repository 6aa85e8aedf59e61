import { type Database, schema } from '@cp/db';
import { and, inArray, isNotNull, lt, or } from 'drizzle-orm';

export const CLEANUP_QUEUE = 'maintenance.cleanup';
/** Rotated and revoked refresh tokens are kept a while so reuse can still be detected. */
const REFRESH_TOKEN_GRACE_MS = 7 * 86_400_000;
/** A verification attempt no wallet answered within a day is abandoned (its request expired long before). */
const ABANDONED_ATTEMPT_MS = 86_400_000;

/**
 * Deletes what has expired: provider sessions and codes, sign-in attempts, old refresh tokens, and
 * verification attempts no wallet ever answered (answered ones are the verification's history: kept).
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
  return {
    providerPayloads: payloads.length,
    signInAttempts: attempts.length,
    refreshTokens: tokens.length,
    abandonedVerificationAttempts: abandoned.length,
  };
}
