import { type Database, schema } from '@cp/db';
import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';

const { credentials, credentialCounts, credentialOffers, statusLists } = schema;
export type CredentialRow = typeof credentials.$inferSelect;
export type CredentialOfferRow = typeof credentialOffers.$inferSelect;

/**
 * Reserves the next status-list index of the organization (one atomic statement: concurrent issuers
 * never share an index). Answers null when the list is full.
 */
export async function allocateStatusIndex(db: Database, organizationId: string, size: number): Promise<number | null> {
  const [row] = await db
    .insert(statusLists)
    .values({ organizationId, size, nextIndex: 1 })
    .onConflictDoUpdate({
      target: statusLists.organizationId,
      set: { nextIndex: sql`${statusLists.nextIndex} + 1`, updatedAt: new Date() },
      setWhere: sql`${statusLists.nextIndex} < ${statusLists.size}`,
    })
    .returning({ nextIndex: statusLists.nextIndex });
  return row ? row.nextIndex - 1 : null;
}

export async function findStatusListSize(db: Database, organizationId: string) {
  const [row] = await db.select().from(statusLists).where(eq(statusLists.organizationId, organizationId));
  return row;
}

/** Indexes whose bit is 1: revoked credentials (deleted ones were revoked first). */
export async function findRevokedIndexes(db: Database, organizationId: string): Promise<number[]> {
  const rows = await db
    .select({ index: credentials.statusIndex })
    .from(credentials)
    .where(and(eq(credentials.organizationId, organizationId), isNotNull(credentials.revokedAt)));
  return rows.map((r) => r.index);
}

/**
 * Marks the organization's status list changed: called in the transaction that revokes, so a signed list
 * cached for an older revision is never served after the revocation commits.
 */
export async function bumpStatusListRevision(db: Database, organizationId: string) {
  await db
    .update(statusLists)
    .set({ revision: sql`${statusLists.revision} + 1` })
    .where(eq(statusLists.organizationId, organizationId));
}

export async function insertCredential(db: Database, values: typeof credentials.$inferInsert) {
  const [row] = await db.insert(credentials).values(values).returning();
  return row!;
}

export async function findCredential(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(credentials)
    .where(and(eq(credentials.organizationId, organizationId), eq(credentials.id, id), isNull(credentials.deletedAt)));
  return row;
}

/** Public lookup by id (the holder page): the id is an unguessable link. */
export async function findCredentialById(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(credentials)
    .where(and(eq(credentials.id, id), isNull(credentials.deletedAt)));
  return row;
}

export interface CredentialFilters {
  status?: 'CREATED' | 'ISSUED' | 'CLAIMED' | 'REVOKED' | 'EXPIRED' | undefined;
  schemaId?: string | undefined;
  search?: string | undefined;
  /** The credentials of one CSV import (the wizard lists the recipients it imported). */
  importId?: string | undefined;
}

/** How many redundant counter rows (beyond one per key) a list request tolerates before compacting them. */
const REDUNDANT_COUNTER_ROWS_BEFORE_COMPACTION = 100;

/** The list's WHERE clause. `now` is the one instant a request uses for EXPIRED in its page and its total. */
function listConditions(organizationId: string, filters: CredentialFilters, now: Date): SQL[] {
  const conditions: SQL[] = [eq(credentials.organizationId, organizationId), isNull(credentials.deletedAt)];
  if (filters.schemaId) conditions.push(eq(credentials.schemaId, filters.schemaId));
  if (filters.importId) conditions.push(eq(credentials.importId, filters.importId));
  if (filters.search) {
    const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      // search_text (trigram-indexed) joins the lower-cased fields with U+001F, so it matches exactly when
      // one field does, unless the term itself holds that character: then the fields one by one (no index).
      filters.search.includes('\u001f')
        ? (or(
            ilike(credentials.recipientEmail, pattern),
            ilike(credentials.recipientFirstName, pattern),
            ilike(credentials.recipientLastName, pattern),
            ilike(sql`${credentials.recipientFirstName} || ' ' || ${credentials.recipientLastName}`, pattern),
            ilike(credentials.name, pattern),
          ) as SQL)
        : sql`${credentials.searchText} like lower(${pattern})`,
    );
  }
  if (filters.status === 'EXPIRED') {
    conditions.push(eq(credentials.status, 'ISSUED'), lte(credentials.offerExpiresAt, now));
  } else if (filters.status === 'ISSUED') {
    conditions.push(
      eq(credentials.status, 'ISSUED'),
      or(isNull(credentials.offerExpiresAt), gt(credentials.offerExpiresAt, now)) as SQL,
    );
  } else if (filters.status) {
    conditions.push(eq(credentials.status, filters.status));
  }
  return conditions;
}

export async function findCredentials(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  page: { offset: number; limit: number },
) {
  const now = new Date();
  const where = and(...listConditions(organizationId, filters, now));
  if (filters.search) return findCredentialsBySearch(db, organizationId, where, page);
  if (filters.importId) return findImportCredentials(db, organizationId, where, page);
  // The page's ids first, from the index alone (a deep offset walks index entries, not rows), then
  // only those rows.
  const pageIds = db
    .select({ id: credentials.id })
    .from(credentials)
    .where(where)
    .orderBy(desc(credentials.createdAt), desc(credentials.id))
    .offset(page.offset)
    .limit(page.limit)
    .as('page_ids');
  const rows = await db
    .select({ credential: credentials, offerExpiresAt: credentials.offerExpiresAt })
    .from(credentials)
    .innerJoin(pageIds, eq(credentials.id, pageIds.id))
    .where(eq(credentials.organizationId, organizationId))
    .orderBy(desc(credentials.createdAt), desc(credentials.id));
  return { rows, total: await countCredentials(db, organizationId, filters, now) };
}

/**
 * An import's credentials in the file's row order (the unique (import_id, import_row) index); the counters
 * know nothing of imports, so its total is counted on its rows.
 */
async function findImportCredentials(
  db: Database,
  organizationId: string,
  where: SQL | undefined,
  page: { offset: number; limit: number },
) {
  const [rows, [total]] = await Promise.all([
    db
      .select({ credential: credentials, offerExpiresAt: credentials.offerExpiresAt })
      .from(credentials)
      .where(and(eq(credentials.organizationId, organizationId), where))
      .orderBy(asc(credentials.importRow))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ value: count() }).from(credentials).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/**
 * With a search term the total has to be counted on the matches: one trigram index scan finds them all,
 * and the same statement answers their number and the page's ids (the two would otherwise scan twice).
 */
async function findCredentialsBySearch(
  db: Database,
  organizationId: string,
  where: SQL | undefined,
  page: { offset: number; limit: number },
) {
  const result = await db.execute(sql`
    with matches as materialized (
      select ${credentials.id} as id, ${credentials.createdAt} as created_at from ${credentials} where ${where}
    )
    select (select count(*) from matches)::int as total,
      coalesce((select json_agg(p.id) from (select id from matches order by created_at desc, id desc
        limit ${page.limit} offset ${page.offset}) p), '[]'::json) as ids`);
  const [summary] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    total: number | string;
    ids: string[] | string;
  }[];
  const ids = typeof summary?.ids === 'string' ? (JSON.parse(summary.ids) as string[]) : (summary?.ids ?? []);
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ credential: credentials, offerExpiresAt: credentials.offerExpiresAt })
          .from(credentials)
          .where(and(eq(credentials.organizationId, organizationId), inArray(credentials.id, ids)))
          .orderBy(desc(credentials.createdAt), desc(credentials.id));
  return { rows, total: Number(summary?.total ?? 0) };
}

/**
 * The exact number of credentials the list's filters (no search term) match, summed from the
 * organization's counters (credential_counts, kept by triggers), plus, for ISSUED/EXPIRED, an index count
 * of the credentials whose offer expires earlier in the current hour.
 */
async function countCredentials(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  now: Date,
): Promise<number> {
  const counterConditions: SQL[] = [eq(credentialCounts.organizationId, organizationId)];
  if (filters.schemaId) counterConditions.push(eq(credentialCounts.schemaId, filters.schemaId));
  const nowHour = sql`credential_expiry_hour(${now.toISOString()}::timestamptz)`;
  const status = filters.status;
  let summed = sql<number>`coalesce(sum(${credentialCounts.delta}), 0)`;
  if (status === 'EXPIRED' || status === 'ISSUED') {
    counterConditions.push(eq(credentialCounts.status, 'ISSUED'));
    // ISSUED credentials whose offer expires in an hour already past are all EXPIRED.
    const pastHours = sql<number>`coalesce(sum(${credentialCounts.delta}) filter (where ${credentialCounts.expiryHour} < ${nowHour}), 0)`;
    const thisHourConditions: SQL[] = [
      eq(credentials.organizationId, organizationId),
      isNull(credentials.deletedAt),
      eq(credentials.status, 'ISSUED'),
      sql`${credentials.offerExpiresAt} >= ${nowHour}`,
      lte(credentials.offerExpiresAt, now),
    ];
    if (filters.schemaId) thisHourConditions.push(eq(credentials.schemaId, filters.schemaId));
    const thisHour = sql<number>`(${db
      .select({ value: count() })
      .from(credentials)
      .where(and(...thisHourConditions))})`;
    const expired = sql`(${pastHours} + ${thisHour})`;
    summed = status === 'EXPIRED' ? sql<number>`${expired}` : sql<number>`${summed} - ${expired}`;
  } else if (status) {
    counterConditions.push(eq(credentialCounts.status, status));
  }
  const [row] = await db
    .select({
      value: sql<string>`${summed}`,
      rows: count(),
      // What compaction would leave: one row per schema, status and future hour (past hours fold into one).
      keys: sql<number>`count(distinct row(${credentialCounts.schemaId}, ${credentialCounts.status},
        case when ${credentialCounts.expiryHour} < ${nowHour} then '-infinity'::timestamptz else ${credentialCounts.expiryHour} end))`.mapWith(
        Number,
      ),
    })
    .from(credentialCounts)
    .where(and(...counterConditions));
  if (row && row.rows - row.keys > REDUNDANT_COUNTER_ROWS_BEFORE_COMPACTION) {
    await compactCredentialCounts(db, organizationId);
  }
  return Number(row?.value ?? 0);
}

/**
 * Folds an organization's counter deltas into one row per key, in one statement: concurrent writers keep
 * inserting (their rows are not in this statement's snapshot), a concurrent compaction skips the rows this
 * one deleted, and readers see either all the deltas or their sums. Hours already past fold into one
 * ('-infinity'): they all count as EXPIRED from now on.
 */
export async function compactCredentialCounts(db: Database, organizationId: string) {
  await db.execute(sql`
    with moved as (
      delete from credential_counts where organization_id = ${organizationId}
      returning organization_id, schema_id, status, expiry_hour, delta
    )
    insert into credential_counts (organization_id, schema_id, status, expiry_hour, delta)
    select organization_id, schema_id, status,
      case when expiry_hour < credential_expiry_hour(now()) then '-infinity'::timestamptz else expiry_hour end,
      sum(delta)
    from moved
    group by 1, 2, 3, 4
    having sum(delta) <> 0`);
}

export async function findLatestOfferExpiry(db: Database, credentialId: string): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: credentialOffers.expiresAt })
    .from(credentialOffers)
    .where(eq(credentialOffers.credentialId, credentialId))
    .orderBy(desc(credentialOffers.expiresAt))
    .limit(1);
  return row?.expiresAt ?? null;
}

/** Marks the organization's listed credentials revoked (the status bit flips) and ends their offers. */
export async function revokeCredentials(db: Database, organizationId: string, ids: string[]) {
  const now = new Date();
  const rows = await db
    .update(credentials)
    .set({ status: 'REVOKED', revokedAt: now })
    .where(
      and(
        eq(credentials.organizationId, organizationId),
        inArray(credentials.id, ids),
        isNull(credentials.deletedAt),
        isNull(credentials.revokedAt),
      ),
    )
    .returning({ id: credentials.id });
  if (rows.length > 0) {
    await db
      .update(credentialOffers)
      .set({ revokedAt: now })
      .where(
        and(
          inArray(
            credentialOffers.credentialId,
            rows.map((r) => r.id),
          ),
          isNull(credentialOffers.revokedAt),
        ),
      );
  }
  return rows.map((r) => r.id);
}

export async function softDeleteCredentials(db: Database, organizationId: string, ids: string[]) {
  const rows = await db
    .update(credentials)
    .set({ deletedAt: new Date() })
    .where(
      and(eq(credentials.organizationId, organizationId), inArray(credentials.id, ids), isNull(credentials.deletedAt)),
    )
    .returning({ id: credentials.id });
  return rows.map((r) => r.id);
}

export async function countExisting(db: Database, organizationId: string, ids: string[]) {
  const [row] = await db
    .select({ value: count() })
    .from(credentials)
    .where(
      and(eq(credentials.organizationId, organizationId), inArray(credentials.id, ids), isNull(credentials.deletedAt)),
    );
  return row?.value ?? 0;
}

// ---- offers -------------------------------------------------------------------------------------------

export async function insertOffer(db: Database, values: typeof credentialOffers.$inferInsert) {
  const [row] = await db.insert(credentialOffers).values(values).returning();
  return row!;
}

/** The offer that can still be redeemed: not revoked, not completed, not expired. */
export async function findOpenOffer(db: Database, credentialId: string) {
  const [row] = await db
    .select()
    .from(credentialOffers)
    .where(
      and(
        eq(credentialOffers.credentialId, credentialId),
        isNull(credentialOffers.revokedAt),
        isNull(credentialOffers.completedAt),
        gt(credentialOffers.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(credentialOffers.createdAt))
    .limit(1);
  return row;
}

export async function findOfferById(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(credentialOffers)
    .where(and(eq(credentialOffers.organizationId, organizationId), eq(credentialOffers.id, id)));
  return row;
}

/** CREATED → ISSUED; answers the updated row, or undefined when the credential was not CREATED. */
export async function markIssued(db: Database, id: string): Promise<CredentialRow | undefined> {
  const [row] = await db
    .update(credentials)
    .set({ status: 'ISSUED', issuedAt: new Date() })
    .where(and(eq(credentials.id, id), eq(credentials.status, 'CREATED')))
    .returning();
  return row;
}

/**
 * Reserves `n` consecutive status-list indexes of the organization in one atomic statement (batch
 * inserts of a CSV import). Answers the first index, or null when the list has no room for `n` more.
 */
export async function allocateStatusIndexes(
  db: Database,
  organizationId: string,
  size: number,
  n: number,
): Promise<number | null> {
  if (n <= 0) return null;
  if (n > size) return null;
  const [row] = await db
    .insert(statusLists)
    .values({ organizationId, size, nextIndex: n })
    .onConflictDoUpdate({
      target: statusLists.organizationId,
      set: { nextIndex: sql`${statusLists.nextIndex} + ${n}`, updatedAt: new Date() },
      setWhere: sql`${statusLists.nextIndex} + ${n} <= ${statusLists.size}`,
    })
    .returning({ nextIndex: statusLists.nextIndex });
  return row ? row.nextIndex - n : null;
}
