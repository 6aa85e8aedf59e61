import { type Cipheriv, createCipheriv, createHash } from 'node:crypto';

/**
 * A keyed pseudorandom permutation of [0, domain): the position-th credential of a list gets index
 * shuffle(position), so a list's indexes are handed out in an order only the key (the list's secret `seed`)
 * predicts. Token Status List (draft-ietf-oauth-status-list, Privacy Considerations) asks issuers not to
 * allocate indexes sequentially: a sequential index tells a relying party when, relative to others, the
 * credential was issued, and links credentials issued together. Being a permutation, it never gives one index
 * twice (the draft's "Default Values and Double Allocation": the Issuer MUST prevent double allocation), and a
 * counter of positions is all the state allocation needs.
 *
 * Construction (the shape of NIST SP 800-38G's FF1, without its tweak and radix machinery): a balanced Feistel
 * network of 10 rounds over the smallest even number of bits covering the domain, whose round function is
 * AES-128 (key: SHA-256 of a label and the seed) over (round, bit width, half block), walked again while the
 * value falls outside the domain ("cycle walking": a permutation of the bigger power of two restricted to the
 * domain stays a permutation; at most 4× the domain, so at most ~4 walks on average). With a pseudorandom
 * round function, Luby–Rackoff makes the whole a pseudorandom permutation: without the seed, the order of
 * indexes says nothing about the order of issuance.
 *
 * The permutation is part of every list's state (positions already handed out map through it): changing it
 * for existing lists would hand out indexes twice.
 */
export function statusListShuffle(seed: string, domain: number): (position: number) => number {
  const feistel = new Feistel(seed, domain);
  return (position: number) => {
    checkPosition(position, domain);
    return feistel.shuffle(Uint32Array.of(position))[0]!;
  };
}

/** shuffle(from) … shuffle(to - 1) of `statusListShuffle(seed, domain)`, computed together (one AES call per round). */
export function statusListShuffleRange(seed: string, domain: number, from: number, to: number): number[] {
  if (to <= from) return [];
  checkPosition(from, domain);
  checkPosition(to - 1, domain);
  const positions = new Uint32Array(to - from);
  for (let i = 0; i < positions.length; i += 1) positions[i] = from + i;
  return Array.from(feistelOf(seed, domain).shuffle(positions));
}

/** A few lists' networks kept (an issuance takes one of an organization's few open lists): no key setup per call. */
const recent = new Map<string, Feistel>();
function feistelOf(seed: string, domain: number) {
  const key = `${domain}:${seed}`;
  let feistel = recent.get(key);
  if (feistel) {
    recent.delete(key);
  } else {
    feistel = new Feistel(seed, domain);
    if (recent.size >= 256) recent.delete(recent.keys().next().value!);
  }
  recent.set(key, feistel);
  return feistel;
}

const ROUNDS = 10;
const KEY_LABEL = 'cp status list permutation v1\0';

function checkPosition(position: number, domain: number) {
  if (!Number.isInteger(position) || position < 0 || position >= domain) throw new RangeError('position');
}

class Feistel {
  readonly #domain: number;
  readonly #bits: number;
  readonly #half: number;
  readonly #mask: number;
  readonly #cipher: Cipheriv;

  constructor(seed: string, domain: number) {
    if (!Number.isInteger(domain) || domain < 1 || domain > 2 ** 30) throw new RangeError('domain');
    let bits = Math.max(2, Math.ceil(Math.log2(domain)));
    if (bits % 2 === 1) bits += 1;
    this.#domain = domain;
    this.#bits = bits;
    this.#half = bits / 2;
    this.#mask = 2 ** this.#half - 1;
    const key = createHash('sha256').update(KEY_LABEL).update(seed).digest().subarray(0, 16);
    // ECB over independent one-block inputs: each block is one evaluation of the round function (no chaining).
    this.#cipher = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  }

  /** Maps every value in place, cycle walking those that land outside the domain. */
  shuffle(values: Uint32Array): Uint32Array {
    let pending = values.map((_, i) => i);
    while (pending.length > 0) {
      const subset = pending.map((i) => values[i]!);
      this.#permute(subset);
      const next: number[] = [];
      pending.forEach((i, k) => {
        values[i] = subset[k]!;
        if (subset[k]! >= this.#domain) next.push(i);
      });
      pending = Uint32Array.from(next);
    }
    return values;
  }

  /** One pass of the Feistel network over every value (values < 2^bits). */
  #permute(values: Uint32Array) {
    const n = values.length;
    const left = new Uint32Array(n);
    const right = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) {
      left[i] = Math.floor(values[i]! / 2 ** this.#half);
      right[i] = values[i]! & this.#mask;
    }
    const blocks = Buffer.alloc(16 * n);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let i = 0; i < n; i += 1) {
        blocks.writeUInt8(round, 16 * i);
        blocks.writeUInt8(this.#bits, 16 * i + 1);
        blocks.writeUInt32BE(right[i]!, 16 * i + 2);
      }
      const out = this.#cipher.update(blocks);
      for (let i = 0; i < n; i += 1) {
        const next = (left[i]! ^ out.readUInt32BE(16 * i)) & this.#mask;
        left[i] = right[i]!;
        right[i] = next;
      }
    }
    for (let i = 0; i < n; i += 1) values[i] = left[i]! * 2 ** this.#half + right[i]!;
  }
}
