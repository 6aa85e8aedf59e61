import { type Database, runStatement, schema, statement, unprefixed } from '@cp/db';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';

const { organizations, memberships, membershipExclusions } = schema;
export type OrganizationRow = typeof organizations.$inferSelect;

// ---- the organization as holders see it, read with what a holder page or a wallet asks for ----------------------

/**
 * Columns of a hand-written statement (runStatement) that joins holderBrandJoin: the organization's public facts,
 * and its logo file (`m`) when it is a file of its own; whether that file is a public logo is the organizations
 * service's decision (holderBrand).
 */
export const HOLDER_BRAND_COLUMNS = `o.name as "o.name", o.verification_status as "o.verificationStatus",
  o.verified_at as "o.verifiedAt", o.brand_color as "o.brandColor",
  m.id as "m.id", m.visibility as "m.visibility", m.storage_key as "m.storageKey"`;

/** Joins the organization whose id is `organizationId` (an expression of the statement) as `o`, and its logo file. */
export const holderBrandJoin = (organizationId: string) => `join organizations o on o.id = ${organizationId}
  left join media m on m.id = o.logo_media_id and m.organization_id = o.id`;

/** The organization and its logo file as HOLDER_BRAND_COLUMNS name them. */
export interface HolderBrandRow {
  organization: Pick<OrganizationRow, 'name' | 'verificationStatus' | 'verifiedAt' | 'brandColor'>;
  logo: { id: string; visibility: string; storageKey: string } | null;
}

export const holderBrandOf = (row: Record<string, unknown>): HolderBrandRow => ({
  organization: unprefixed(row, 'o'),
  logo: row['m.id'] ? unprefixed(row, 'm') : null,
});

/** Organizations the user belongs to with the user's role in each, oldest first (a stable order for the switcher). */
export function findOrganizationsForUser(db: Database, userId: string) {
  return db
    .select({ organization: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
}

/** The organization only if the user is a member: the membership is part of the query, not a later check. */
export async function findOrganizationForMember(db: Database, organizationId: string, userId: string) {
  const [row] = await db
    .select({ organization: organizations, role: memberships.role })
    .from(organizations)
    .innerJoin(memberships, and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, userId)))
    .where(eq(organizations.id, organizationId));
  return row;
}

/** The user's role in the organization, or undefined when not a member. */
export async function findMemberRole(db: Database, organizationId: string, userId: string) {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .limit(1);
  return row?.role;
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
    // Serializes with role changes and removals (see lockOrganization): "first member" is decided once.
    await lockOrganization(db, organizationId);
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

/**
 * Takes the organization's row lock until the transaction ends: every change that could take away an admin
 * (role change, removal, leaving, provider sync) takes it first, so two of them never both see "another admin
 * is left" (a conditional statement alone would not do: under READ COMMITTED each sees the other's admin).
 */
export async function lockOrganization(db: Database, organizationId: string) {
  await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
}

/** How many admins the organization has (call inside a transaction holding `lockOrganization`). */
export async function countAdmins(db: Database, organizationId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'admin')));
  return row?.count ?? 0;
}

/**
 * Removes the user's provider-sourced memberships except those listed (the provider is the source), but never
 * an organization's last admin: an organization always keeps someone who can manage it.
 */
export async function removeProviderMembershipsExcept(db: Database, userId: string, keepOrganizationIds: string[]) {
  const conditions = [eq(memberships.userId, userId), eq(memberships.source, 'provider')];
  if (keepOrganizationIds.length > 0) conditions.push(notInArray(memberships.organizationId, keepOrganizationIds));
  const leaving = await db
    .select({ organizationId: memberships.organizationId, role: memberships.role })
    .from(memberships)
    .where(and(...conditions));
  for (const membership of leaving) {
    await lockOrganization(db, membership.organizationId);
    if (membership.role === 'admin' && (await countAdmins(db, membership.organizationId)) <= 1) continue;
    await db
      .delete(memberships)
      .where(and(eq(memberships.organizationId, membership.organizationId), eq(memberships.userId, userId)));
  }
}

export function listAllOrganizations(db: Database) {
  return db.select().from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.id));
}

/** Public lookup by id (issuer metadata, DID documents): no membership, so never for member data. */
export async function findOrganizationById(db: Database, organizationId: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return row;
}

/**
 * An issuer of this platform as the verifier's trust policy reads it, for every presentation of its credentials:
 * its name and whether it passed KYB. A hand-written statement (the response endpoint's hot path).
 */
const issuerOrganizationStatement = statement<{ id: string; name: string; verifiedAt: Date | null }>(
  'verifier_issuer_organization',
  `select id, name, verified_at as "verifiedAt" from organizations where id = $1`,
);

export async function findIssuerOrganization(db: Database, organizationId: string) {
  const [row] = await runStatement(db, issuerOrganizationStatement, [organizationId]);
  return row;
}

/**
 * The same, with the status list its credential names (by id, or the first without one) in the same statement:
 * the list's revision says whether a cached status list token is still current.
 */
type StatusListRow = { id: string; number: number; size: number; revision: number | string };
const issuerOrganizationListStatement = (name: string, where: string) =>
  statement<{ id: string; name: string; verifiedAt: Date | null; statusList: StatusListRow | null }>(
    name,
    `select o.id, o.name, o.verified_at as "verifiedAt",
            (select json_build_object('id', s.id, 'number', s.number, 'size', s.size, 'revision', s.revision)
               from status_lists s where s.organization_id = o.id and ${where}) as "statusList"
       from organizations o where o.id = $1`,
  );
const issuerWithListById = issuerOrganizationListStatement('verifier_issuer_organization_list', 's.id = $2');
const issuerWithFirstList = issuerOrganizationListStatement('verifier_issuer_organization_first_list', 's.number = 1');

export async function findIssuerOrganizationWithStatusList(
  db: Database,
  organizationId: string,
  statusListId: string | undefined,
) {
  const [row] = statusListId
    ? await runStatement(db, issuerWithListById, [organizationId, statusListId])
    : await runStatement(db, issuerWithFirstList, [organizationId]);
  if (!row) return undefined;
  const list = row.statusList;
  return {
    organization: { id: row.id, name: row.name, verifiedAt: row.verifiedAt },
    list: list ? { id: list.id, number: list.number, size: list.size, revision: Number(list.revision) } : undefined,
  };
}
