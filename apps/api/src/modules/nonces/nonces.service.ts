import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Database, schema } from '@cp/db';
import { hmacSha256, sha256 } from '../../lib/crypto.ts';

/**
 * Stateless single-use nonces (OpenID4VCI `c_nonce`): the nonce carries its expiry and a MAC over it, the
 * purpose (`oid4vci:<org id>`) and 16 random bytes, under a platform key shared by every API process. Issuing
 * one writes nothing; a nonce of another purpose, altered or expired, is refused without the database. Single
 * use is recorded when one is spent: its hash is inserted into `nonces` (primary key) by the statement that
 * spends it, so a second use finds the row (kept until the expiry, then deleted by maintenance, when the
 * nonce itself is refused as expired).
 */

const VERSION = 1;
const RANDOM_BYTES = 16;
const MAC_BYTES = 16;
/** version (1) + expiry in seconds (4) + random (16) + MAC (16) */
const NONCE_BYTES = 1 + 4 + RANDOM_BYTES + MAC_BYTES;

function mac(key: Buffer, purpose: string, body: Buffer) {
  return hmacSha256(key).update(`c_nonce:${purpose}:`).update(body).digest().subarray(0, MAC_BYTES);
}

/** A fresh nonce for `purpose`, valid `ttlSeconds`. */
export function issueNonce(key: Buffer, purpose: string, ttlSeconds: number): string {
  const body = Buffer.alloc(1 + 4 + RANDOM_BYTES);
  body.writeUInt8(VERSION, 0);
  body.writeUInt32BE(Math.floor(Date.now() / 1000) + ttlSeconds, 1);
  randomBytes(RANDOM_BYTES).copy(body, 5);
  return Buffer.concat([body, mac(key, purpose, body)]).toString('base64url');
}

/**
 * A nonce this platform issued for `purpose` and not yet expired: answers its expiry (the spent-nonce row is
 * kept until then), or undefined. Says nothing about single use: the caller spends it.
 */
export function readNonce(key: Buffer, purpose: string, nonce: string): { expiresAt: Date } | undefined {
  if (nonce.length !== Math.ceil((NONCE_BYTES * 4) / 3) || !/^[\w-]+$/.test(nonce)) return undefined;
  const bytes = Buffer.from(nonce, 'base64url');
  if (bytes.length !== NONCE_BYTES || bytes.readUInt8(0) !== VERSION) return undefined;
  const body = bytes.subarray(0, NONCE_BYTES - MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(NONCE_BYTES - MAC_BYTES), mac(key, purpose, body))) return undefined;
  const expiresAt = bytes.readUInt32BE(1);
  if (expiresAt * 1000 <= Date.now()) return undefined;
  return { expiresAt: new Date(expiresAt * 1000) };
}

/**
 * Records a value seen once (a DPoP proof's `jti`, RFC 9449 §11.1) until it expires: false when it was already
 * recorded for this purpose, i.e. a replay. One insert, atomic across processes.
 */
export async function recordOnce(db: Database, purpose: string, value: string, ttlSeconds: number): Promise<boolean> {
  const now = new Date();
  const rows = await db
    .insert(schema.nonces)
    .values({
      nonceHash: sha256(`${purpose}|${value}`),
      purpose,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      consumedAt: now,
    })
    .onConflictDoNothing()
    .returning({ hash: schema.nonces.nonceHash });
  return rows.length === 1;
}
