import {
  createHash,
  createHmac,
  createSecretKey,
  type Hmac,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** KeyObjects of the platform's HMAC keys (never changed once read), by the Buffer they were made from. */
const hmacKeys = new WeakMap<Buffer, KeyObject>();

/**
 * HMAC-SHA-256 under one of the platform's keys (offer codes, nonces, issuer state). The key goes to node:crypto as
 * a KeyObject made once: given a Buffer, Node 24's createHmac first tries it as a KeyObject and then as a CryptoKey,
 * each try a brand check that throws and is caught, so one HMAC cost 12.8 µs against 1.9 µs (bench/RESULTS.md).
 */
export function hmacSha256(key: Buffer): Hmac {
  let keyObject = hmacKeys.get(key);
  if (!keyObject) {
    keyObject = createSecretKey(key);
    hmacKeys.set(key, keyObject);
  }
  return createHmac('sha256', keyObject);
}
