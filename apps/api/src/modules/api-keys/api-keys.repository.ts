import { type Database, schema } from '@cp/db';
import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';

const { apiKeys } = schema;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Only keys that still work: a deleted key keeps its row (revoked_at) for the record. */
const isLive = isNull(apiKeys.revokedAt);

/** One page of the organization's live keys, newest first. */
export async function findApiKeys(db: Database, organizationId: string, page: { page: number; limit: number }) {
  const where = and(eq(apiKeys.organizationId, organizationId), isLive);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ value: count() }).from(apiKeys).where(where),
  ]);
  return { rows, total: Number(total?.value ?? 0) };
}

/** The key only when it belongs to the organization and is live: the organization is part of the query. */
export async function findApiKey(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id), isLive));
  return row;
}

export async function insertApiKey(
  db: Database,
  organizationId: string,
  values: { name: string; keyId: string; secretHash: string; lastFour: string; createdByUserId: string | null },
) {
  const [row] = await db
    .insert(apiKeys)
    .values({ organizationId, ...values })
    .returning();
  return row!;
}

export async function renameApiKey(db: Database, organizationId: string, id: string, name: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ name })
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id), isLive))
    .returning();
  return row;
}

/** Deleting revokes: authentication only accepts live keys, so it stops working at once. */
export async function revokeApiKey(db: Database, organizationId: string, id: string, at: Date) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id), isLive))
    .returning({ id: apiKeys.id });
  return row;
}

/**
 * Authentication lookup by the public key id, across organizations (the key names its organization).
 * Not organization-scoped on purpose: it is how the organization is found.
 */
export async function findLiveApiKeyByKeyId(db: Database, keyId: string) {
  const [row] = await db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      secretHash: apiKeys.secretHash,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyId, keyId), isLive));
  return row;
}

/**
 * Records use, at most once per `olderThan` window: the condition is in the UPDATE itself, so
 * concurrent requests (or several API processes) write once instead of on every call.
 */
export async function touchApiKey(db: Database, id: string, now: Date, olderThan: Date) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, olderThan))));
}
