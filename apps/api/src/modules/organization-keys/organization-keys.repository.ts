import { type Database, schema } from '@cp/db';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';

const { organizationKeys } = schema;
export type OrganizationKeyRow = typeof organizationKeys.$inferSelect;

export async function findActiveKey(db: Database, organizationId: string) {
  const [row] = await db
    .select()
    .from(organizationKeys)
    .where(and(eq(organizationKeys.organizationId, organizationId), isNull(organizationKeys.retiredAt)));
  return row;
}

/** Every key the organization ever signed with, oldest first: retired keys stay published. */
export function findKeys(db: Database, organizationId: string) {
  return db
    .select()
    .from(organizationKeys)
    .where(eq(organizationKeys.organizationId, organizationId))
    .orderBy(asc(organizationKeys.createdAt));
}

export async function findKeyById(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(organizationKeys)
    .where(and(eq(organizationKeys.organizationId, organizationId), eq(organizationKeys.id, id)));
  return row;
}

/** Inserts the active key unless another process just did (one active key per organization). */
export async function insertActiveKey(db: Database, values: typeof organizationKeys.$inferInsert) {
  await db.insert(organizationKeys).values(values).onConflictDoNothing();
}

export async function retireActiveKey(db: Database, organizationId: string) {
  await db
    .update(organizationKeys)
    .set({ retiredAt: new Date() })
    .where(and(eq(organizationKeys.organizationId, organizationId), isNull(organizationKeys.retiredAt)));
}

/** Organizations that have no active key yet (created before keys existed, or never used to issue). */
export async function findOrganizationsWithoutActiveKey(db: Database, limit: number) {
  const rows = await db.execute<{ id: string }>(sql`
    select o.id from organizations o
    where not exists (select 1 from organization_keys k where k.organization_id = o.id and k.retired_at is null)
    order by o.created_at limit ${limit}`);
  return (rows as unknown as { rows?: { id: string }[] }).rows ?? (rows as unknown as { id: string }[]);
}
