import { type Database, schema } from '@cp/db';
import {
  AccountError,
  createAccount,
  createAccountOrganization,
  findAccountByEmail,
  markEmailVerified,
} from '@cp/id/accounts';
import { eq } from 'drizzle-orm';
import { AppError, type ErrorCode, errorStatus } from '../../errors/app-error.ts';
import * as organizationsService from '../organizations/organizations.service.ts';

/** The account center's errors, as API problems with the same codes. */
async function asAppError<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof AccountError) {
      const code = (err.code in errorStatus ? err.code : 'REQUEST_INVALID') as ErrorCode;
      throw new AppError(code, { detail: err.message, cause: err });
    }
    throw err;
  }
}

export interface AdminDeps {
  db: Database;
  /** Issuer of the bundled account center, or undefined when an external provider is used. */
  accountCenterIssuer: string | undefined;
}

export interface CreateUserInput {
  email: string;
  password: string;
  username?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/** Creates an account in the bundled account center (users of external providers sign up there). */
export async function createUser(deps: AdminDeps, input: CreateUserInput) {
  if (!deps.accountCenterIssuer) {
    throw new AppError('CONFLICT', {
      detail: 'Users come from the external identity provider; create them there.',
    });
  }
  const account = await asAppError(() =>
    createAccount(deps.db, {
      email: input.email,
      password: input.password,
      username:
        input.username ??
        input.email
          .split('@')[0]!
          .replace(/[^a-zA-Z0-9_.-]/g, '')
          .slice(0, 30),
      firstName: input.firstName ?? input.email.split('@')[0]!,
      lastName: input.lastName ?? '',
      // The operator vouches for the address: it may name a platform administrator (ADMIN_EMAILS).
      emailVerified: true,
    }),
  );
  return { id: account.id, email: account.email, username: account.username };
}

/**
 * Marks an account's address verified in the bundled account center (for an administrator who signed up
 * by themselves); it counts from their next sign-in.
 */
export async function verifyUserEmail(deps: AdminDeps, email: string) {
  if (!deps.accountCenterIssuer) {
    throw new AppError('CONFLICT', {
      detail: 'Users come from the external identity provider; it decides whether an address is verified.',
    });
  }
  const account = await markEmailVerified(deps.db, email);
  if (!account) throw new AppError('USER_NOT_FOUND', { detail: 'No account has this e-mail address.' });
  return { id: account.id, email: account.email, email_verified: true };
}

export interface CreateOrganizationInput {
  name: string;
  description?: string | undefined;
  memberEmail: string;
  verified?: boolean;
}

/**
 * Creates an organization with a member. With the bundled account center the organization lives
 * there (it reaches the console through the sign-in claims) and is mirrored here at once, so its API
 * id is known right away; otherwise it is a console organization of an existing user.
 */
export async function createOrganization(deps: AdminDeps, input: CreateOrganizationInput) {
  const status = input.verified
    ? { verificationStatus: 'APPROVED', verifiedAt: new Date() }
    : { verificationStatus: 'UNDEFINED', verifiedAt: null };
  if (deps.accountCenterIssuer) {
    const account = await findAccountByEmail(deps.db, input.memberEmail);
    if (!account) throw new AppError('USER_NOT_FOUND', { detail: `No account with e-mail ${input.memberEmail}.` });
    const external = await asAppError(() =>
      createAccountOrganization(deps.db, {
        accountId: account.id,
        name: input.name,
        description: input.description ?? null,
      }),
    );
    const organization = await organizationsService.insertOrganization(deps.db, {
      name: input.name,
      description: input.description ?? null,
      issuer: deps.accountCenterIssuer,
      externalId: external.id,
      ...status,
    });
    const [user] = await deps.db.select().from(schema.users).where(eq(schema.users.subject, account.id));
    if (user && user.issuer === deps.accountCenterIssuer) {
      await organizationsService.insertMembership(deps.db, {
        organizationId: organization.id,
        userId: user.id,
        source: 'provider',
        role: 'admin',
      });
    }
    return organization;
  }
  const [user] = await deps.db.select().from(schema.users).where(eq(schema.users.email, input.memberEmail));
  if (!user) {
    throw new AppError('USER_NOT_FOUND', {
      detail: `No user with e-mail ${input.memberEmail} has signed in yet.`,
    });
  }
  const organization = await organizationsService.insertOrganization(deps.db, {
    name: input.name,
    description: input.description ?? null,
    ...status,
  });
  await organizationsService.insertMembership(deps.db, {
    organizationId: organization.id,
    userId: user.id,
    source: 'local',
    role: 'admin',
  });
  return organization;
}

export async function listOrganizations(deps: AdminDeps) {
  const rows = await organizationsService.listAllOrganizations(deps.db);
  return rows.map((r) => ({ id: r.id, name: r.name, verified: r.verifiedAt !== null }));
}
