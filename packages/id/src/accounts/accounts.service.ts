import { isStrongPassword } from '@cp/contracts';
import { type Database, schema } from '@cp/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { AccountError } from './account-error.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

const { accounts, accountMemberships, accountOrganizations } = schema;

export type Account = typeof accounts.$inferSelect;
export interface AccountOrganization {
  id: string;
  name: string;
  description: string | null;
}

export interface CreateAccountInput {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  locale?: string | null;
  /** The address is vouched for (an operator creates the account): sent as `email_verified: true`. */
  emailVerified?: boolean;
}

export const zUsername = z
  .string()
  .trim()
  .min(3)
  .max(32)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
export const zEmail = z.string().trim().max(254).pipe(z.email());
const zName = z.string().trim().min(1).max(100);

function uniqueViolation(error: unknown): string | undefined {
  // node-postgres and PGlite both carry SQLSTATE 23505 and the index name, sometimes under `cause`.
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === '23505') return constraint ?? message ?? 'unique';
  }
  return undefined;
}

/** Creates an account after checking every field and the password rule (spec §5). */
export async function createAccount(db: Database, input: CreateAccountInput): Promise<Account> {
  const firstName = zName.safeParse(input.firstName);
  if (!firstName.success) throw new AccountError('ACCOUNT_INVALID_INPUT', 'First name is required', 'firstName');
  const lastName = zName.safeParse(input.lastName);
  if (!lastName.success) throw new AccountError('ACCOUNT_INVALID_INPUT', 'Last name is required', 'lastName');
  const username = zUsername.safeParse(input.username);
  if (!username.success) throw new AccountError('ACCOUNT_INVALID_INPUT', 'Invalid username', 'username');
  const email = zEmail.safeParse(input.email);
  if (!email.success) throw new AccountError('ACCOUNT_INVALID_INPUT', 'Invalid email address', 'email');
  if (!isStrongPassword(input.password)) {
    throw new AccountError('ACCOUNT_PASSWORD_WEAK', 'The password does not follow the password rule', 'password');
  }

  const existing = await db
    .select({ username: accounts.username, email: accounts.email })
    .from(accounts)
    .where(
      sql`lower(${accounts.username}) = lower(${username.data}) or lower(${accounts.email}) = lower(${email.data})`,
    );
  if (existing.some((a) => a.username.toLowerCase() === username.data.toLowerCase())) {
    throw new AccountError('ACCOUNT_USERNAME_TAKEN', 'This username is already taken', 'username');
  }
  if (existing.length > 0) throw new AccountError('ACCOUNT_EMAIL_TAKEN', 'This email is already registered', 'email');

  const passwordHash = await hashPassword(input.password);
  try {
    const [row] = await db
      .insert(accounts)
      .values({
        username: username.data,
        email: email.data,
        firstName: firstName.data,
        lastName: lastName.data,
        passwordHash,
        locale: input.locale ?? null,
        emailVerifiedAt: input.emailVerified ? new Date() : null,
      })
      .returning();
    if (!row) throw new Error('Account insert returned no row');
    return row;
  } catch (error) {
    // A concurrent sign-up with the same name won the race: answer the same clear error.
    const violated = uniqueViolation(error);
    if (violated?.includes('username')) {
      throw new AccountError('ACCOUNT_USERNAME_TAKEN', 'This username is already taken', 'username');
    }
    if (violated) throw new AccountError('ACCOUNT_EMAIL_TAKEN', 'This email is already registered', 'email');
    throw error;
  }
}

/** Marks the account's address verified (an operator vouches for it); answers the account, if any. */
export async function markEmailVerified(db: Database, email: string): Promise<Account | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ emailVerifiedAt: sql`coalesce(${accounts.emailVerifiedAt}, now())`, updatedAt: new Date() })
    .where(sql`lower(${accounts.email}) = lower(${email.trim()})`)
    .returning();
  return row;
}

export async function findAccountByEmail(db: Database, email: string): Promise<Account | undefined> {
  const rows = await db.select().from(accounts).where(sql`lower(${accounts.email}) = lower(${email.trim()})`);
  return rows[0];
}

/** Sign-in accepts an email address or a username, both case-insensitive. */
export async function findAccountByLogin(db: Database, login: string): Promise<Account | undefined> {
  const value = login.trim();
  if (!value) return undefined;
  const column = value.includes('@') ? accounts.email : accounts.username;
  const rows = await db.select().from(accounts).where(sql`lower(${column}) = lower(${value})`);
  return rows[0];
}

export async function findAccountById(db: Database, id: string): Promise<Account | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const rows = await db.select().from(accounts).where(eq(accounts.id, id));
  return rows[0];
}

/** Checks the credentials; answers the account or undefined, never which part was wrong. */
export async function authenticate(db: Database, login: string, password: string): Promise<Account | undefined> {
  const account = await findAccountByLogin(db, login);
  if (!account) {
    // Spend the same time as a real check so response timing does not reveal unknown accounts.
    await verifyPassword(DUMMY_HASH, password);
    return undefined;
  }
  return (await verifyPassword(account.passwordHash, password)) ? account : undefined;
}

const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export async function changePassword(
  db: Database,
  accountId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const account = await findAccountById(db, accountId);
  if (!account) throw new AccountError('ACCOUNT_NOT_FOUND', 'Account not found');
  if (!(await verifyPassword(account.passwordHash, input.currentPassword))) {
    throw new AccountError('ACCOUNT_PASSWORD_INCORRECT', 'The current password is incorrect', 'currentPassword');
  }
  if (!isStrongPassword(input.newPassword)) {
    throw new AccountError('ACCOUNT_PASSWORD_WEAK', 'The password does not follow the password rule', 'newPassword');
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.update(accounts).set({ passwordHash, updatedAt: new Date() }).where(eq(accounts.id, accountId));
}

export async function setAccountLocale(db: Database, accountId: string, locale: string): Promise<void> {
  await db.update(accounts).set({ locale, updatedAt: new Date() }).where(eq(accounts.id, accountId));
}

const zOrganizationName = z.string().trim().min(1).max(120);
const zOrganizationDescription = z.string().trim().max(1000);

/** Creates an organization and makes the account its owner, in one transaction. */
export async function createAccountOrganization(
  db: Database,
  input: { accountId: string; name: string; description?: string | null },
): Promise<AccountOrganization> {
  const name = zOrganizationName.safeParse(input.name);
  if (!name.success) throw new AccountError('ORGANIZATION_INVALID_INPUT', 'Organization name is required', 'name');
  const description = zOrganizationDescription.safeParse(input.description ?? '');
  if (!description.success) {
    throw new AccountError('ORGANIZATION_INVALID_INPUT', 'Description is too long', 'description');
  }
  const account = await findAccountById(db, input.accountId);
  if (!account) throw new AccountError('ACCOUNT_NOT_FOUND', 'Account not found');
  // PGlite is one connection: only the transaction handle is used inside.
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(accountOrganizations)
      .values({ name: name.data, description: description.data || null, createdBy: account.id })
      .returning({
        id: accountOrganizations.id,
        name: accountOrganizations.name,
        description: accountOrganizations.description,
      });
    if (!organization) throw new Error('Organization insert returned no row');
    await tx
      .insert(accountMemberships)
      .values({ accountId: account.id, organizationId: organization.id, role: 'owner' });
    return organization;
  });
}

export async function listAccountOrganizations(db: Database, accountId: string): Promise<AccountOrganization[]> {
  if (!z.uuid().safeParse(accountId).success) return [];
  return db
    .select({
      id: accountOrganizations.id,
      name: accountOrganizations.name,
      description: accountOrganizations.description,
    })
    .from(accountMemberships)
    .innerJoin(accountOrganizations, and(eq(accountOrganizations.id, accountMemberships.organizationId)))
    .where(eq(accountMemberships.accountId, accountId))
    .orderBy(asc(accountMemberships.createdAt), asc(accountOrganizations.name));
}
