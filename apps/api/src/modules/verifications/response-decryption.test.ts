import {
  createCipheriv,
  createHash,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { CompactEncrypt, compactDecrypt, importJWK, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { decryptEcdhEsJwe, generateResponseKey, responseDecryptionKey } from './response-decryption.ts';

/**
 * The wallet's encrypted response is decrypted on node:crypto (response-decryption.ts): what wallets send (jose,
 * as the platform's own wallet) must open, and everything an attacker may send instead must be refused, as
 * jose's compactDecrypt refused it.
 */

const CONTENT = ['A128GCM', 'A256GCM'];
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const json = (value: unknown) => b64(JSON.stringify(value));
const plaintext = JSON.stringify({ vp_token: { credential: ['eyJ...~'] }, state: 's-1' });

function recipient() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateJwk = privateKey.export({ format: 'jwk' }) as JsonWebKey;
  return { privateJwk, publicJwk: publicKey.export({ format: 'jwk' }) as JsonWebKey, publicKey };
}

/** What a wallet sends: jose's CompactEncrypt, ECDH-ES. */
async function walletEncrypt(publicJwk: JsonWebKey, enc = 'A128GCM', extra: Record<string, unknown> = {}) {
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'ECDH-ES', enc, kid: 'k-1', ...extra })
    .encrypt(await importJWK(publicJwk as JWK, 'ECDH-ES'));
}

/**
 * A JWE built by hand so that any header can be signed into the AAD: ECDH-ES with a fresh ephemeral key (or the
 * given epk), Concat KDF, AES-GCM.
 */
function forge(
  recipientKey: KeyObject,
  header: Record<string, unknown>,
  options: { encryptedKey?: string; ivBytes?: number; tagBytes?: number; keyBits?: number } = {},
) {
  const ephemeral = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const epk = ephemeral.publicKey.export({ format: 'jwk' });
  const fullHeader: Record<string, unknown> = { alg: 'ECDH-ES', enc: 'A128GCM', epk, ...header };
  const encodedHeader = json(fullHeader);
  const keyBits = options.keyBits ?? (fullHeader.enc === 'A256GCM' ? 256 : 128);
  const z = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipientKey });
  const prefixed = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const bits = Buffer.alloc(4);
  bits.writeUInt32BE(keyBits);
  const party = (value: unknown) => (typeof value === 'string' ? Buffer.from(value, 'base64url') : Buffer.alloc(0));
  const cek = createHash('sha256')
    .update(
      Buffer.concat([
        Buffer.from([0, 0, 0, 1]),
        z,
        prefixed(Buffer.from(String(fullHeader.enc))),
        prefixed(party(fullHeader.apu)),
        prefixed(party(fullHeader.apv)),
        bits,
      ]),
    )
    .digest()
    .subarray(0, keyBits / 8);
  const iv = randomBytes(options.ivBytes ?? 12);
  const cipher = createCipheriv(`aes-${keyBits}-gcm` as 'aes-128-gcm', cek, iv, {
    authTagLength: options.tagBytes ?? 16,
  });
  cipher.setAAD(Buffer.from(encodedHeader));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return `${encodedHeader}.${options.encryptedKey ?? ''}.${b64(iv)}.${b64(ciphertext)}.${b64(cipher.getAuthTag())}`;
}

const ours = async (jwe: string, privateJwk: JsonWebKey) => {
  try {
    return (await decryptEcdhEsJwe(jwe, responseDecryptionKey(privateJwk), CONTENT)).plaintext.toString('utf8');
  } catch {
    return undefined;
  }
};
const jose = async (jwe: string, privateJwk: JsonWebKey) => {
  try {
    const { plaintext: bytes } = await compactDecrypt(jwe, await importJWK(privateJwk as JWK, 'ECDH-ES'), {
      keyManagementAlgorithms: ['ECDH-ES'],
      contentEncryptionAlgorithms: CONTENT,
    });
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
};

describe('the encrypted response (ECDH-ES, A128GCM / A256GCM) on node:crypto', () => {
  it('opens what wallets send, with A128GCM and A256GCM, with and without apu/apv', async () => {
    const { privateJwk, publicJwk } = recipient();
    for (const jwe of [
      await walletEncrypt(publicJwk),
      await walletEncrypt(publicJwk, 'A256GCM'),
      await walletEncrypt(publicJwk, 'A128GCM', { apu: b64('wallet'), apv: b64('verifier nonce') }),
    ]) {
      expect(await ours(jwe, privateJwk)).toBe(plaintext);
      expect(await jose(jwe, privateJwk)).toBe(plaintext);
    }
    // The hand-made JWEs below are right when nothing is wrong with them.
    const { publicKey } = recipient();
    const other = recipient();
    const forged = forge(other.publicKey, {});
    expect(await ours(forged, other.privateJwk)).toBe(plaintext);
    expect(await jose(forged, other.privateJwk)).toBe(plaintext);
    expect(await ours(forge(publicKey, {}), other.privateJwk)).toBeUndefined();
  });

  it('refuses a response encrypted to another key', async () => {
    const attempt = recipient();
    const other = recipient();
    const jwe = await walletEncrypt(other.publicJwk);
    expect(await ours(jwe, attempt.privateJwk)).toBeUndefined();
  });

  it('refuses other key management and content encryption: an encrypted key, A192GCM, CBC-HMAC, dir, RSA', async () => {
    const { privateJwk, publicJwk, publicKey } = recipient();
    const wrapped = await new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader({ alg: 'ECDH-ES+A128KW', enc: 'A128GCM' })
      .encrypt(await importJWK(publicJwk as JWK, 'ECDH-ES+A128KW'));
    const cbc = await walletEncrypt(publicJwk, 'A128CBC-HS256');
    const cases = [
      wrapped,
      cbc,
      forge(publicKey, { enc: 'A192GCM' }, { keyBits: 192 }),
      forge(publicKey, { alg: 'dir' }),
      forge(publicKey, { alg: 'RSA-OAEP' }),
      forge(publicKey, { alg: 'ECDH-ES+A128KW' }),
      forge(publicKey, { alg: undefined }),
      forge(publicKey, { enc: undefined }),
      // Direct agreement carries no encrypted key: one sent anyway is refused.
      forge(publicKey, {}, { encryptedKey: b64(randomBytes(16)) }),
    ];
    for (const jwe of cases) {
      expect(await ours(jwe, privateJwk), jwe.slice(0, 60)).toBeUndefined();
      expect(await jose(jwe, privateJwk)).toBeUndefined();
    }
  });

  it('refuses zip and any crit, even when the header is authenticated', async () => {
    const { privateJwk, publicKey } = recipient();
    for (const header of [
      { zip: 'DEF' },
      { crit: ['exp'], exp: 1 },
      { crit: ['b64'], b64: true },
      { crit: [] },
      { crit: 'x' },
    ]) {
      const jwe = forge(publicKey, header);
      expect(await ours(jwe, privateJwk), JSON.stringify(header)).toBeUndefined();
    }
  });

  it('refuses an epk off the curve, of another curve or type, with private members, or missing', async () => {
    const { privateJwk, publicKey } = recipient();
    const valid = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const epk = valid.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const y = Buffer.from(epk.y, 'base64url');
    y[31] = (y[31] ?? 0) ^ 1;
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    const x25519 = generateKeyPairSync('x25519').publicKey.export({ format: 'jwk' });
    const epks: unknown[] = [
      // The invalid-curve attack: a point that is not on P-256.
      { kty: 'EC', crv: 'P-256', x: epk.x, y: b64(y) },
      { kty: 'EC', crv: 'P-256', x: epk.x, y: b64(Buffer.alloc(32)) },
      { kty: 'EC', crv: 'P-256', x: epk.x },
      { kty: 'EC', crv: 'P-256', x: epk.x, y: epk.y.slice(1) },
      { ...valid.privateKey.export({ format: 'jwk' }) },
      p384,
      x25519,
      { kty: 'oct', k: b64(randomBytes(16)) },
      'epk',
      null,
      [],
    ];
    for (const value of epks) {
      const jwe = forge(publicKey, { epk: value });
      expect(await ours(jwe, privateJwk), JSON.stringify(value)).toBeUndefined();
      expect(await jose(jwe, privateJwk)).toBeUndefined();
    }
    expect(await ours(forge(publicKey, {}), privateJwk)).toBe(plaintext);
  });

  it('refuses equal apu and apv, and non-string or non-base64url party info', async () => {
    const { privateJwk, publicKey } = recipient();
    for (const header of [
      { apu: b64('same'), apv: b64('same') },
      { apu: 7 },
      { apv: { a: 1 } },
      { apu: 'not base64url!' },
    ]) {
      const jwe = forge(publicKey, header);
      expect(await ours(jwe, privateJwk), JSON.stringify(header)).toBeUndefined();
      expect(await jose(jwe, privateJwk)).toBeUndefined();
    }
  });

  it('refuses a changed header, IV, ciphertext or tag, and IVs or tags of other lengths', async () => {
    const { privateJwk, publicJwk, publicKey } = recipient();
    const jwe = await walletEncrypt(publicJwk);
    const [h, k, iv, ct, tag] = jwe.split('.') as [string, string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return b64(bytes);
    };
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>;
    const cases = [
      // The protected header is the additional authenticated data: the same keys under another encoding fail.
      `${json({ ...header, kid: 'k-2' })}.${k}.${iv}.${ct}.${tag}`,
      `${json(header)} .${k}.${iv}.${ct}.${tag}`,
      `${h}.${k}.${flip(iv)}.${ct}.${tag}`,
      `${h}.${k}.${iv}.${flip(ct)}.${tag}`,
      `${h}.${k}.${iv}.${ct}.${flip(tag)}`,
      `${h}.${k}.${iv}.${ct}.${b64(Buffer.from(tag, 'base64url').subarray(0, 12))}`,
      `${h}.${k}.${iv}.${ct}.`,
      `${h}.${k}..${ct}.${tag}`,
      forge(publicKey, {}, { ivBytes: 16 }),
      forge(publicKey, {}, { tagBytes: 12 }),
    ];
    for (const bad of cases) {
      expect(await ours(bad, privateJwk), bad.slice(-40)).toBeUndefined();
      expect(await jose(bad, privateJwk)).toBeUndefined();
    }
    expect(await ours(jwe, privateJwk)).toBe(plaintext);
  });

  it('refuses malformed compact serializations and headers', async () => {
    const { privateJwk, publicJwk } = recipient();
    const jwe = await walletEncrypt(publicJwk);
    const parts = jwe.split('.');
    const cases = [
      parts.slice(0, 4).join('.'),
      `${jwe}.`,
      `.${parts.slice(1).join('.')}`,
      `${b64('not json')}.${parts.slice(1).join('.')}`,
      `${b64('[1]')}.${parts.slice(1).join('.')}`,
      `${b64(Buffer.from([0x7b, 0xff, 0x7d]))}.${parts.slice(1).join('.')}`,
      `${parts[0]}=.${parts.slice(1).join('.')}`,
      jwe.replace('.', '.+'),
      '',
    ];
    for (const bad of cases) {
      expect(await ours(bad, privateJwk), bad.slice(0, 40)).toBeUndefined();
    }
  });

  it('never opens a tampered response that jose refuses, and opens the rest to the same plaintext', async () => {
    const { privateJwk, publicJwk } = recipient();
    const jwe = await walletEncrypt(publicJwk, 'A256GCM');
    for (let i = 0; i < 40; i++) {
      const at = (i * 37) % jwe.length;
      const replaced = jwe[at] === 'A' ? 'B' : 'A';
      const bad = jwe.slice(0, at) + replaced + jwe.slice(at + 1);
      const expected = await jose(bad, privateJwk);
      const actual = await ours(bad, privateJwk);
      // Only a change of a part's unused last bits leaves the bytes, and so the plaintext, as they were.
      if (expected === undefined) expect(actual, `at ${at}`).toBeUndefined();
      else expect([expected, undefined], `at ${at}`).toContain(actual);
    }
  });

  it('imports only P-256 private keys for the response', () => {
    expect(() => responseDecryptionKey(recipient().publicJwk)).toThrow();
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as JsonWebKey;
    expect(() => responseDecryptionKey(ed)).toThrow();
    expect(responseDecryptionKey(recipient().privateJwk).asymmetricKeyType).toBe('ec');
    expect(createPublicKey(responseDecryptionKey(recipient().privateJwk)).type).toBe('public');
  });
});

describe('attempt keys (generateResponseKey)', () => {
  it('generates a P-256 pair whose stored JWK opens what the kept KeyObject opens', async () => {
    const key = await generateResponseKey();
    expect(key.publicJwk).toEqual({ kty: 'EC', crv: 'P-256', x: key.privateJwk.x, y: key.privateJwk.y });
    const jwe = await walletEncrypt(key.publicJwk);
    // What another process reads from the database opens what this one would with the kept key (response-memory.ts).
    expect((await decryptEcdhEsJwe(jwe, key.privateKey, CONTENT)).plaintext.toString('utf8')).toBe(plaintext);
    expect(await ours(jwe, key.privateJwk)).toBe(plaintext);
  });
});
