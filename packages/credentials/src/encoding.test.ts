import { describe, expect, it } from 'vitest';
import { randomBytes } from './encoding.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('randomBytes', () => {
  it('hands out each byte of its pool once: 3,000 salts over several refills, none repeated', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const salt = randomBytes(16);
      expect(salt).toHaveLength(16);
      seen.add(hex(salt));
    }
    expect(seen.size).toBe(3000);
  });

  it('answers copies: changing one does not change what is handed out next', () => {
    const first = randomBytes(32);
    first.fill(7);
    const next = randomBytes(32);
    expect(hex(next)).not.toBe(hex(first));
    expect(next.byteOffset).toBe(0);
    expect(next.buffer.byteLength).toBe(32);
  });

  it('serves random bytes, not the zeroes it leaves in its pool (every byte value, about evenly)', () => {
    const counts = new Array<number>(256).fill(0);
    const draws = [16, 32, 4, 1000, 7, 1025, 16];
    let total = 0;
    while (total < 256 * 400) {
      for (const length of draws) {
        for (const byte of randomBytes(length)) counts[byte]! += 1;
        total += length;
      }
    }
    const expected = total / 256;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 255 degrees of freedom: the 99.99th percentile is about 360. All zeroes would give 255 * total / 256.
    expect(chiSquare).toBeLessThan(400);
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });
});
