import { type Database, schema } from '@cp/db';
import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, notExists, or, sql } from 'drizzle-orm';

const { credentialDeliveries, credentials } = schema;
export type CredentialDeliveryRow = typeof credentialDeliveries.$inferSelect;

/** The first e-mail of a credential; "resend" adds later sequences. */
export const FIRST_DELIVERY_SEQUENCE = 1;

/**
 * A credential that can still get its first e-mail: this organization's, of this schema, not deleted,
 * revoked or claimed, and never queued before (no first delivery).
 */
function sendable(db: Database, organizationId: string, schemaId: string) {
  return and(
    eq(credentials.organizationId, organizationId),
    eq(credentials.schemaId, schemaId),
    isNull(credentials.deletedAt),
    isNull(credentials.revokedAt),
    inArray(credentials.status, ['CREATED', 'ISSUED']),
    notExists(
      db
        .select({ one: sql`1` })
        .from(credentialDeliveries)
        .where(
          and(
            eq(credentialDeliveries.credentialId, credentials.id),
            eq(credentialDeliveries.sequence, FIRST_DELIVERY_SEQUENCE),
          ),
        ),
    ),
  );
}

/**
 * Queues the first delivery of each sendable credential among `credentialIds` (at most a page, ≤ 1,000), and
 * only of those: ids of another organization or schema match nothing. The unique (credential_id, sequence)
 * makes concurrent calls safe: a credential is queued once. Answers the new deliveries' ids.
 */
export async function queueFirstDeliveries(
  db: Database,
  organizationId: string,
  schemaId: string,
  credentialIds: string[],
  mail: { message: string | null; locale: string },
) {
  if (credentialIds.length === 0) return [] as string[];
  const candidates = await db
    .select({ id: credentials.id })
    .from(credentials)
    .where(and(inArray(credentials.id, credentialIds), sendable(db, organizationId, schemaId)));
  if (candidates.length === 0) return [] as string[];
  const rows = await db
    .insert(credentialDeliveries)
    .values(
      candidates.map((c) => ({
        credentialId: c.id,
        organizationId,
        message: mail.message,
        locale: mail.locale,
        sequence: FIRST_DELIVERY_SEQUENCE,
      })),
    )
    .onConflictDoNothing({ target: [credentialDeliveries.credentialId, credentialDeliveries.sequence] })
    .returning({ id: credentialDeliveries.id });
  return rows.map((r) => r.id);
}

/**
 * One page of an import's credentials in row order (keyset on the unique (import_id, import_row) index), so
 * a million-row import is never loaded at once. `last` is the next page's cursor, null after the last page.
 */
export async function findImportCredentialIds(
  db: Database,
  organizationId: string,
  importId: string,
  afterImportRow: number | null,
  limit: number,
) {
  const rows = await db
    .select({ id: credentials.id, row: credentials.importRow })
    .from(credentials)
    .where(
      and(
        eq(credentials.importId, importId),
        eq(credentials.organizationId, organizationId),
        afterImportRow === null ? undefined : gt(credentials.importRow, afterImportRow),
      ),
    )
    .orderBy(asc(credentials.importRow))
    .limit(limit);
  return { ids: rows.map((r) => r.id), last: rows.length === limit ? (rows[rows.length - 1]!.row ?? null) : null };
}

/**
 * First deliveries of the named credentials still QUEUED (e.g. queued by a process that stopped before
 * sending their jobs): their jobs are sent again (the claim makes a second job harmless).
 */
export async function findQueuedFirstDeliveries(db: Database, organizationId: string, credentialIds: string[]) {
  if (credentialIds.length === 0) return [];
  const rows = await db
    .select({ id: credentialDeliveries.id })
    .from(credentialDeliveries)
    .where(
      and(
        eq(credentialDeliveries.organizationId, organizationId),
        inArray(credentialDeliveries.credentialId, credentialIds),
        eq(credentialDeliveries.sequence, FIRST_DELIVERY_SEQUENCE),
        eq(credentialDeliveries.status, 'QUEUED'),
      ),
    );
  return rows.map((r) => r.id);
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

export async function findDelivery(db: Database, id: string) {
  const [row] = await db.select().from(credentialDeliveries).where(eq(credentialDeliveries.id, id));
  return row;
}

/**
 * Queues one more e-mail of a credential (a resend): sequence = the latest + 1, same message as the latest,
 * in `locale`. One statement decides and inserts, so the interval holds under concurrent requests: nothing is
 * inserted (undefined) while the latest delivery is younger than `intervalSeconds`, and of two requests racing
 * for the same sequence the unique (credential_id, sequence) lets one win.
 */
export async function insertResend(
  db: Database,
  organizationId: string,
  credentialId: string,
  locale: string,
  intervalSeconds: number,
): Promise<CredentialDeliveryRow | undefined> {
  const result = await db.execute(sql`
    insert into credential_deliveries (credential_id, organization_id, message, locale, sequence)
    select ${credentialId}::uuid, ${organizationId}::uuid, latest.message, ${locale}, coalesce(latest.sequence, 0) + 1
    from (select 1) as one
    left join lateral (
      select d.sequence, d.message, d.created_at from credential_deliveries d
      where d.credential_id = ${credentialId}::uuid order by d.sequence desc limit 1
    ) as latest on true
    where latest.created_at is null or latest.created_at <= now() - make_interval(secs => ${intervalSeconds})
    on conflict (credential_id, sequence) do nothing
    returning id`);
  const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: string }[];
  return row ? findDelivery(db, row.id) : undefined;
}

/** Whole seconds (at least 1) until the credential's latest delivery is `intervalSeconds` old. */
export async function secondsUntilResend(db: Database, credentialId: string, intervalSeconds: number) {
  const [row] = await db
    .select({
      seconds: sql<number>`ceil(extract(epoch from (max(${credentialDeliveries.createdAt})
        + make_interval(secs => ${intervalSeconds}) - now())))`.mapWith(Number),
    })
    .from(credentialDeliveries)
    .where(eq(credentialDeliveries.credentialId, credentialId));
  return Math.max(1, Math.min(intervalSeconds, row?.seconds || 1));
}

/** A credential's e-mails, the latest first (at most `limit`). */
export async function findDeliveriesOfCredential(
  db: Database,
  organizationId: string,
  credentialId: string,
  limit: number,
) {
  return db
    .select()
    .from(credentialDeliveries)
    .where(
      and(eq(credentialDeliveries.organizationId, organizationId), eq(credentialDeliveries.credentialId, credentialId)),
    )
    .orderBy(desc(credentialDeliveries.sequence))
    .limit(limit);
}
