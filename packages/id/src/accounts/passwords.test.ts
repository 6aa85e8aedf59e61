import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('password hashing', () => {
  it('stores scrypt$N$r$p$salt$hash with a random salt and verifies it', async () => {
    const hash = await hashPassword('Correct-Horse1');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await hashPassword('Correct-Horse1')).not.toBe(hash);
    expect(await verifyPassword(hash, 'Correct-Horse1')).toBe(true);
    expect(await verifyPassword(hash, 'correct-Horse1')).toBe(false);
  });

  it('does not verify against malformed or foreign hashes', async () => {
    expect(await verifyPassword('', 'x')).toBe(false);
    expect(await verifyPassword('bcrypt$2b$10$abc', 'x')).toBe(false);
    expect(await verifyPassword('scrypt$0$8$1$AAAA$AAAA', 'x')).toBe(false);
    expect(await verifyPassword('scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$', 'x')).toBe(false);
  });
});
