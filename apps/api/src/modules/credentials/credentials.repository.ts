import type { CredentialSort } from '@cp/contracts';
import { type Database, schema } from '@cp/db';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';

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

export type ListedStatus = 'CREATED' | 'ISSUED' | 'CLAIMED' | 'REVOKED' | 'EXPIRED';

export interface CredentialFilters {
  status?: ListedStatus | undefined;
  schemaId?: string | undefined;
  search?: string | undefined;
  /** Created at or after this instant. */
  createdFrom?: Date | undefined;
  /** Created before this instant (the exclusive end of a range of days). */
  createdBefore?: Date | undefined;
  /** The credentials of one CSV import (the wizard lists the recipients it imported). */
  importId?: string | undefined;
}

/**
 * `sort=status` orders by the lifecycle, `-status` the other way round; within a status, newest first. Each
 * status is its own stretch of an index (credentials_org_status_idx, or credentials_org_issued_idx for ISSUED
 * and EXPIRED), so a page is read from one or two of them, never sorted.
 */
export const STATUS_SORT_ORDER = ['CREATED', 'ISSUED', 'EXPIRED', 'CLAIMED', 'REVOKED'] as const;

/** The statuses a sort walks through, in order: one stretch (the filter's, or all) unless it sorts by status. */
export function statusStretches(filters: CredentialFilters, sort: CredentialSort): (ListedStatus | undefined)[] {
  if (filters.status || (sort !== 'status' && sort !== '-status')) return [filters.status];
  return sort === 'status' ? [...STATUS_SORT_ORDER] : [...STATUS_SORT_ORDER].reverse();
}

const isStatusSort = (sort: CredentialSort) => sort === 'status' || sort === '-status';

const hasCreatedRange = (filters: CredentialFilters) => Boolean(filters.createdFrom || filters.createdBefore);

/** How many redundant counter rows (beyond one per key) a list request tolerates before compacting them. */
const REDUNDANT_COUNTER_ROWS_BEFORE_COMPACTION = 100;

/** The list's WHERE clause. `now` is the one instant a request uses for EXPIRED in its page and its total. */
function listConditions(organizationId: string, filters: CredentialFilters, now: Date): SQL[] {
  const conditions: SQL[] = [eq(credentials.organizationId, organizationId), isNull(credentials.deletedAt)];
  if (filters.schemaId) conditions.push(eq(credentials.schemaId, filters.schemaId));
  // A range on created_at: the second column of every list index, so each one bounds its scan by it.
  if (filters.createdFrom) conditions.push(gte(credentials.createdAt, filters.createdFrom));
  if (filters.createdBefore) conditions.push(lt(credentials.createdAt, filters.createdBefore));
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

/**
 * The ORDER BY of a sort within one stretch (a status sort's stretches are newest first). Each is an index read
 * forward or backward: created_at (credentials_org_idx and the status/schema ones), recipient
 * (credentials_org_recipient_idx), expires_at (credentials_org_expires_idx; PostgreSQL puts NULL last when
 * ascending and first when descending, as the index read backward does).
 */
function orderOf(sort: CredentialSort) {
  switch (sort) {
    case 'created_at':
      return [asc(credentials.createdAt), asc(credentials.id)];
    case 'recipient':
      return [asc(credentials.recipientLastName), asc(credentials.recipientFirstName), asc(credentials.id)];
    case '-recipient':
      return [desc(credentials.recipientLastName), desc(credentials.recipientFirstName), desc(credentials.id)];
    case 'expires_at':
      return [asc(credentials.offerExpiresAt), asc(credentials.id)];
    case '-expires_at':
      return [desc(credentials.offerExpiresAt), desc(credentials.id)];
    default:
      return [desc(credentials.createdAt), desc(credentials.id)];
  }
}

/**
 * One page of one stretch: the page's ids first, from the index alone (a deep offset walks index entries,
 * not rows), then only those rows.
 */
async function findPageOfStretch(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  sort: CredentialSort,
  page: { offset: number; limit: number },
  now: Date,
) {
  const order = orderOf(sort);
  const pageIds = db
    .select({ id: credentials.id })
    .from(credentials)
    .where(and(...listConditions(organizationId, filters, now)))
    .orderBy(...order)
    .offset(page.offset)
    .limit(page.limit)
    .as('page_ids');
  return db
    .select({ credential: credentials, offerExpiresAt: credentials.offerExpiresAt })
    .from(credentials)
    .innerJoin(pageIds, eq(credentials.id, pageIds.id))
    .where(eq(credentials.organizationId, organizationId))
    .orderBy(...order);
}

export async function findCredentials(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  page: { offset: number; limit: number },
  sort: CredentialSort = '-created_at',
) {
  const now = new Date();
  if (filters.search) return findCredentialsBySearch(db, organizationId, filters, sort, page, now);
  // An import's credentials: in the file's row order, whatever the sort.
  if (filters.importId) {
    return findImportCredentials(db, organizationId, and(...listConditions(organizationId, filters, now)), page);
  }
  const stretches = statusStretches(filters, sort);
  if (stretches.length === 1) {
    const rows = await findPageOfStretch(
      db,
      organizationId,
      filters,
      isStatusSort(sort) ? '-created_at' : sort,
      page,
      now,
    );
    return { rows, total: await countInRange(db, organizationId, filters, now) };
  }
  // Sorted by status: each status's exact count says which one or two stretches the page falls in.
  const counts = await countByStatusInRange(db, organizationId, filters, now);
  const rows: Awaited<ReturnType<typeof findPageOfStretch>> = [];
  let skip = page.offset;
  for (const status of stretches as ListedStatus[]) {
    const remaining = page.limit - rows.length;
    if (remaining <= 0) break;
    const size = counts[status];
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const part = await findPageOfStretch(
      db,
      organizationId,
      { ...filters, status },
      '-created_at',
      { offset: skip, limit: Math.min(remaining, size - skip) },
      now,
    );
    rows.push(...part);
    skip = 0;
  }
  return { rows, total: STATUS_SORT_ORDER.reduce((sum, status) => sum + counts[status], 0) };
}

/** The rank of a credential's shown status in `sort=status` (EXPIRED: ISSUED whose latest offer has expired). */
const statusRank = (now: Date) => sql`case
    when ${credentials.status} = 'CREATED' then 0
    when ${credentials.status} = 'ISSUED' and ${credentials.offerExpiresAt} <= ${now.toISOString()}::timestamptz then 2
    when ${credentials.status} = 'ISSUED' then 1
    when ${credentials.status} = 'CLAIMED' then 3
    else 4 end`;

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
  filters: CredentialFilters,
  sort: CredentialSort,
  page: { offset: number; limit: number },
  now: Date,
) {
  const where = and(...listConditions(organizationId, filters, now));
  const orders: Record<CredentialSort, SQL> = {
    '-created_at': sql`created_at desc, id desc`,
    created_at: sql`created_at asc, id asc`,
    status: sql`rank asc, created_at desc, id desc`,
    '-status': sql`rank desc, created_at desc, id desc`,
    recipient: sql`last_name asc, first_name asc, id asc`,
    '-recipient': sql`last_name desc, first_name desc, id desc`,
    expires_at: sql`expires_at asc, id asc`,
    '-expires_at': sql`expires_at desc, id desc`,
  };
  const order = orders[sort];
  const result = await db.execute(sql`
    with matches as materialized (
      select ${credentials.id} as id, ${credentials.createdAt} as created_at, ${statusRank(now)} as rank,
        ${credentials.recipientLastName} as last_name, ${credentials.recipientFirstName} as first_name,
        ${credentials.offerExpiresAt} as expires_at
      from ${credentials} where ${where}
    )
    select (select count(*) from matches)::int as total,
      coalesce((select json_agg(p.id) from (select id from matches order by ${order}
        limit ${page.limit} offset ${page.offset}) p), '[]'::json) as ids`);
  const [summary] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    total: number | string;
    ids: string[] | string;
  }[];
  const ids = typeof summary?.ids === 'string' ? (JSON.parse(summary.ids) as string[]) : (summary?.ids ?? []);
  const found =
    ids.length === 0
      ? []
      : await db
          .select({ credential: credentials, offerExpiresAt: credentials.offerExpiresAt })
          .from(credentials)
          .where(and(eq(credentials.organizationId, organizationId), inArray(credentials.id, ids)));
  const position = new Map(ids.map((id, index) => [id, index]));
  const rows = found.sort((a, b) => position.get(a.credential.id)! - position.get(b.credential.id)!);
  return { rows, total: Number(summary?.total ?? 0) };
}

/**
 * The rows on either side of a range of days, as filters: before its start, and from its end on. The rows
 * in the range are all minus these (each side one index range, like the range itself).
 */
function outsideCreatedRange(filters: CredentialFilters): CredentialFilters[] {
  const { createdFrom, createdBefore, ...rest } = filters;
  return [
    ...(createdFrom ? [{ ...rest, createdBefore: createdFrom }] : []),
    ...(createdBefore ? [{ ...rest, createdFrom: createdBefore }] : []),
  ];
}

/**
 * Whether most of the organization's credentials fall inside the range of days, judged by time alone
 * (the range against the span from the oldest credential to the newest, two index lookups): then counting
 * the rows outside it is the cheaper way to the same exact number.
 */
async function isMostlyInsideRange(db: Database, organizationId: string, filters: CredentialFilters) {
  const [span] = await db
    .select({
      oldest: sql<string | null>`min(${credentials.createdAt})`,
      newest: sql<string | null>`max(${credentials.createdAt})`,
    })
    .from(credentials)
    .where(and(eq(credentials.organizationId, organizationId), isNull(credentials.deletedAt)));
  if (!span?.oldest || !span.newest) return false;
  const oldest = new Date(span.oldest).getTime();
  const newest = new Date(span.newest).getTime();
  const start = Math.max(oldest, filters.createdFrom?.getTime() ?? oldest);
  const end = Math.min(newest, filters.createdBefore?.getTime() ?? newest);
  return newest > oldest && (end - start) / (newest - oldest) > 0.5;
}

/**
 * The exact total of the list's filters. Without a range of days, from the counters. Counters know statuses
 * and schemas, not days: a range is counted on its index range (index-only), or, when it holds most of the
 * organization's credentials, as the counters' total minus the index ranges outside it. Either way the cost
 * grows with the smaller side, not with the organization.
 */
async function countInRange(db: Database, organizationId: string, filters: CredentialFilters, now: Date) {
  if (!hasCreatedRange(filters)) return countCredentials(db, organizationId, filters, now);
  if (!(await isMostlyInsideRange(db, organizationId, filters))) {
    return countMatching(db, organizationId, filters, now);
  }
  const { createdFrom: _from, createdBefore: _before, ...unbounded } = filters;
  let total = await countCredentials(db, organizationId, unbounded, now);
  for (const outside of outsideCreatedRange(filters)) total -= await countMatching(db, organizationId, outside, now);
  return total;
}

/** countInRange for every status at once (the status sort). */
async function countByStatusInRange(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  now: Date,
): Promise<Record<ListedStatus, number>> {
  if (!hasCreatedRange(filters)) return countCredentialsByStatus(db, organizationId, filters, now);
  if (!(await isMostlyInsideRange(db, organizationId, filters))) {
    return countMatchingByStatus(db, organizationId, filters, now);
  }
  const { createdFrom: _from, createdBefore: _before, ...unbounded } = filters;
  const counts = await countCredentialsByStatus(db, organizationId, unbounded, now);
  for (const outside of outsideCreatedRange(filters)) {
    const excluded = await countMatchingByStatus(db, organizationId, outside, now);
    for (const status of STATUS_SORT_ORDER) counts[status] -= excluded[status];
  }
  return counts;
}

/** The exact number of credentials matching the filters, counted on the rows (the index range of a day range). */
async function countMatching(db: Database, organizationId: string, filters: CredentialFilters, now: Date) {
  const [row] = await db
    .select({ value: count() })
    .from(credentials)
    .where(and(...listConditions(organizationId, filters, now)));
  return row?.value ?? 0;
}

/** countMatching per status, in one statement: each status counted on its own index. */
async function countMatchingByStatus(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  now: Date,
): Promise<Record<ListedStatus, number>> {
  const counted = (status: ListedStatus) =>
    sql`(${db
      .select({ value: count() })
      .from(credentials)
      .where(and(...listConditions(organizationId, { ...filters, status }, now)))})`;
  const result = await db.execute(sql`select ${counted('CREATED')} as created, ${counted('ISSUED')} as issued,
    ${counted('EXPIRED')} as expired, ${counted('CLAIMED')} as claimed, ${counted('REVOKED')} as revoked`);
  const [counts] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<
    string,
    number | string
  >[];
  const row = counts && {
    CREATED: Number(counts.created),
    ISSUED: Number(counts.issued),
    EXPIRED: Number(counts.expired),
    CLAIMED: Number(counts.claimed),
    REVOKED: Number(counts.revoked),
  };
  return row ?? { CREATED: 0, ISSUED: 0, EXPIRED: 0, CLAIMED: 0, REVOKED: 0 };
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
 * countCredentials for every status at once (the status sort): one pass over the organization's counters,
 * with the same EXPIRED split (past hours from the counters, the current hour from the index).
 */
async function countCredentialsByStatus(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  now: Date,
): Promise<Record<ListedStatus, number>> {
  const counterConditions: SQL[] = [eq(credentialCounts.organizationId, organizationId)];
  if (filters.schemaId) counterConditions.push(eq(credentialCounts.schemaId, filters.schemaId));
  const nowHour = sql`credential_expiry_hour(${now.toISOString()}::timestamptz)`;
  const thisHourConditions: SQL[] = [
    eq(credentials.organizationId, organizationId),
    isNull(credentials.deletedAt),
    eq(credentials.status, 'ISSUED'),
    sql`${credentials.offerExpiresAt} >= ${nowHour}`,
    lte(credentials.offerExpiresAt, now),
  ];
  if (filters.schemaId) thisHourConditions.push(eq(credentials.schemaId, filters.schemaId));
  const sumOf = (condition: SQL) =>
    sql<number>`coalesce(sum(${credentialCounts.delta}) filter (where ${condition}), 0)`.mapWith(Number);
  const [row] = await db
    .select({
      CREATED: sumOf(sql`${credentialCounts.status} = 'CREATED'`),
      ISSUED: sumOf(sql`${credentialCounts.status} = 'ISSUED'`),
      expiredPastHours: sumOf(
        sql`${credentialCounts.status} = 'ISSUED' and ${credentialCounts.expiryHour} < ${nowHour}`,
      ),
      expiredThisHour: sql<number>`(${db
        .select({ value: count() })
        .from(credentials)
        .where(and(...thisHourConditions))})`.mapWith(Number),
      CLAIMED: sumOf(sql`${credentialCounts.status} = 'CLAIMED'`),
      REVOKED: sumOf(sql`${credentialCounts.status} = 'REVOKED'`),
      rows: count(),
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
  const expired = (row?.expiredPastHours ?? 0) + (row?.expiredThisHour ?? 0);
  return {
    CREATED: row?.CREATED ?? 0,
    ISSUED: (row?.ISSUED ?? 0) - expired,
    EXPIRED: expired,
    CLAIMED: row?.CLAIMED ?? 0,
    REVOKED: row?.REVOKED ?? 0,
  };
}

/** The columns of the CSV export, and the exact created_at (text: microseconds) that the next batch starts after. */
const exportColumns = {
  id: credentials.id,
  name: credentials.name,
  schemaName: sql<string | null>`${credentials.schemaSnapshot}->>'name'`,
  recipientFirstName: credentials.recipientFirstName,
  recipientLastName: credentials.recipientLastName,
  recipientEmail: credentials.recipientEmail,
  status: credentials.status,
  createdAt: credentials.createdAt,
  issuedAt: credentials.issuedAt,
  claimedAt: credentials.claimedAt,
  revokedAt: credentials.revokedAt,
  offerExpiresAt: credentials.offerExpiresAt,
  cursor: sql<string>`${credentials.createdAt}::text`,
  expiresCursor: sql<string | null>`${credentials.offerExpiresAt}::text`,
};
export interface CredentialExportRow {
  id: string;
  name: string;
  schemaName: string | null;
  recipientFirstName: string;
  recipientLastName: string;
  recipientEmail: string;
  status: string;
  createdAt: Date;
  issuedAt: Date | null;
  claimedAt: Date | null;
  revokedAt: Date | null;
  offerExpiresAt: Date | null;
  cursor: string;
  expiresCursor: string | null;
}

/**
 * Where the previous batch of an export ended: its last row's id and sort keys (timestamps as text, keeping
 * their microseconds).
 */
export interface ExportCursor {
  id: string;
  createdAt: string;
  lastName: string;
  firstName: string;
  expiresAt: string | null;
}

/** The rows after `after` in the order of `sort` (a row comparison that bounds the index scan). */
function afterCursor(sort: CredentialSort, after: ExportCursor): SQL {
  const id = sql`${after.id}::uuid`;
  switch (sort) {
    case 'created_at':
      return sql`(${credentials.createdAt}, ${credentials.id}) > (${after.createdAt}::timestamptz, ${id})`;
    case 'recipient':
      return sql`(${credentials.recipientLastName}, ${credentials.recipientFirstName}, ${credentials.id}) > (${after.lastName}, ${after.firstName}, ${id})`;
    case '-recipient':
      return sql`(${credentials.recipientLastName}, ${credentials.recipientFirstName}, ${credentials.id}) < (${after.lastName}, ${after.firstName}, ${id})`;
    case 'expires_at':
      // Ascending: NULL (no offer) last.
      return after.expiresAt === null
        ? sql`(${credentials.offerExpiresAt} is null and ${credentials.id} > ${id})`
        : sql`((${credentials.offerExpiresAt}, ${credentials.id}) > (${after.expiresAt}::timestamptz, ${id}) or ${credentials.offerExpiresAt} is null)`;
    case '-expires_at':
      // Descending: NULL first.
      return after.expiresAt === null
        ? sql`((${credentials.offerExpiresAt} is null and ${credentials.id} < ${id}) or ${credentials.offerExpiresAt} is not null)`
        : sql`(${credentials.offerExpiresAt}, ${credentials.id}) < (${after.expiresAt}::timestamptz, ${id})`;
    default:
      return sql`(${credentials.createdAt}, ${credentials.id}) < (${after.createdAt}::timestamptz, ${id})`;
  }
}

/** The cursor after an export row. */
export const exportCursorOf = (row: CredentialExportRow): ExportCursor => ({
  id: row.id,
  createdAt: row.cursor,
  lastName: row.recipientLastName,
  firstName: row.recipientFirstName,
  expiresAt: row.expiresCursor,
});

/**
 * One batch of the export of one stretch (keyset pagination, the "seek method"): the rows
 * after `after` in the list's order, read from the same index as the list's pages, never by offset.
 */
export async function findCredentialExportBatch(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  sort: CredentialSort,
  after: ExportCursor | null,
  limit: number,
  now: Date,
): Promise<CredentialExportRow[]> {
  // Within a stretch of a status sort: newest first.
  const within = isStatusSort(sort) ? '-created_at' : sort;
  const conditions = listConditions(organizationId, filters, now);
  if (after) conditions.push(afterCursor(within, after));
  return db
    .select(exportColumns)
    .from(credentials)
    .where(and(...conditions))
    .orderBy(...orderOf(within))
    .limit(limit);
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

/** What the activity log names of credentials (deleted ones included: the log is written as they go). */
export async function findCredentialsForLog(db: Database, organizationId: string, ids: string[]) {
  return db
    .select({
      id: credentials.id,
      name: credentials.name,
      recipientFirstName: credentials.recipientFirstName,
      recipientLastName: credentials.recipientLastName,
    })
    .from(credentials)
    .where(and(eq(credentials.organizationId, organizationId), inArray(credentials.id, ids)));
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

/** The offer a wallet can still redeem: not withdrawn, not exchanged, not completed, not expired. */
export async function findRedeemableOffer(db: Database, credentialId: string) {
  const [row] = await db
    .select()
    .from(credentialOffers)
    .where(
      and(
        eq(credentialOffers.credentialId, credentialId),
        isNull(credentialOffers.revokedAt),
        isNull(credentialOffers.redeemedAt),
        isNull(credentialOffers.completedAt),
        gt(credentialOffers.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row;
}

export async function findLatestOffer(db: Database, credentialId: string) {
  const [row] = await db
    .select()
    .from(credentialOffers)
    .where(eq(credentialOffers.credentialId, credentialId))
    .orderBy(desc(credentialOffers.createdAt))
    .limit(1);
  return row;
}

/** Withdraws the credential's offers not yet completed: their codes and access tokens are refused from now on. */
export async function withdrawOffers(db: Database, credentialId: string) {
  await db
    .update(credentialOffers)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(credentialOffers.credentialId, credentialId),
        isNull(credentialOffers.revokedAt),
        isNull(credentialOffers.completedAt),
      ),
    );
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
