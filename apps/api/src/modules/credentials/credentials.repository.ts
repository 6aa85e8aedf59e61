import type { CredentialSort } from '@cp/contracts';
import { type Database, runStatement, runStatementAnywhere, schema, selectList, statement, unprefixed } from '@cp/db';
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
import { auditEventInsertSql, auditEventValues, type NewAuditEvent } from '../audit-events/audit-events.repository.ts';
import { schemaVisibleSql } from '../credential-schemas/credential-schemas.repository.ts';
import { HOLDER_BRAND_COLUMNS, holderBrandJoin, holderBrandOf } from '../organizations/organizations.repository.ts';
import { statusListShuffleRange } from './status-list-shuffle.ts';

const { credentials, credentialCounts, credentialOffers, credentialStatusEntries, statusLists } = schema;
export type CredentialRow = typeof credentials.$inferSelect;
export type CredentialOfferRow = typeof credentialOffers.$inferSelect;

/** Where a credential's status bit lives: one index of one of its organization's status lists. */
export interface StatusSlot {
  statusListId: string;
  statusIndex: number;
}

/**
 * How many lists of an organization may be open (with room) at once. One list while issuance is calm (the
 * bigger the list, the bigger the herd a status check hides in); more only when every open list is locked by
 * a concurrent allocation at that moment, so concurrent issuers spread over several rows instead of queueing
 * on one.
 */
export const STATUS_LISTS_OPEN_MAX = 4;

/**
 * Reserves one status-list slot of the organization (see allocateStatusIndexes).
 */
export async function allocateStatusIndex(db: Database, organizationId: string, size: number): Promise<StatusSlot> {
  const [slot] = await allocateStatusIndexes(db, organizationId, size, 1);
  return slot!;
}

/**
 * Reserves `n` status-list slots of the organization, never one given before (concurrent callers included),
 * opening new lists of `size` bits as lists fill: there is no ceiling. Answers them in no particular order;
 * a CSV import's batch gives row i slot i.
 *
 * Why this shape (issue 16): each list keeps a counter of positions handed out, and a position becomes an
 * index through the list's keyed shuffle (status-list-shuffle.ts), so indexes are random within the list and
 * unique by construction. The alternatives weighed: a random index tried against the unique constraint and
 * retried needs a retry loop in every insert (a CSV batch is one INSERT … SELECT), collides more and more as a
 * list fills, and still needs a count to know when a list is full; pre-shuffled blocks of free indexes stored
 * as rows cost a row per index (10 million credentials: 10 million more rows). The counter row is the only
 * write, and it is not one hot row: a claim takes the first open list it can lock (FOR UPDATE SKIP LOCKED,
 * lowest number first, so calm issuance fills one list at a time and its herd grows), a concurrent claim
 * (or an import holding its list for its batch's transaction) moves on to the next open list, and when every
 * open list is busy a new one is opened (up to STATUS_LISTS_OPEN_MAX; past that, the
 * claim waits for one). A bulk claim takes as many positions as the list has left and continues in another.
 */
export async function allocateStatusIndexes(
  db: Database,
  organizationId: string,
  size: number,
  n: number,
): Promise<StatusSlot[]> {
  const slots: StatusSlot[] = [];
  while (slots.length < n) {
    const wanted = n - slots.length;
    const claimed =
      (await claimPositions(db, organizationId, wanted, 'skip locked')) ??
      ((await countOpenStatusLists(db, organizationId)) < STATUS_LISTS_OPEN_MAX
        ? undefined
        : await claimPositions(db, organizationId, wanted, 'wait'));
    if (!claimed) {
      await openStatusList(db, organizationId, size);
      continue;
    }
    const shuffled = statusListShuffleRange(
      claimed.seed,
      claimed.size - claimed.randomFrom,
      claimed.from - claimed.randomFrom,
      claimed.to - claimed.randomFrom,
    );
    for (const index of shuffled) slots.push({ statusListId: claimed.id, statusIndex: claimed.randomFrom + index });
  }
  return slots;
}

interface ClaimedPositions {
  id: string;
  size: number;
  seed: string;
  randomFrom: number;
  from: number;
  to: number;
}

/** claimPositions' statement in either mode ($1 the organization, $2 how many positions). */
const claimPositionsText = (order: string, lock: string) => `
  with picked as (
    select id, next_index from status_lists
     where organization_id = $1 and next_index < size
     order by ${order} limit 1 ${lock}
  )
  update status_lists s
     set next_index = least(s.size, picked.next_index + $2::int), updated_at = now()
    from picked where s.id = picked.id
  returning s.id, s.size, s.seed, s.random_from as "randomFrom", picked.next_index as "from", s.next_index as "to"`;
const claimPositionsStatements = {
  'skip locked': statement<ClaimedPositions>(
    'status_list_claim_positions',
    claimPositionsText('number', 'for update skip locked'),
  ),
  wait: statement<ClaimedPositions>('status_list_claim_positions_wait', claimPositionsText('random()', 'for update')),
};

/**
 * Advances the counter of one open list of the organization by up to `n` positions in one statement; answers
 * the positions [from, to) taken, or undefined when no open list could be had (`skip locked`: the first one
 * not locked right now, none free; `wait`: a random one, so waiters spread over the busy lists; none with room).
 * Prepared on PostgreSQL's handle (a credential issued alone: PostgreSQL planned the statement built per call
 * on every call, 0.16-0.29 ms, more than its execution); bound inside a transaction (a batch's instances, an import's rows)
 * and on PGlite.
 */
async function claimPositions(db: Database, organizationId: string, n: number, mode: 'skip locked' | 'wait') {
  const [row] = await runStatementAnywhere(db, claimPositionsStatements[mode], [organizationId, n]);
  return row;
}

async function countOpenStatusLists(db: Database, organizationId: string) {
  const [row] = await db
    .select({ value: count() })
    .from(statusLists)
    .where(and(eq(statusLists.organizationId, organizationId), lt(statusLists.nextIndex, statusLists.size)));
  return row?.value ?? 0;
}

/**
 * Opens the organization's next list (numbered after its last), unless enough are open by now: a crowd of
 * callers that all found no list free opens one or a few, not one each. Two callers opening at once compete
 * for the same number: one wins, the other inserts nothing and claims from the winner's list.
 */
async function openStatusList(db: Database, organizationId: string, size: number) {
  await db.execute(sql`
    insert into ${statusLists} (organization_id, number, size)
    select ${organizationId}::uuid, coalesce(max(number), 0) + 1, ${size}::int
    from ${statusLists} where organization_id = ${organizationId}
    having count(*) filter (where next_index < size) < ${STATUS_LISTS_OPEN_MAX}
    on conflict (organization_id, number) do nothing`);
}

/**
 * One list of the organization: by id, or by number (the older URI serves number 1). Another organization's list
 * is never found. Hand-written statements: the verifier reads the list's revision for every presentation.
 */
const statusListById = statement<{ id: string; number: number; size: number; revision: string | number }>(
  'status_list_by_id',
  `select id, number, size, revision from status_lists where organization_id = $1 and id = $2`,
);
const statusListByNumber = statement<{ id: string; number: number; size: number; revision: string | number }>(
  'status_list_by_number',
  `select id, number, size, revision from status_lists where organization_id = $1 and number = $2`,
);

export async function findStatusList(db: Database, organizationId: string, list: { id: string } | { number: number }) {
  const [row] =
    'id' in list
      ? await runStatement(db, statusListById, [organizationId, list.id])
      : await runStatement(db, statusListByNumber, [organizationId, list.number]);
  // int8 comes back as a string (or a bigint): the revision as a number, as the schema declares it.
  return row && { id: row.id, number: row.number, size: row.size, revision: Number(row.revision) };
}

/**
 * The list's indexes whose bit is 1: revoked credentials (deleted ones were revoked first), their own slot and
 * the slots of their further batch instances (credential_status_entries).
 */
export async function findRevokedIndexes(
  db: Database,
  organizationId: string,
  statusListId: string,
): Promise<number[]> {
  const own = db
    .select({ index: credentials.statusIndex })
    .from(credentials)
    .where(
      and(
        eq(credentials.organizationId, organizationId),
        eq(credentials.statusListId, statusListId),
        isNotNull(credentials.revokedAt),
      ),
    );
  const instances = db
    .select({ index: credentialStatusEntries.statusIndex })
    .from(credentialStatusEntries)
    .innerJoin(credentials, eq(credentials.id, credentialStatusEntries.credentialId))
    .where(
      and(
        eq(credentialStatusEntries.organizationId, organizationId),
        eq(credentialStatusEntries.statusListId, statusListId),
        isNotNull(credentials.revokedAt),
      ),
    );
  const rows = await own.unionAll(instances);
  return rows.map((r) => r.index);
}

/** The further instances of a credential issued as a batch (instance ≥ 1), each with its own status slot. */
export async function insertStatusEntries(
  db: Database,
  organizationId: string,
  credentialId: string,
  entries: { instance: number; slot: StatusSlot; holderJwk: Record<string, unknown> }[],
) {
  if (entries.length === 0) return;
  await db.insert(credentialStatusEntries).values(
    entries.map((entry) => ({
      credentialId,
      instance: entry.instance,
      organizationId,
      statusListId: entry.slot.statusListId,
      statusIndex: entry.slot.statusIndex,
      holderJwk: entry.holderJwk as schema.PublicJwk,
    })),
  );
}

/**
 * The lists holding further batch instances of these credentials. A statement of its own, after the
 * revocation's update, and not a subquery of it: in READ COMMITTED a statement reads other tables as of its
 * start, so a claim that committed its instances while the update waited for the credential's row lock would
 * be missed, and those lists' cached tokens would stay stale until refreshed.
 */
export async function findStatusEntryLists(db: Database, organizationId: string, credentialIds: string[]) {
  if (credentialIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ statusListId: credentialStatusEntries.statusListId })
    .from(credentialStatusEntries)
    .where(
      and(
        eq(credentialStatusEntries.organizationId, organizationId),
        inArray(credentialStatusEntries.credentialId, credentialIds),
      ),
    );
  return rows.map((r) => r.statusListId);
}

/**
 * Marks the lists just changed by a revocation: called in the transaction that revokes, so a signed list
 * cached for an older revision is never served after the revocation commits. Only those lists: the others'
 * signed tokens stay cached. In id order, so two revocations touching the same lists never deadlock.
 */
export async function bumpStatusListRevisions(db: Database, organizationId: string, statusListIds: string[]) {
  for (const id of [...new Set(statusListIds)].sort()) {
    await db
      .update(statusLists)
      .set({ revision: sql`${statusLists.revision} + 1` })
      .where(and(eq(statusLists.organizationId, organizationId), eq(statusLists.id, id)));
  }
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

/**
 * Marks the organization's listed credentials revoked (the status bits flip: the credential's own and those of
 * its batch instances) and ends their offers. Answers the ids revoked and the status lists whose bits changed.
 */
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
    .returning({ id: credentials.id, statusListId: credentials.statusListId });
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
  const revoked = rows.map((r) => r.id);
  // Batch instances have bits of their own (same revocation: their lists change too).
  const instanceLists = await findStatusEntryLists(db, organizationId, revoked);
  return { ids: revoked, statusListIds: [...new Set([...rows.map((r) => r.statusListId), ...instanceLists])] };
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

// ---- issuing to one recipient and its holder page: one hand-written statement each ---------------------------------
// Issue 16: a credential created and its holder page opened took 15 round trips built per request; now 9.

/** The schema as issuing reads it: what the credential keeps of it, and whether it may be issued. */
export interface IssuingSchema {
  id: string;
  name: string;
  slug: string;
  issueDisabled: boolean;
  attributes: { name: string; type: string; description: string | null }[];
}

/**
 * Issuing reads, in one statement, the organization's name and KYB state and the schema asked for when the
 * organization sees it (its own or the platform's, not deleted), with its attributes in their order.
 */
const issuingContextStatement = statement<Record<string, unknown>>(
  'issuer_issuing_context',
  `select o.name as "name", o.verification_status as "verificationStatus", o.verified_at as "verifiedAt",
          s.id as "s.id", s.name as "s.name", s.slug as "s.slug", s.issue_disabled as "s.issueDisabled",
          (select coalesce(json_agg(json_build_object('name', a.name, 'type', a.type, 'description', a.description)
                    order by a.position), '[]'::json)
             from credential_schema_attributes a where a.schema_id = s.id) as "s.attributes"
     from organizations o
     left join credential_schemas s
       on s.id = $2 and ${schemaVisibleSql('s', 'o.id')} and s.deleted_at is null
    where o.id = $1`,
);

/** The issuing organization (undefined: none) and the schema (null: not one it sees). */
export async function findIssuingContext(db: Database, organizationId: string, schemaId: string) {
  const [row] = await runStatement(db, issuingContextStatement, [organizationId, schemaId]);
  if (!row) return undefined;
  return {
    organization: {
      id: organizationId,
      name: row.name as string,
      verificationStatus: row.verificationStatus as string,
      verifiedAt: row.verifiedAt as Date | null,
    },
    schema: row['s.id'] ? unprefixed<IssuingSchema>(row, 's') : null,
  };
}

/**
 * A credential's holder page reads, in one statement: the credential (not deleted), its open offer (not revoked,
 * completed or expired at $2: the newest), the latest expiry of any of its offers, and its organization as
 * holders see it.
 */
const holderPageStatement = statement<Record<string, unknown>>(
  'issuer_holder_page',
  `select ${selectList(credentials, 'c', 'c')}, ${selectList(credentialOffers, 'f', 'f')},
          (select max(x.expires_at) from credential_offers x where x.credential_id = c.id) as "latestOfferExpiry",
          ${HOLDER_BRAND_COLUMNS}
     from credentials c
     ${holderBrandJoin('c.organization_id')}
     left join lateral (
       select * from credential_offers f
        where f.credential_id = c.id and f.revoked_at is null and f.completed_at is null and f.expires_at > $2
        order by f.created_at desc limit 1) f on true
    where c.id = $1 and c.deleted_at is null`,
);

export async function findCredentialForHolderPage(db: Database, id: string, now = new Date()) {
  const [row] = await runStatement(db, holderPageStatement, [id, now]);
  if (!row) return undefined;
  return {
    credential: unprefixed<CredentialRow>(row, 'c'),
    openOffer: row['f.id'] ? unprefixed<CredentialOfferRow>(row, 'f') : undefined,
    latestOfferExpiry: (row.latestOfferExpiry as Date | null) ?? null,
    brand: holderBrandOf(row),
  };
}

/**
 * An offer stored and its credential marked ISSUED (only from CREATED) in one statement, so both or neither
 * happen. Answers the offer, and the credential's status and issue time when this statement issued it (null
 * when something else changed it first, a revocation say).
 */
const offerStatement = statement<Record<string, unknown>>(
  'issuer_insert_offer',
  `with offer as (
     insert into credential_offers as f
            (id, credential_id, organization_id, pre_authorized_code_hash, tx_code_hash, expires_at)
     values ($1, $2, $3, $4, $5, $6)
     returning ${selectList(credentialOffers, 'f', 'f')}
   ), issued as (
     update credentials set status = 'ISSUED', issued_at = $7 where id = $2 and status = 'CREATED'
     returning status, issued_at
   )
   select offer.*, issued.status as "issuedStatus", issued.issued_at as "issuedAt"
     from offer left join issued on true`,
);

export type NewOffer = Pick<
  typeof credentialOffers.$inferInsert,
  'id' | 'credentialId' | 'organizationId' | 'preAuthorizedCodeHash' | 'txCodeHash' | 'expiresAt'
>;

export async function insertOfferAndIssue(db: Database, values: NewOffer, now = new Date()) {
  const [row] = await runStatement(db, offerStatement, [
    values.id,
    values.credentialId,
    values.organizationId,
    values.preAuthorizedCodeHash,
    values.txCodeHash ?? null,
    values.expiresAt,
    now,
  ]);
  return {
    offer: unprefixed<CredentialOfferRow>(row!, 'f'),
    issued: row!.issuedStatus ? { status: row!.issuedStatus as string, issuedAt: row!.issuedAt as Date } : null,
  };
}

/**
 * A credential created with its audit event in one statement (all or nothing, one round trip instead of a
 * transaction's four). The other columns take their defaults (CREATED, no holder yet).
 */
const createStatement = statement<Record<string, unknown>>(
  'issuer_create_credential',
  `with c as (
     insert into credentials as c
            (id, organization_id, schema_id, schema_snapshot, name, description, recipient_email, recipient_first_name,
             recipient_last_name, claims, status_list_id, status_index, created_by_user_id)
     values ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13)
     returning ${selectList(credentials, 'c', 'c')}
   ), audit as (${auditEventInsertSql('c', 14)})
   select * from c`,
);

export type NewCredential = Pick<
  typeof credentials.$inferInsert,
  | 'organizationId'
  | 'schemaId'
  | 'schemaSnapshot'
  | 'name'
  | 'description'
  | 'recipientEmail'
  | 'recipientFirstName'
  | 'recipientLastName'
  | 'claims'
  | 'statusListId'
  | 'statusIndex'
  | 'createdByUserId'
> & { id: string };

export async function createCredentialWithEvent(
  db: Database,
  values: NewCredential,
  event: NewAuditEvent,
): Promise<CredentialRow> {
  const [row] = await runStatement(db, createStatement, [
    values.id,
    values.organizationId,
    values.schemaId ?? null,
    JSON.stringify(values.schemaSnapshot),
    values.name,
    values.description ?? null,
    values.recipientEmail,
    values.recipientFirstName,
    values.recipientLastName,
    JSON.stringify(values.claims),
    values.statusListId,
    values.statusIndex,
    values.createdByUserId ?? null,
    ...auditEventValues(event),
  ]);
  return unprefixed<CredentialRow>(row!, 'c');
}
