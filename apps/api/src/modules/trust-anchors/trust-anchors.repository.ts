import { type Database, schema } from '@cp/db';
import { and, asc, count, eq } from 'drizzle-orm';

const { trustAnchors } = schema;

export type TrustAnchorRow = typeof trustAnchors.$inferSelect;
export type NewTrustAnchor = typeof trustAnchors.$inferInsert;

const scoped = (organizationId: string, id: string) =>
  and(eq(trustAnchors.organizationId, organizationId), eq(trustAnchors.id, id));

/** Every trust anchor of an organization, oldest first. */
export async function findTrustAnchors(db: Database, organizationId: string) {
  return db
    .select()
    .from(trustAnchors)
    .where(eq(trustAnchors.organizationId, organizationId))
    .orderBy(asc(trustAnchors.createdAt), asc(trustAnchors.id));
}

export async function findTrustAnchor(db: Database, organizationId: string, id: string) {
  const [row] = await db.select().from(trustAnchors).where(scoped(organizationId, id));
  return row;
}

export async function countTrustAnchors(db: Database, organizationId: string) {
  const [row] = await db
    .select({ total: count() })
    .from(trustAnchors)
    .where(eq(trustAnchors.organizationId, organizationId));
  return row?.total ?? 0;
}

/** Inserts an anchor; undefined when the organization already has one with this fingerprint. */
export async function insertTrustAnchor(db: Database, values: NewTrustAnchor) {
  const [row] = await db.insert(trustAnchors).values(values).onConflictDoNothing().returning();
  return row;
}

export async function deleteTrustAnchor(db: Database, organizationId: string, id: string) {
  const rows = await db.delete(trustAnchors).where(scoped(organizationId, id)).returning({ id: trustAnchors.id });
  return rows.length === 1;
}

/** Every trusted list of every organization (the hourly refresh). */
export async function findAllTrustedLists(db: Database) {
  return db.select().from(trustAnchors).where(eq(trustAnchors.kind, 'TRUSTED_LIST'));
}

export async function updateTrustedList(
  db: Database,
  id: string,
  values: Pick<NewTrustAnchor, 'listCertificates' | 'listFetchedAt' | 'listError'>,
) {
  const [row] = await db.update(trustAnchors).set(values).where(eq(trustAnchors.id, id)).returning();
  return row;
}
