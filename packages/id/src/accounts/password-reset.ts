import { createHash, randomBytes } from 'node:crypto';
import { isStrongPassword } from '@cp/contracts';
import { type Database, schema } from '@cp/db';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { AccountError } from './account-error.ts';
import type { Account } from './accounts.service.ts';
import { hashPassword } from './passwords.ts';

const { accounts, passwordResets } = schema;

/** A reset link works for 30 minutes (OWASP Forgot Password Cheat Sheet: short-lived, single use). */
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;
/** At most one reset e-mail a minute per account, however many times the form is sent. */
export const PASSWORD_RESET_INTERVAL_MS = 60 * 1000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');
/** 256 random bits, base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Issues a single-use reset token for the account and invalidates its older pending links, or answers undefined
 * when a link was issued less than a minute ago. Only the token's SHA-256 is stored.
 */
export async function issuePasswordReset(
  db: Database,
  account: Account,
  now = Date.now(),
): Promise<string | undefined> {
  const token = randomBytes(32).toString('base64url');
  // PGlite is one connection: only the transaction handle is used inside.
  const issued = await db.transaction(async (tx) => {
    // The account row lock serializes two requests for one account, so the one-a-minute check holds.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id)).for('update');
    const [latest] = await tx
      .select({ createdAt: passwordResets.createdAt })
      .from(passwordResets)
      .where(eq(passwordResets.accountId, account.id))
      .orderBy(desc(passwordResets.createdAt))
      .limit(1);
    if (latest && now - latest.createdAt.getTime() < PASSWORD_RESET_INTERVAL_MS) return false;
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date(now) })
      .where(and(eq(passwordResets.accountId, account.id), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({
      accountId: account.id,
      tokenHash: hash(token),
      createdAt: new Date(now),
      expiresAt: new Date(now + PASSWORD_RESET_TTL_MS),
    });
    return true;
  });
  return issued ? token : undefined;
}

/** The account a pending, unexpired link belongs to (without using the link up), or undefined. */
export async function findPasswordReset(db: Database, token: string): Promise<Account | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const [row] = await db
    .select({ account: accounts })
    .from(passwordResets)
    .innerJoin(accounts, eq(accounts.id, passwordResets.accountId))
    .where(
      and(
        eq(passwordResets.tokenHash, hash(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, new Date()),
      ),
    );
  return row?.account;
}

/**
 * Sets the new password through a pending link: the link is used up in the same transaction (so a link works once
 * even when sent twice at the same time), and every other pending link of the account stops working. Answers the
 * account, or undefined for an unknown, used or expired link. Signs nobody in.
 */
export async function completePasswordReset(
  db: Database,
  token: string,
  newPassword: string,
): Promise<Account | undefined> {
  if (!isStrongPassword(newPassword)) {
    throw new AccountError('ACCOUNT_PASSWORD_WEAK', 'The password does not follow the password rule', 'newPassword');
  }
  if (!TOKEN.test(token)) return undefined;
  // Hash first: scrypt takes a while and must not hold the transaction open.
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResets.tokenHash, hash(token)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, new Date()),
        ),
      )
      .returning({ accountId: passwordResets.accountId });
    if (!used) return undefined;
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.accountId, used.accountId), isNull(passwordResets.usedAt)));
    const [account] = await tx
      .update(accounts)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(accounts.id, used.accountId))
      .returning();
    return account;
  });
}
