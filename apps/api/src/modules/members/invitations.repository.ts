import { type Database, schema } from '@cp/db';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';

const { organizationInvitations: invitations, users } = schema;
export type InvitationRow = typeof invitations.$inferSelect;

const pending = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/**
 * Creates the pending invitation of this address, or replaces the one already pending (new role, token, expiry
 * and inviter). The unique index on pending invitations (organization, lower(email)) keeps it to one: an insert
 * that loses a race with another admin's finds that row on the next turn and replaces it.
 */
export async function upsertPendingInvitation(
  db: Database,
  organizationId: string,
  values: {
    email: string;
    role: schema.MemberRole;
    tokenHash: string;
    locale: string;
    invitedByUserId: string;
    expiresAt: Date;
  },
) {
  for (let turn = 0; turn < 3; turn += 1) {
    const now = new Date();
    const [replaced] = await db
      .update(invitations)
      .set({ ...values, createdAt: now })
      .where(
        and(
          eq(invitations.organizationId, organizationId),
          sql`lower(${invitations.email}) = lower(${values.email})`,
          pending,
        ),
      )
      .returning();
    if (replaced) return replaced;
    const [created] = await db
      .insert(invitations)
      .values({ organizationId, ...values, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (created) return created;
  }
  throw new Error('The pending invitation could not be stored.');
}

/** Pending invitations (expired ones included: they can be resent), newest first, with the inviter's names. */
export async function findPendingInvitations(
  db: Database,
  organizationId: string,
  page: { page: number; limit: number },
) {
  const where = and(eq(invitations.organizationId, organizationId), pending);
  const [rows, [total]] = await Promise.all([
    db
      .select({ invitation: invitations, inviterFirstName: users.firstName, inviterLastName: users.lastName })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.invitedByUserId))
      .where(where)
      .orderBy(desc(invitations.createdAt), desc(invitations.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ count: count() }).from(invitations).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

/** A pending invitation of the organization (another organization's answers nothing). */
export async function findPendingInvitation(db: Database, organizationId: string, invitationId: string) {
  const [row] = await db
    .select({ invitation: invitations, inviterFirstName: users.firstName, inviterLastName: users.lastName })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, invitationId), pending));
  return row;
}

export async function revokeInvitation(db: Database, organizationId: string, invitationId: string) {
  const [row] = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, invitationId), pending))
    .returning({ id: invitations.id });
  return row;
}

/** A new token and expiry for a pending invitation (the previous link stops working). */
export async function renewInvitationToken(
  db: Database,
  organizationId: string,
  invitationId: string,
  values: { tokenHash: string; expiresAt: Date; locale: string },
) {
  const [row] = await db
    .update(invitations)
    .set(values)
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, invitationId), pending))
    .returning();
  return row;
}

/** The invitation of a link, whatever its state (the caller tells expired, used and revoked apart). */
export async function findInvitationByTokenHash(db: Database, tokenHash: string) {
  const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
  return row;
}

/** For the e-mail job: the invitation by id, whatever its organization (the job carries no caller). */
export async function findInvitationById(db: Database, invitationId: string) {
  const [row] = await db.select().from(invitations).where(eq(invitations.id, invitationId));
  return row;
}

/**
 * Marks the invitation used, in one conditional statement: of two accepts of the same link only one changes
 * the row (the other finds it accepted), and an expired, revoked or replaced link changes nothing.
 */
export async function claimInvitation(db: Database, invitationId: string, tokenHash: string, userId: string) {
  const [row] = await db
    .update(invitations)
    .set({ acceptedAt: new Date(), acceptedByUserId: userId })
    .where(
      and(
        eq(invitations.id, invitationId),
        eq(invitations.tokenHash, tokenHash),
        pending,
        gt(invitations.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row;
}
