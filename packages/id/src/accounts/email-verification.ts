import { createHash, randomBytes } from 'node:crypto';
import { type Database, schema } from '@cp/db';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Account } from './accounts.service.ts';

const { accounts, nonces } = schema;

export const EMAIL_VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_VERIFICATION_INTERVAL_MS = 60 * 1000;

const hash = (value: string) => createHash('sha256').update(value).digest('base64url');
/** Bound to the address: a link sent to an old address does nothing once the address changes. */
const purposeFor = (accountId: string, email: string) => `email-verify:${accountId}:${email.trim().toLowerCase()}`;
const TOKEN = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

/**
 * Creates a single-use confirmation token for the account's current address, or answers `undefined` when one
 * was already sent in the last minute. Only the token's hash is stored (in `nonces`).
 */
export async function issueEmailVerification(db: Database, account: Account): Promise<string | undefined> {
  // One row per account works as the throttle: the upsert takes it only when the previous one has expired,
  // and the row lock makes two simultaneous requests answer one token, not two.
  const throttleUntil = new Date(Date.now() + EMAIL_VERIFICATION_INTERVAL_MS);
  const taken = await db
    .insert(nonces)
    .values({
      nonceHash: hash(`email-verify-throttle:${account.id}`),
      purpose: `email-verify-throttle:${account.id}`,
      expiresAt: throttleUntil,
    })
    .onConflictDoUpdate({
      target: nonces.nonceHash,
      set: { expiresAt: throttleUntil, createdAt: sql`now()` },
      setWhere: sql`${nonces.expiresAt} <= now()`,
    })
    .returning({ hash: nonces.nonceHash });
  if (taken.length === 0) return undefined;

  const token = `${account.id}.${randomBytes(32).toString('base64url')}`;
  await db.insert(nonces).values({
    nonceHash: hash(token),
    purpose: purposeFor(account.id, account.email),
    expiresAt: new Date(Date.now() + EMAIL_VERIFICATION_TTL_MS),
  });
  return token;
}

/**
 * Consumes a confirmation token and marks the address verified; answers the account, or `undefined` for a
 * malformed, forged, expired, used or outdated (the address changed since) token.
 */
export async function confirmEmailVerification(db: Database, token: string): Promise<Account | undefined> {
  const match = TOKEN.exec(token);
  const accountId = match?.[1];
  if (!accountId || !z.uuid().safeParse(accountId).success) return undefined;
  // PGlite is one connection: only the transaction handle is used inside.
  return db.transaction(async (tx) => {
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, accountId));
    if (!account) return undefined;
    const [consumed] = await tx
      .update(nonces)
      .set({ consumedAt: new Date() })
      .where(
        and(
          eq(nonces.nonceHash, hash(token)),
          eq(nonces.purpose, purposeFor(account.id, account.email)),
          isNull(nonces.consumedAt),
          gt(nonces.expiresAt, new Date()),
        ),
      )
      .returning({ hash: nonces.nonceHash });
    if (!consumed) return undefined;
    const [verified] = await tx
      .update(accounts)
      .set({ emailVerifiedAt: sql`coalesce(${accounts.emailVerifiedAt}, now())`, updatedAt: new Date() })
      .where(and(eq(accounts.id, account.id), sql`lower(${accounts.email}) = lower(${account.email})`))
      .returning();
    return verified;
  });
}
