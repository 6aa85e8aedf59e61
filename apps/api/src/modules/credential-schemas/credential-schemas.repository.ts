import { type Database, schema } from '@cp/db';
import { and, asc, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';

const { credentialSchemas, credentialSchemaAttributes, users } = schema;

export type CredentialSchemaRow = typeof credentialSchemas.$inferSelect;
export type CredentialSchemaAttributeRow = typeof credentialSchemaAttributes.$inferSelect;
export type CredentialSchemaCreatorRow = Pick<typeof users.$inferSelect, 'firstName' | 'lastName' | 'username'>;

export interface CredentialSchemaRecord {
  schema: CredentialSchemaRow;
  creator: CredentialSchemaCreatorRow | null;
  attributes: CredentialSchemaAttributeRow[];
}

/** The schemas an organization sees: its own and the platform's (organization_id null). */
const visibleTo = (organizationId: string) =>
  or(eq(credentialSchemas.organizationId, organizationId), isNull(credentialSchemas.organizationId)) as SQL;

/**
 * The same rule for a hand-written statement (runStatement): schema `alias` is one the organization whose id is the
 * SQL expression `organizationId` sees.
 */
export const schemaVisibleSql = (alias: string, organizationId: string) =>
  `(${alias}.organization_id = ${organizationId} or ${alias}.organization_id is null)`;

const creatorColumns = { firstName: users.firstName, lastName: users.lastName, username: users.username };

async function withAttributes(
  db: Database,
  rows: { schema: CredentialSchemaRow; creator: CredentialSchemaCreatorRow | null }[],
): Promise<CredentialSchemaRecord[]> {
  if (rows.length === 0) return [];
  const attributes = await db
    .select()
    .from(credentialSchemaAttributes)
    .where(
      inArray(
        credentialSchemaAttributes.schemaId,
        rows.map((r) => r.schema.id),
      ),
    )
    .orderBy(asc(credentialSchemaAttributes.position));
  return rows.map((r) => ({
    schema: r.schema,
    // A left join gives an object of nulls when there is no creator.
    creator: r.creator && (r.creator.firstName ?? r.creator.lastName ?? r.creator.username) !== null ? r.creator : null,
    attributes: attributes.filter((a) => a.schemaId === r.schema.id),
  }));
}

/**
 * One page of the schemas an organization sees, without deleted ones: its own newest first, then the
 * platform's (a stable order: ties broken by id).
 */
export async function findCredentialSchemas(
  db: Database,
  organizationId: string,
  page: { offset: number; limit: number },
) {
  const where = and(visibleTo(organizationId), isNull(credentialSchemas.deletedAt));
  const rows = await db
    .select({ schema: credentialSchemas, creator: creatorColumns })
    .from(credentialSchemas)
    .leftJoin(users, eq(users.id, credentialSchemas.createdByUserId))
    .where(where)
    .orderBy(
      sql`(${credentialSchemas.organizationId} is null)`,
      desc(credentialSchemas.createdAt),
      desc(credentialSchemas.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ value: count() }).from(credentialSchemas).where(where);
  return { records: await withAttributes(db, rows), total: total?.value ?? 0 };
}

/** One schema the organization sees (its own or the platform's); deleted ones only when asked for. */
export async function findCredentialSchema(
  db: Database,
  organizationId: string,
  id: string,
  options: { includeDeleted?: boolean } = {},
) {
  const conditions = [eq(credentialSchemas.id, id), visibleTo(organizationId)];
  if (!options.includeDeleted) conditions.push(isNull(credentialSchemas.deletedAt));
  const rows = await db
    .select({ schema: credentialSchemas, creator: creatorColumns })
    .from(credentialSchemas)
    .leftJoin(users, eq(users.id, credentialSchemas.createdByUserId))
    .where(and(...conditions));
  const [record] = await withAttributes(db, rows);
  return record;
}

/** A platform schema by its fixed slug (the `vct` type metadata of platform credentials). */
export async function findPlatformCredentialSchema(db: Database, slug: string) {
  const rows = await db
    .select({ schema: credentialSchemas, creator: creatorColumns })
    .from(credentialSchemas)
    .leftJoin(users, eq(users.id, credentialSchemas.createdByUserId))
    .where(and(eq(credentialSchemas.slug, slug), isNull(credentialSchemas.organizationId)));
  const [record] = await withAttributes(db, rows);
  return record;
}

export async function insertCredentialSchema(
  db: Database,
  values: {
    id: string;
    organizationId: string | null;
    name: string;
    description: string | null;
    slug: string;
    issueDisabled: boolean;
    createdByUserId: string | null;
    createdAt?: Date;
    attributes: { name: string; description: string | null; type: string }[];
  },
) {
  const { attributes, ...row } = values;
  const [inserted] = await db.insert(credentialSchemas).values(row).returning();
  await db
    .insert(credentialSchemaAttributes)
    .values(attributes.map((a, position) => ({ ...a, schemaId: values.id, position })));
  return inserted!;
}

/** Soft delete: issued credentials keep referring to the row. Only the organization's own schemas. */
export async function softDeleteCredentialSchema(db: Database, organizationId: string, id: string) {
  const rows = await db
    .update(credentialSchemas)
    .set({ deletedAt: new Date() })
    .where(
      and(
        eq(credentialSchemas.id, id),
        eq(credentialSchemas.organizationId, organizationId),
        isNull(credentialSchemas.deletedAt),
      ),
    )
    .returning({ id: credentialSchemas.id });
  return rows.length === 1;
}

/** Platform schemas by slug (the seed's identity for them). */
export function findPlatformCredentialSchemaSlugs(db: Database) {
  return db
    .select({ slug: credentialSchemas.slug })
    .from(credentialSchemas)
    .where(isNull(credentialSchemas.organizationId))
    .then((rows) => new Set(rows.map((r) => r.slug)));
}

/** Serializes concurrent seeders (a server and a CLI starting together) for the transaction's length. */
export async function lockPlatformSeed(db: Database) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('credential-schemas.platform-seed'))`);
}
