import { type Database, schema } from '@cp/db';
import { and, eq, inArray } from 'drizzle-orm';

const { media } = schema;
export type MediaRow = typeof media.$inferSelect;
export type NewMediaRow = typeof media.$inferInsert;

export async function insertMedia(db: Database, values: NewMediaRow) {
  const [row] = await db.insert(media).values(values).returning();
  return row!;
}

/** Any media by id: callers decide who may see it (public files, members, administrators). */
export async function findMediaById(db: Database, id: string) {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  return row;
}

/** The organization's media among the ids; another organization's ids are simply not found. */
export function findOrganizationMedia(db: Database, organizationId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(media)
    .where(and(eq(media.organizationId, organizationId), inArray(media.id, ids)));
}

/** Media by ids without an organization scope, for rows whose scope was already checked (logos, reviewed documents). */
export function findMediaByIds(db: Database, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(media).where(inArray(media.id, ids));
}
