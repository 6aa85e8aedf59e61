import { type Database, schema } from '@cp/db';
import { and, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';

const { credentials, credentialOffers, statusLists } = schema;
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
}

/**
 * The latest offer's expiry per credential, for the EXPIRED status and `expired_at`. Written with
 * explicit aliases: inside a subquery an unqualified "id" would bind to the offers table.
 */
const latestOfferExpiry = sql<
  Date | string | null
>`(select max(co.expires_at) from credential_offers co where co.credential_id = "credentials"."id")`;

export async function findCredentials(
  db: Database,
  organizationId: string,
  filters: CredentialFilters,
  page: { offset: number; limit: number },
) {
  const conditions: SQL[] = [eq(credentials.organizationId, organizationId), isNull(credentials.deletedAt)];
  if (filters.schemaId) conditions.push(eq(credentials.schemaId, filters.schemaId));
  if (filters.search) {
    const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(
        ilike(credentials.recipientEmail, pattern),
        ilike(credentials.recipientFirstName, pattern),
        ilike(credentials.recipientLastName, pattern),
        ilike(sql`${credentials.recipientFirstName} || ' ' || ${credentials.recipientLastName}`, pattern),
        ilike(credentials.name, pattern),
      ) as SQL,
    );
  }
  if (filters.status === 'EXPIRED') {
    conditions.push(eq(credentials.status, 'ISSUED'), sql`${latestOfferExpiry} <= now()`);
  } else if (filters.status === 'ISSUED') {
    conditions.push(eq(credentials.status, 'ISSUED'), sql`coalesce(${latestOfferExpiry} > now(), true)`);
  } else if (filters.status) {
    conditions.push(eq(credentials.status, filters.status));
  }
  const where = and(...conditions);
  const rows = await db
    .select({ credential: credentials, offerExpiresAt: latestOfferExpiry })
    .from(credentials)
    .where(where)
    .orderBy(desc(credentials.createdAt), desc(credentials.id))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ value: count() }).from(credentials).where(where);
  return { rows, total: total?.value ?? 0 };
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
