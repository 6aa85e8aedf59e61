import { type Database, schema } from '@cp/db';
import { and, count, desc, eq } from 'drizzle-orm';

const { kybApplications, organizations, memberships, users } = schema;
export type KybApplicationRow = typeof kybApplications.$inferSelect;

/** The organization's latest application (or undefined when it never applied). */
export async function findLatestApplication(db: Database, organizationId: string) {
  const [row] = await db
    .select()
    .from(kybApplications)
    .where(eq(kybApplications.organizationId, organizationId))
    .orderBy(desc(kybApplications.submittedAt), desc(kybApplications.id))
    .limit(1);
  return row;
}

export async function insertApplication(
  db: Database,
  organizationId: string,
  values: { documentIds: string[]; submittedByUserId: string | null },
) {
  const [row] = await db
    .insert(kybApplications)
    .values({ organizationId, status: 'PENDING', ...values })
    .returning();
  return row!;
}

export async function setOrganizationVerification(
  db: Database,
  organizationId: string,
  values: { verificationStatus: string; verifiedAt?: Date | null },
) {
  await db
    .update(organizations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(organizations.id, organizationId));
}

export async function findOrganizationVerification(db: Database, organizationId: string) {
  const [row] = await db
    .select({ verificationStatus: organizations.verificationStatus, verifiedAt: organizations.verifiedAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}

// Platform review: across organizations, for platform administrators only (checked by the service).

export async function findApplicationForReview(db: Database, applicationId: string) {
  const [row] = await db
    .select({ application: kybApplications, organizationName: organizations.name })
    .from(kybApplications)
    .innerJoin(organizations, eq(organizations.id, kybApplications.organizationId))
    .where(eq(kybApplications.id, applicationId));
  return row;
}

export async function findApplicationsForReview(db: Database, filter: { status: string; page: number; limit: number }) {
  const where = eq(kybApplications.status, filter.status);
  const [rows, [total]] = await Promise.all([
    db
      .select({ application: kybApplications, organizationName: organizations.name })
      .from(kybApplications)
      .innerJoin(organizations, eq(organizations.id, kybApplications.organizationId))
      .where(where)
      // Oldest first: a queue is worked from its head.
      .orderBy(kybApplications.submittedAt, kybApplications.id)
      .limit(filter.limit)
      .offset((filter.page - 1) * filter.limit),
    db.select({ total: count() }).from(kybApplications).where(where),
  ]);
  return { rows, total: total?.total ?? 0 };
}

/** Marks a PENDING application reviewed; undefined when it was no longer pending (a concurrent review). */
export async function reviewApplication(
  db: Database,
  applicationId: string,
  values: { status: 'APPROVED' | 'REJECTED'; reviewedBy: string; reason: string | null },
) {
  const [row] = await db
    .update(kybApplications)
    .set({ ...values, reviewedAt: new Date() })
    .where(and(eq(kybApplications.id, applicationId), eq(kybApplications.status, 'PENDING')))
    .returning();
  return row;
}

export function findMemberEmails(db: Database, organizationId: string) {
  return db
    .select({ email: users.email, firstName: users.firstName, locale: users.locale })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .then((rows) =>
      rows.filter((r): r is { email: string; firstName: string | null; locale: string | null } => Boolean(r.email)),
    );
}
