import { type Database, schema } from '@cp/db';
import { and, asc, eq, gt, inArray, isNull, lt, ne, notExists, or, sql } from 'drizzle-orm';

const { credentialDeliveries, credentials } = schema;
export type CredentialDeliveryRow = typeof credentialDeliveries.$inferSelect;

/**
 * Queues one delivery per credential of the schema that was never queued (keyset over credential ids, so
 * no recipient is skipped while the set shrinks). The unique credential_id makes concurrent calls safe:
 * a credential is queued once. Answers the new deliveries' ids.
 */
export async function queueDeliveriesForSchema(
  db: Database,
  organizationId: string,
  schemaId: string,
  mail: { message: string | null; locale: string },
  afterCredentialId: string | null,
  limit: number,
) {
  const candidates = await db
    .select({ id: credentials.id })
    .from(credentials)
    .where(
      and(
        eq(credentials.organizationId, organizationId),
        eq(credentials.schemaId, schemaId),
        isNull(credentials.deletedAt),
        isNull(credentials.revokedAt),
        inArray(credentials.status, ['CREATED', 'ISSUED']),
        afterCredentialId ? gt(credentials.id, afterCredentialId) : undefined,
        notExists(
          db
            .select({ one: sql`1` })
            .from(credentialDeliveries)
            .where(eq(credentialDeliveries.credentialId, credentials.id)),
        ),
      ),
    )
    .orderBy(asc(credentials.id))
    .limit(limit);
  if (candidates.length === 0) return { queued: [] as string[], last: null };
  const rows = await db
    .insert(credentialDeliveries)
    .values(candidates.map((c) => ({ credentialId: c.id, organizationId, message: mail.message, locale: mail.locale })))
    .onConflictDoNothing({ target: [credentialDeliveries.credentialId, credentialDeliveries.sequence] })
    .returning({ id: credentialDeliveries.id });
  return { queued: rows.map((r) => r.id), last: candidates[candidates.length - 1]!.id };
}

/**
 * Claims a delivery for sending (one statement, so two workers never both claim it): QUEUED, or SENDING
 * left behind by a worker that died more than `staleSeconds` ago. A SENT delivery is never claimed again.
 */
export async function claimDelivery(db: Database, id: string, staleSeconds: number) {
  const [row] = await db
    .update(credentialDeliveries)
    .set({ status: 'SENDING', sendingAt: new Date(), attempts: sql`${credentialDeliveries.attempts} + 1` })
    .where(
      and(
        eq(credentialDeliveries.id, id),
        or(
          eq(credentialDeliveries.status, 'QUEUED'),
          and(
            eq(credentialDeliveries.status, 'SENDING'),
            lt(credentialDeliveries.sendingAt, sql`now() - make_interval(secs => ${staleSeconds})`),
          ),
        ),
      ),
    )
    .returning();
  return row;
}

export async function markSent(db: Database, delivery: CredentialDeliveryRow) {
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(credentialDeliveries)
      .set({ status: 'SENT', sentAt: now, lastError: null })
      .where(and(eq(credentialDeliveries.id, delivery.id), ne(credentialDeliveries.status, 'SENT')));
    await tx.update(credentials).set({ emailedAt: now }).where(eq(credentials.id, delivery.credentialId));
  });
}

/** Back to QUEUED for the next retry, or FAILED for good. */
export async function releaseDelivery(db: Database, id: string, error: string, final: boolean) {
  await db
    .update(credentialDeliveries)
    .set({ status: final ? 'FAILED' : 'QUEUED', lastError: error.slice(0, 1000) })
    .where(and(eq(credentialDeliveries.id, id), eq(credentialDeliveries.status, 'SENDING')));
}

/** Deliveries still waiting (e.g. queued by a process that stopped before sending their jobs). */
export async function findQueuedDeliveries(db: Database, organizationId: string, schemaId: string) {
  const rows = await db
    .select({ id: credentialDeliveries.id })
    .from(credentialDeliveries)
    .innerJoin(credentials, eq(credentials.id, credentialDeliveries.credentialId))
    .where(
      and(
        eq(credentialDeliveries.organizationId, organizationId),
        eq(credentials.schemaId, schemaId),
        eq(credentialDeliveries.status, 'QUEUED'),
      ),
    );
  return rows.map((r) => r.id);
}

export async function findDelivery(db: Database, id: string) {
  const [row] = await db.select().from(credentialDeliveries).where(eq(credentialDeliveries.id, id));
  return row;
}
