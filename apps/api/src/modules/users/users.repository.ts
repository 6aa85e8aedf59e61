import { type Database, schema } from '@cp/db';
import { and, eq, sql } from 'drizzle-orm';

const { users } = schema;
export type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Database, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByIdentity(db: Database, issuer: string, subject: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.issuer, issuer), eq(users.subject, subject)));
  return row;
}

/**
 * Creates the user on first sign-in; afterwards refreshes the identity facts (e-mail, username) and
 * fills names only where the user has not set them in the console.
 */
export async function upsertUserFromIdentity(
  db: Database,
  identity: {
    issuer: string;
    subject: string;
    email: string | null;
    emailVerified?: boolean;
    username: string | null;
    firstName: string | null;
    lastName: string | null;
    locale?: string | null;
  },
) {
  const emailVerified = identity.emailVerified === true;
  const [row] = await db
    .insert(users)
    .values({ ...identity, emailVerified })
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: {
        email: identity.email,
        emailVerified,
        username: identity.username,
        firstName: sql`coalesce(${users.firstName}, excluded.first_name)`,
        lastName: sql`coalesce(${users.lastName}, excluded.last_name)`,
        locale: sql`coalesce(${users.locale}, excluded.locale)`,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function updateUser(
  db: Database,
  id: string,
  values: Partial<Pick<UserRow, 'firstName' | 'lastName' | 'jobTitle' | 'avatarUrl' | 'avatarMediaId' | 'locale'>>,
) {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}
