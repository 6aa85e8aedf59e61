import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from '../src/lib/crypto.ts';
import { issueNonce, readNonce } from '../src/modules/nonces/nonces.service.ts';

describe('hmacSha256 (platform keys as KeyObjects made once)', () => {
  it('is HMAC-SHA-256 under each key, never another key the cache has seen', () => {
    const first = randomBytes(32);
    const second = randomBytes(32);
    for (let round = 0; round < 2; round++) {
      for (const key of [first, second]) {
        expect(hmacSha256(key).update('pre-authorized-code:x').digest('base64url')).toBe(
          createHmac('sha256', key).update('pre-authorized-code:x').digest('base64url'),
        );
      }
    }
    // A different Buffer with the same bytes is the same key.
    expect(hmacSha256(Buffer.from(first)).update('a').digest('hex')).toBe(hmacSha256(first).update('a').digest('hex'));
    expect(hmacSha256(first).update('a').digest('hex')).not.toBe(hmacSha256(second).update('a').digest('hex'));
  });

  it('keeps a nonce bound to its key and purpose', () => {
    const key = randomBytes(32);
    const nonce = issueNonce(key, 'oid4vci:org', 300);
    expect(readNonce(key, 'oid4vci:org', nonce)).toBeDefined();
    expect(readNonce(randomBytes(32), 'oid4vci:org', nonce)).toBeUndefined();
    expect(readNonce(key, 'oid4vci:other', nonce)).toBeUndefined();
  });
});
