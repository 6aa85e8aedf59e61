import { describe, expect, it } from 'vitest';
import { uuidv7 } from './ids.ts';

describe('uuidv7', () => {
  it('is a version-7, variant-10 UUID whose first 48 bits are the time in milliseconds', () => {
    const id = uuidv7(Date.UTC(2026, 10, 28, 12, 0, 0, 123));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 28, 12, 0, 0, 123));
  });

  it('orders by time, and ids of the same millisecond differ in their 74 random bits', () => {
    const earlier = uuidv7(1_000_000);
    const later = uuidv7(1_000_001);
    expect(earlier < later).toBe(true);
    const same = new Set(Array.from({ length: 10_000 }, () => uuidv7(1_000_000)));
    expect(same.size).toBe(10_000);
    // Every random bit position takes both values across the ids (no stuck bits from the pool).
    const randomBits = (id: string) => {
      const hex = id.replaceAll('-', '');
      const bits = BigInt(`0x${hex}`).toString(2).padStart(128, '0');
      return bits.slice(52, 64) + bits.slice(66); // rand_a (12) and rand_b (62)
    };
    const seen = Array.from({ length: 74 }, () => new Set<string>());
    for (const id of same) {
      [...randomBits(id)].forEach((bit, i) => {
        seen[i]!.add(bit);
      });
    }
    expect(seen.every((values) => values.size === 2)).toBe(true);
  });
});
