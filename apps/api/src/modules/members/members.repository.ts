import { type Database, schema } from '@cp/db';
import { and, asc, count, eq, sql } from 'drizzle-orm';

const { memberships, membershipExclusions, users } = schema;
export type MembershipRow = typeof memberships.$inferSelect;

const memberColumns = {
  userId: memberships.userId,
  role: memberships.role,
  source: memberships.source,
  joinedAt: memberships.createdAt,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};
export interface MemberRow {
  userId: string;
  role: schema.MemberRole;
  source: string;
  joinedAt: Date;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

/** The organization's members, admins first, then by the date they joined. */
export async function findMembers(db: Database, organizationId: string, page: { page: number; limit: number }) {
  const where = eq(memberships.organizationId, organizationId);
  const [rows, [total]] = await Promise.all([
    db
      .select(memberColumns)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(where)
      .orderBy(asc(memberships.role), asc(memberships.createdAt), asc(memberships.userId))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ count: count() }).from(memberships).where(where),
  ]);
  return { rows: rows satisfies MemberRow[], total: total?.count ?? 0 };
}

export async function findMember(db: Database, organizationId: string, userId: string) {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row satisfies MemberRow | undefined;
}

/** Whether a member of the organization has this e-mail address (compared case-insensitively). */
export async function hasMemberWithEmail(db: Database, organizationId: string, email: string) {
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), sql`lower(${users.email}) = lower(${email})`))
    .limit(1);
  return Boolean(row);
}

/** How many admins the organization has (inside a transaction holding the organization's lock). */
export async function countAdmins(db: Database, organizationId: string) {
  const [row] = await db
    .select({ count: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'admin')));
  return row?.count ?? 0;
}

export async function updateMemberRole(db: Database, organizationId: string, userId: string, role: schema.MemberRole) {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

export async function deleteMembership(db: Database, organizationId: string, userId: string) {
  await db
    .delete(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

/** A new local membership (an accepted invitation); an existing one is left as it is. */
export async function insertMembership(db: Database, organizationId: string, userId: string, role: schema.MemberRole) {
  await db.insert(memberships).values({ organizationId, userId, role, source: 'local' }).onConflictDoNothing();
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row!.role;
}

/** The identity provider's claim no longer brings this person back into the organization (see the table). */
export async function insertExclusion(db: Database, organizationId: string, userId: string) {
  await db.insert(membershipExclusions).values({ organizationId, userId }).onConflictDoNothing();
}

export async function deleteExclusion(db: Database, organizationId: string, userId: string) {
  await db
    .delete(membershipExclusions)
    .where(and(eq(membershipExclusions.organizationId, organizationId), eq(membershipExclusions.userId, userId)));
}
