import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derToP1363, nodeSigner } from './key-store.ts';

describe('the organization key signer (node:crypto)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signer = nodeSigner(privateKey.export({ format: 'jwk' }) as JsonWebKey);

  it('writes ES256 signatures as r||s that WebCrypto and node:crypto accept, short r and s included', async () => {
    const webKey = await crypto.subtle.importKey(
      'jwk',
      publicKey.export({ format: 'jwk' }) as JsonWebKey,
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    let padded = 0;
    for (let i = 0; i < 1500; i++) {
      const input = `header.payload-${i}`;
      const signature = Buffer.from(await signer.sign(input), 'base64url');
      expect(signature.length).toBe(64);
      // r or s below 2^248 (a leading zero byte): the DER integer was shorter than 32 bytes.
      if (signature[0] === 0 || signature[32] === 0) padded += 1;
      const data = Buffer.from(input);
      expect(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, webKey, signature, data)).toBe(true);
      expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    }
    // 3,000 integers, each under 2^248 with probability 1/256: some were (the chance of none is ≈ 10^-5).
    expect(padded).toBeGreaterThan(0);
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const cose = await signer.signBytes(bytes);
    expect(cose.length).toBe(64);
    expect(verify('sha256', bytes, { key: publicKey, dsaEncoding: 'ieee-p1363' }, cose)).toBe(true);
  });

  it('converts exactly what Node converts itself', () => {
    for (let i = 0; i < 300; i++) {
      const der = sign('sha256', Buffer.from(`input ${i}`), privateKey);
      const p1363 = derToP1363(der);
      // Node's own P1363 → DER of our r||s gives back the same DER: same integers.
      expect(verify('sha256', Buffer.from(`input ${i}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, p1363)).toBe(
        true,
      );
    }
  });

  it('refuses anything but a minimal DER SEQUENCE of two positive integers of at most 32 bytes', () => {
    const int = (bytes: number[]) => [0x02, bytes.length, ...bytes];
    const seq = (...parts: number[][]) => {
      const body = parts.flat();
      return Uint8Array.from([0x30, body.length, ...body]);
    };
    const r = Array.from({ length: 32 }, (_, i) => i + 1);
    const s = Array.from({ length: 32 }, (_, i) => 64 - i);
    expect(Buffer.from(derToP1363(seq(int(r), int(s)))).toString('hex')).toBe(
      Buffer.from([...r, ...s]).toString('hex'),
    );
    expect(Buffer.from(derToP1363(seq(int([0x00, 0x80, ...r.slice(1)]), int([7])))).subarray(0, 33)).toEqual(
      Buffer.from([0x80, ...r.slice(1), 0]),
    );
    const refused = [
      Uint8Array.from([0x31, 6, ...int([1]), ...int([1])]), // not a SEQUENCE
      Uint8Array.from([...seq(int(r), int(s)), 0]), // a trailing byte
      seq(int(r)), // one integer
      seq(int(r), int(s), int([1])), // three
      seq(int([0x80, ...r.slice(1)]), int(s)), // negative
      seq(int([0x00, 0x01, ...r.slice(2)]), int(s)), // a leading zero not needed
      seq(int([0x01, ...r]), int(s)), // 33 bytes of value
      seq([0x03, 1, 1], int(s)), // not an INTEGER
      seq([0x02, 0], int(s)), // empty
      Uint8Array.from([0x30, 0x45, ...int(r), ...int(s)]), // a length beyond the end
    ];
    for (const der of refused) expect(() => derToP1363(der)).toThrow('Not a DER ECDSA P-256 signature');
  });
});
