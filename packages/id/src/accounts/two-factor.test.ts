import { randomBytes } from 'node:crypto';
import { SecretBox, schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { HOTP, Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, openTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { createAccount, findAccountById } from './accounts.service.ts';
import {
  beginTotpSetup,
  confirmTotpSetup,
  countUnusedRecoveryCodes,
  disableTwoFactor,
  groupSecret,
  matchTotpStep,
  RECOVERY_CODE_COUNT,
  timeStep,
  totpCode,
  totpUri,
  useRecoveryCode,
  verifySecondFactor,
  verifyTotp,
} from './two-factor.ts';

/** RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890", 8 digits, X = 30 s. */
const RFC_SEED = Secret.fromUTF8('12345678901234567890').base32;
const RFC_VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('matches the Appendix B test vectors (SHA-1) with the library and settings used for sign-in', () => {
    for (const [seconds, expected] of RFC_VECTORS) {
      const eight = new TOTP({ algorithm: 'SHA1', digits: 8, period: 30, secret: Secret.fromBase32(RFC_SEED) });
      expect(eight.generate({ timestamp: seconds * 1000 })).toBe(expected);
      // Six digits are the same truncated value modulo 10^6 (RFC 4226 §5.3).
      expect(totpCode(RFC_SEED, seconds * 1000)).toBe(expected.slice(-6));
      expect(matchTotpStep(RFC_SEED, expected.slice(-6), seconds * 1000)).toBe(Math.floor(seconds / 30));
    }
    // The time step of T = 59 is 1 (T0 = 0, X = 30), as the RFC's table says (0x0000000000000001).
    expect(timeStep(59_000)).toBe(1);
    expect(new HOTP({ secret: Secret.fromBase32(RFC_SEED), digits: 8 }).generate({ counter: 1 })).toBe('94287082');
  });

  it('accepts one step either side and nothing further, and only six digits', () => {
    const now = 1_700_000_000_000;
    const secret = new Secret({ size: 20 }).base32;
    expect(matchTotpStep(secret, totpCode(secret, now - 30_000), now)).toBe(timeStep(now) - 1);
    expect(matchTotpStep(secret, totpCode(secret, now + 30_000), now)).toBe(timeStep(now) + 1);
    expect(matchTotpStep(secret, totpCode(secret, now - 60_000), now)).toBeUndefined();
    expect(matchTotpStep(secret, totpCode(secret, now + 60_000), now)).toBeUndefined();
    expect(matchTotpStep(secret, `${totpCode(secret, now)}0`, now)).toBeUndefined();
    expect(matchTotpStep(secret, 'abcdef', now)).toBeUndefined();
  });

  it('builds the otpauth:// URI apps read, and groups the key for typing', () => {
    const uri = new URL(totpUri('JBSWY3DPEHPK3PXP', { issuer: 'Account center', accountName: 'ada@example.com' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Account center:ada@example.com');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Account center',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(groupSecret('JBSWY3DPEHPK3PXPABCD')).toBe('JBSW Y3DP EHPK 3PXP ABCD');
  });
});

describe.each(databaseKinds)('two-step sign-in records on %s', (kind) => {
  let database: TestDatabase;
  const box = new SecretBox(randomBytes(32));
  let n = 0;
  const newAccount = async () => {
    n += 1;
    return createAccount(database.handle.db, {
      username: `totp${n}`,
      email: `totp${n}@example.com`,
      firstName: 'Tot',
      lastName: 'P',
      password: 'Correct-Horse1',
    });
  };
  const reload = async (id: string) => (await findAccountById(database.handle.db, id))!;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('stores the secret encrypted, keeps it while pending, and turns on only with a right code', async () => {
    const db = database.handle.db;
    const account = await newAccount();
    const secret = await beginTotpSetup(db, box, account);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const stored = await reload(account.id);
    expect(stored.totpSecretCiphertext).toEqual(expect.any(String));
    expect(stored.totpSecretCiphertext).not.toContain(secret!);
    expect(stored.totpEnabledAt).toBeNull();
    // Reloading the set-up page shows the same secret (the QR code may already be in the app).
    expect(await beginTotpSetup(db, box, stored)).toBe(secret);
    // Another account's box name does not open it (the ciphertext is bound to its account).
    expect(() => box.open(stored.totpSecretCiphertext!, 'account-totp:someone-else')).toThrow();

    expect(await confirmTotpSetup(db, box, account.id, '000000')).toBeUndefined();
    expect((await reload(account.id)).totpEnabledAt).toBeNull();
    const codes = await confirmTotpSetup(db, box, account.id, totpCode(secret!));
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes!) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await reload(account.id)).totpEnabledAt).toBeInstanceOf(Date);
    // Recovery codes are stored as SHA-256, never in clear.
    const rows = await db
      .select()
      .from(schema.accountRecoveryCodes)
      .where(eq(schema.accountRecoveryCodes.accountId, account.id));
    expect(rows).toHaveLength(RECOVERY_CODE_COUNT);
    for (const row of rows) expect(codes).not.toContain(row.codeHash);
    expect(await beginTotpSetup(db, box, await reload(account.id))).toBeUndefined();
  });

  it('accepts each time step once: a replayed code, or an older one, is refused', async () => {
    const db = database.handle.db;
    const account = await newAccount();
    const secret = (await beginTotpSetup(db, box, account))!;
    const now = Date.now();
    await confirmTotpSetup(db, box, account.id, totpCode(secret, now - 30_000), now);
    const on = await reload(account.id);
    // The set-up code's step is used: the same code does not sign in.
    expect(await verifyTotp(db, box, on, totpCode(secret, now - 30_000), now)).toBe(false);
    const code = totpCode(secret, now);
    expect(await verifyTotp(db, box, on, code, now)).toBe(true);
    expect(await verifyTotp(db, box, on, code, now)).toBe(false);
    expect((await reload(account.id)).totpLastStep).toBe(timeStep(now));
    // Two requests with the next code at the same time: exactly one wins.
    const next = totpCode(secret, now + 30_000);
    const results = await Promise.all([
      verifyTotp(db, box, on, next, now + 30_000),
      verifyTotp(db, box, on, next, now + 30_000),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('uses each recovery code once, in any case and with or without the hyphen', async () => {
    const db = database.handle.db;
    const account = await newAccount();
    const secret = (await beginTotpSetup(db, box, account))!;
    const codes = (await confirmTotpSetup(db, box, account.id, totpCode(secret)))!;
    const on = await reload(account.id);
    expect(await useRecoveryCode(db, on, codes[0]!.toUpperCase().replace('-', ' '))).toBe(true);
    expect(await useRecoveryCode(db, on, codes[0]!)).toBe(false);
    expect(await verifySecondFactor(db, box, on, codes[1]!)).toBe('recovery');
    expect(await verifySecondFactor(db, box, on, codes[1]!)).toBeUndefined();
    expect(await verifySecondFactor(db, box, on, 'aaaaa-aaaaa')).toBeUndefined();
    expect(await countUnusedRecoveryCodes(db, account.id)).toBe(RECOVERY_CODE_COUNT - 2);
    // Another account's code does nothing here.
    const other = await newAccount();
    const otherSecret = (await beginTotpSetup(db, box, other))!;
    const otherCodes = (await confirmTotpSetup(db, box, other.id, totpCode(otherSecret)))!;
    expect(await useRecoveryCode(db, on, otherCodes[0]!)).toBe(false);

    await disableTwoFactor(db, account.id);
    const off = await reload(account.id);
    expect(off).toMatchObject({ totpSecretCiphertext: null, totpEnabledAt: null, totpLastStep: null });
    expect(await countUnusedRecoveryCodes(db, account.id)).toBe(0);
    expect(await useRecoveryCode(db, off, codes[2]!)).toBe(false);
    expect(await verifyTotp(db, box, off, totpCode(secret))).toBe(false);
  });
});
