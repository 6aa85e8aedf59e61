import { createHash } from 'node:crypto';

/**
 * A keyed shuffle of [0, domain): the position-th credential of a list gets index shuffle(position), so a
 * list's indexes are handed out in an order only the key (the list's secret `seed`) predicts. Token Status
 * List (draft-ietf-oauth-status-list, Privacy Considerations) asks issuers not to allocate indexes
 * sequentially: a sequential index tells a relying party when, relative to others, the credential was issued,
 * and links credentials issued together. Being a permutation, it never gives one index twice (the draft's
 * "Default Values and Double Allocation": the Issuer MUST prevent double allocation), and a counter of
 * positions is all the state allocation needs.
 *
 * A balanced Feistel network over the smallest even number of bits covering the domain, walked again while
 * the value falls outside the domain ("cycle walking": a permutation of the bigger power of two restricted to
 * the domain stays a permutation; at most 4× the domain, so ~2 walks on average).
 */
export function statusListShuffle(seed: string, domain: number): (position: number) => number {
  if (!Number.isInteger(domain) || domain < 1 || domain > 2 ** 30) throw new RangeError('domain');
  let bits = Math.max(2, Math.ceil(Math.log2(domain)));
  if (bits % 2 === 1) bits += 1;
  const half = bits / 2;
  const mask = (1 << half) - 1;
  const digest = createHash('sha256').update(seed).digest();
  const keys = Array.from({ length: ROUNDS }, (_, r) => digest.readUInt32BE(r * 4));
  const permute = (value: number) => {
    let left = value >>> half;
    let right = value & mask;
    for (const key of keys) {
      const next = (left ^ roundFunction(right, key)) & mask;
      left = right;
      right = next;
    }
    return ((left << half) | right) >>> 0;
  };
  return (position: number) => {
    if (!Number.isInteger(position) || position < 0 || position >= domain) throw new RangeError('position');
    let value = permute(position);
    while (value >= domain) value = permute(value);
    return value;
  };
}

const ROUNDS = 6;

/** murmur3's 32-bit finalizer over the half block mixed with the round key. */
function roundFunction(value: number, key: number) {
  let h = (value ^ key) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
