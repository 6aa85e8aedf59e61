import { createHash, randomInt } from 'node:crypto';
import { type Database, type SecretBox, schema } from '@cp/db';
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Account } from './accounts.service.ts';

const { accounts, accountRecoveryCodes } = schema;

/** RFC 6238 §4 / Google Authenticator's defaults, which every authenticator app reads: SHA-1, 6 digits, 30 s. */
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** RFC 6238 §5.2: one time step either side absorbs clock drift and the time it takes to type the code. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** RFC 4226 §4 R6: a shared secret of at least 128 bits; 160 bits is the length of the SHA-1 block output. */
const SECRET_BYTES = 20;
/** Recovery codes: 10 characters of an unambiguous 32-letter alphabet (50 bits), shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
/** The ciphertext is bound to its account: a secret copied onto another account's row does not open. */
const boxName = (accountId: string) => `account-totp:${accountId}`;

function totpFor(secretBase32: string, label = 'account', issuer = 'Account center') {
  return new TOTP({
    issuer,
    label,
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The RFC 6238 time step of a moment (T = floor((now - T0) / X), T0 = 0). */
export const timeStep = (timestampMs: number) => Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS);

/** The code of a secret at a moment (for tests and for the e2e journey, which computes codes like an app does). */
export function totpCode(secretBase32: string, timestampMs = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: timestampMs });
}

/**
 * The time step a code belongs to within ±TOTP_WINDOW of `timestampMs`, or undefined. Codes are compared by
 * otpauth in constant time.
 */
export function matchTotpStep(secretBase32: string, code: string, timestampMs = Date.now()): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpFor(secretBase32).validate({ token, timestamp: timestampMs, window: TOTP_WINDOW });
  return delta === null ? undefined : timeStep(timestampMs) + delta;
}

/** The secret in groups of four for typing into an app by hand. */
export const groupSecret = (secretBase32: string) => secretBase32.match(/.{1,4}/g)?.join(' ') ?? secretBase32;

/** The Key Uri Format authenticator apps read from the QR code (otpauth://totp/Issuer:account?secret=…). */
export function totpUri(secretBase32: string, o: { issuer: string; accountName: string }): string {
  return totpFor(secretBase32, o.accountName, o.issuer).toString();
}

export const isTwoFactorEnabled = (account: Pick<Account, 'totpEnabledAt' | 'totpSecretCiphertext'>) =>
  account.totpEnabledAt !== null && account.totpSecretCiphertext !== null;

function openSecret(box: SecretBox, account: Pick<Account, 'id' | 'totpSecretCiphertext'>): string | undefined {
  if (!account.totpSecretCiphertext) return undefined;
  return box.open(account.totpSecretCiphertext, boxName(account.id));
}

/**
 * The secret being set up: the one already pending (so reloading the page keeps the QR code the person may have
 * scanned), or a new one, stored encrypted with `totp_enabled_at` still null. Undefined when two-step is on.
 */
export async function beginTotpSetup(db: Database, box: SecretBox, account: Account): Promise<string | undefined> {
  if (isTwoFactorEnabled(account)) return undefined;
  const pending = openSecret(box, account);
  if (pending) return pending;
  const secret = new Secret({ size: SECRET_BYTES }).base32;
  const [row] = await db
    .update(accounts)
    .set({ totpSecretCiphertext: box.seal(secret, boxName(account.id)), totpLastStep: null, updatedAt: new Date() })
    // Only while nothing is stored: two tabs starting at once end with one secret (the loser reads it back).
    .where(and(eq(accounts.id, account.id), isNull(accounts.totpSecretCiphertext)))
    .returning({ id: accounts.id });
  if (row) return secret;
  const [current] = await db.select().from(accounts).where(eq(accounts.id, account.id));
  return current && !isTwoFactorEnabled(current) ? openSecret(box, current) : undefined;
}

/**
 * Accepts a TOTP code once: the step it belongs to must be later than the last accepted one, recorded in the same
 * statement (RFC 6238 §5.2: "the verifier MUST NOT accept the second attempt of the OTP after the successful
 * validation has been issued for the first OTP"). Two requests with one code: one wins.
 */
async function acceptStep(db: Database, accountId: string, step: number, extra: { enable?: boolean } = {}) {
  const rows = await db
    .update(accounts)
    .set({
      totpLastStep: step,
      ...(extra.enable ? { totpEnabledAt: new Date() } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(accounts.id, accountId),
        isNotNull(accounts.totpSecretCiphertext),
        extra.enable ? isNull(accounts.totpEnabledAt) : isNotNull(accounts.totpEnabledAt),
        or(isNull(accounts.totpLastStep), lt(accounts.totpLastStep, step)),
      ),
    )
    .returning({ id: accounts.id });
  return rows.length === 1;
}

/**
 * Turns two-step sign-in on once the person proves the app holds the pending secret; answers the recovery codes
 * (shown once) or undefined for a wrong, replayed or late code.
 */
export async function confirmTotpSetup(
  db: Database,
  box: SecretBox,
  accountId: string,
  code: string,
  now = Date.now(),
): Promise<string[] | undefined> {
  // The pending secret as stored now (another tab may have started the set-up).
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account || isTwoFactorEnabled(account)) return undefined;
  const secret = openSecret(box, account);
  const step = secret ? matchTotpStep(secret, code, now) : undefined;
  if (step === undefined || !(await acceptStep(db, account.id, step, { enable: true }))) return undefined;
  return replaceRecoveryCodes(db, account.id);
}

/** Checks a sign-in (or turning-off) code of an account with two-step on; each code works once. */
export async function verifyTotp(
  db: Database,
  box: SecretBox,
  account: Account,
  code: string,
  now = Date.now(),
): Promise<boolean> {
  if (!isTwoFactorEnabled(account)) return false;
  const secret = openSecret(box, account);
  const step = secret ? matchTotpStep(secret, code, now) : undefined;
  return step !== undefined && acceptStep(db, account.id, step);
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What the person typed, as stored: lower case, without spaces and hyphens. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

/** A new set of recovery codes replaces the old one (every old code stops working); stored as SHA-256 only. */
export async function replaceRecoveryCodes(db: Database, accountId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.delete(accountRecoveryCodes).where(eq(accountRecoveryCodes.accountId, accountId));
    await tx
      .insert(accountRecoveryCodes)
      .values([...new Set(codes)].map((code) => ({ accountId, codeHash: sha256(normalizeRecoveryCode(code)) })));
  });
  return codes;
}

/** Uses up one recovery code (atomically: a code works once even when sent twice at the same time). */
export async function useRecoveryCode(db: Database, account: Account, code: string): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (!isTwoFactorEnabled(account) || normalized.length !== RECOVERY_LENGTH) return false;
  const rows = await db
    .update(accountRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(accountRecoveryCodes.accountId, account.id),
        eq(accountRecoveryCodes.codeHash, sha256(normalized)),
        isNull(accountRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: accountRecoveryCodes.id });
  return rows.length === 1;
}

/** A six-digit code is checked against the app; anything else as a recovery code. */
export async function verifySecondFactor(
  db: Database,
  box: SecretBox,
  account: Account,
  code: string,
): Promise<'totp' | 'recovery' | undefined> {
  const trimmed = code.trim();
  if (/^\d{3}\s?\d{3}$/.test(trimmed)) return (await verifyTotp(db, box, account, trimmed)) ? 'totp' : undefined;
  return (await useRecoveryCode(db, account, trimmed)) ? 'recovery' : undefined;
}

export async function countUnusedRecoveryCodes(db: Database, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(accountRecoveryCodes)
    .where(and(eq(accountRecoveryCodes.accountId, accountId), isNull(accountRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/** Turns two-step sign-in off: the secret, its last step and the recovery codes are removed. */
export async function disableTwoFactor(db: Database, accountId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({ totpSecretCiphertext: null, totpEnabledAt: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(accounts.id, accountId));
    await tx.delete(accountRecoveryCodes).where(eq(accountRecoveryCodes.accountId, accountId));
  });
}
