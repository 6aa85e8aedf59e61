import { type Database, schema } from '@cp/db';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { randomToken, sha256 } from '../../lib/crypto.ts';

/** Issues a fresh single-use nonce for a purpose (e.g. `oid4vci:<org id>`); only its hash is stored. */
export async function issueNonce(db: Database, purpose: string, ttlSeconds: number): Promise<string> {
  const nonce = randomToken(24);
  await db.insert(schema.nonces).values({
    nonceHash: sha256(nonce),
    purpose,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return nonce;
}

/** Consumes a nonce once: false when unknown, for another purpose, expired or already used. */
export async function consumeNonce(db: Database, purpose: string, nonce: string): Promise<boolean> {
  const rows = await db
    .update(schema.nonces)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(schema.nonces.nonceHash, sha256(nonce)),
        eq(schema.nonces.purpose, purpose),
        isNull(schema.nonces.consumedAt),
        gt(schema.nonces.expiresAt, new Date()),
      ),
    )
    .returning({ hash: schema.nonces.nonceHash });
  return rows.length === 1;
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
