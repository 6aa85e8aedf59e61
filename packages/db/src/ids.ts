import { randomFillSync } from 'node:crypto';

/** Random bytes drawn 4 KiB at a time: one system call serves 256 ids. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/**
 * A UUID version 7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then 74 random bits. Rows keyed by
 * it land at the right edge of their primary-key b-tree and next to each other in the list indexes whose last
 * key is `id`, instead of on a random leaf page each: on `credentials`, a bulk insert spends about a quarter
 * less PostgreSQL CPU per row (bench/RESULTS.md, issue 16). 74 random bits keep an id unguessable where it is
 * a link (the holder page `/credentials/{id}/connect`, rate-limited per address); the time it carries is the
 * creation time, which whoever holds the link already knows.
 */
export function uuidv7(now = Date.now()): string {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  pool.fill(0, poolOffset, poolOffset + 16); // a drawn value is never left behind for a later reader
  poolOffset += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
