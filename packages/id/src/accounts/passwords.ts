import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost parameters (RFC 7914): N=2^15, r=8, p=1, about 32 MiB of memory per hash. */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) is just too small for N=2^15. */
const maxmemFor = (n: number, r: number) => 128 * n * r * 2;

function derive(password: string, salt: Buffer, n: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { N: n, r, p, maxmem: maxmemFor(n, r) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (salt and hash in base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, N, R, P, KEY_LENGTH);
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Compares in constant time; a malformed stored hash simply does not verify. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const cost = Number(n);
  const blockSize = Number(r);
  const parallel = Number(p);
  if (![cost, blockSize, parallel].every((v) => Number.isInteger(v) && v > 0) || cost > 2 ** 20) return false;
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length === 0) return false;
  const actual = await derive(password, Buffer.from(salt, 'base64url'), cost, blockSize, parallel, expected.length);
  return timingSafeEqual(actual, expected);
}
