/** Node's Buffer when there is one (much faster than the portable code below), else undefined. */
const NodeBuffer = (
  globalThis as {
    Buffer?: {
      from(data: Uint8Array | string, encoding?: 'base64url' | 'utf8'): Uint8Array & { toString(e: string): string };
    };
  }
).Buffer;

/** base64url without padding (RFC 7515 §2), for Node and browsers alike. */
export function base64url(bytes: Uint8Array | string): string {
  if (NodeBuffer) return NodeBuffer.from(bytes).toString('base64url');
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  let binary = '';
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array {
  if (NodeBuffer) {
    // Buffer skips characters outside the alphabet; the portable path (atob) rejects them: so do we.
    if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.length % 4 === 1) throw new Error('Invalid base64url');
    const bytes = NodeBuffer.from(text, 'base64url');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const padded = text.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export const decodeJson = <T = Record<string, unknown>>(part: string): T =>
  JSON.parse(new TextDecoder().decode(fromBase64url(part))) as T;

/** node:crypto's hashing when running on Node (synchronous, far cheaper than a WebCrypto job per hash). */
const nodeCrypto = (
  globalThis as {
    process?: {
      getBuiltinModule?(id: 'node:crypto'): {
        createHash(alg: 'sha256'): { update(d: string | Uint8Array): { digest(): Uint8Array } };
      };
    };
  }
).process?.getBuiltinModule?.('node:crypto');

export async function sha256(data: string | Uint8Array | ArrayBuffer): Promise<Uint8Array> {
  if (nodeCrypto) {
    const digest = nodeCrypto
      .createHash('sha256')
      .update(data instanceof ArrayBuffer ? new Uint8Array(data) : data)
      .digest();
    return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
  }
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
}

/** Bytes drawn from the platform's CSPRNG at a time by randomBytes: one call serves 256 salts of 16 bytes. */
const RANDOM_POOL_BYTES = 4096;
let randomPool = new Uint8Array(0);
let randomOffset = 0;

/**
 * `length` fresh random bytes (the Web Crypto CSPRNG), served from a pool filled 4 KB at a time: a
 * credential's salts (one per disclosure or mdoc element) cost one call of the generator instead of one each,
 * at 2.5-3.5 µs a call on Node. Each byte is handed out once, and zeroed in the pool as it is. Lengths over
 * a quarter of the pool are drawn directly.
 */
export function randomBytes(length: number): Uint8Array {
  if (length > RANDOM_POOL_BYTES / 4) return crypto.getRandomValues(new Uint8Array(length));
  if (randomOffset + length > randomPool.length) {
    randomPool = crypto.getRandomValues(new Uint8Array(RANDOM_POOL_BYTES));
    randomOffset = 0;
  }
  const bytes = randomPool.slice(randomOffset, randomOffset + length);
  randomPool.fill(0, randomOffset, randomOffset + length);
  randomOffset += length;
  return bytes;
}
