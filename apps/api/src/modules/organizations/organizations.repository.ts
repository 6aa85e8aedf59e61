import { type Database, schema } from '@cp/db';
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';

const { organizations, memberships, membershipExclusions } = schema;
export type OrganizationRow = typeof organizations.$inferSelect;

/** Organizations the user belongs to, oldest first (a stable order for the switcher). */
export function findOrganizationsForUser(db: Database, userId: string) {
  return db
    .select({ organization: organizations })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.createdAt), asc(organizations.id))
    .then((rows) => rows.map((r) => r.organization));
}

/** The organization only if the user is a member: the membership is part of the query, not a later check. */
export async function findOrganizationForMember(db: Database, organizationId: string, userId: string) {
  const [row] = await db
    .select({ organization: organizations })
    .from(organizations)
    .innerJoin(memberships, and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, userId)))
    .where(eq(organizations.id, organizationId));
  return row?.organization;
}

export async function isMember(db: Database, organizationId: string, userId: string) {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .limit(1);
  return rows.length === 1;
}

export async function updateOrganization(
  db: Database,
  organizationId: string,
  values: Partial<
    Pick<OrganizationRow, 'name' | 'description' | 'logoUrl' | 'logoMediaId' | 'brandColor' | 'requireTwoFactor'>
  >,
) {
  const [row] = await db
    .update(organizations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(organizations.id, organizationId))
    .returning();
  return row;
}

export async function insertOrganization(
  db: Database,
  values: {
    name: string;
    description?: string | null;
    issuer?: string | null;
    externalId?: string | null;
    verificationStatus?: string;
    verifiedAt?: Date | null;
  },
) {
  const [row] = await db.insert(organizations).values(values).returning();
  return row!;
}

export async function insertMembership(
  db: Database,
  values: { organizationId: string; userId: string; source: 'local' | 'provider'; role: schema.MemberRole },
) {
  await db.insert(memberships).values(values).onConflictDoNothing();
}

/**
 * Provider-claimed memberships: each organization the user is not yet a member of, unless an admin removed
 * them from it (membership_exclusions). The first member of an organization is its admin (the provider's
 * creator); later ones join as members.
 */
export async function insertProviderMemberships(db: Database, userId: string, organizationIds: string[]) {
  for (const organizationId of organizationIds) {
    const [excluded] = await db
      .select({ userId: membershipExclusions.userId })
      .from(membershipExclusions)
      .where(and(eq(membershipExclusions.organizationId, organizationId), eq(membershipExclusions.userId, userId)));
    if (excluded) continue;
    const [admin] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'admin')))
      .limit(1);
    await db
      .insert(memberships)
      .values({ organizationId, userId, source: 'provider', role: admin ? 'member' : 'admin' })
      .onConflictDoNothing();
  }
}

/** Inserts provider organizations that are not known yet and returns every one of them by external id. */
export async function ensureProviderOrganizations(
  db: Database,
  issuer: string,
  claimed: { externalId: string; name: string; description: string | null }[],
) {
  if (claimed.length === 0) return [];
  await db
    .insert(organizations)
    .values(claimed.map((c) => ({ issuer, externalId: c.externalId, name: c.name, description: c.description })))
    .onConflictDoNothing({ target: [organizations.issuer, organizations.externalId] });
  return db
    .select()
    .from(organizations)
    .where(
      and(
        eq(organizations.issuer, issuer),
        inArray(
          organizations.externalId,
          claimed.map((c) => c.externalId),
        ),
      ),
    );
}

/** Removes the user's provider-sourced memberships except those listed (the provider is the source). */
export async function removeProviderMembershipsExcept(db: Database, userId: string, keepOrganizationIds: string[]) {
  const conditions = [eq(memberships.userId, userId), eq(memberships.source, 'provider')];
  if (keepOrganizationIds.length > 0) conditions.push(notInArray(memberships.organizationId, keepOrganizationIds));
  await db.delete(memberships).where(and(...conditions));
}

export function listAllOrganizations(db: Database) {
  return db.select().from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.id));
}

/** Public lookup by id (issuer metadata, DID documents): no membership, so never for member data. */
export async function findOrganizationById(db: Database, organizationId: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return row;
}
