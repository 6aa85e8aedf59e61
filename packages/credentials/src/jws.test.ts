import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { compactVerify, importJWK, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { base64url } from './encoding.ts';
import {
  generateEs256KeyPair,
  signerFromPrivateJwk,
  signJwt,
  verifyJwtSignature,
  verifyJwtSignatureWebCrypto,
} from './jws.ts';

/**
 * verifyJwtSignature checks JWS itself (node:crypto on Node, WebCrypto in a browser): an attacker's token must be
 * refused on both paths, exactly as jose's compactVerify refused it, and stricter where jws.ts says so.
 */

const ec = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, jwk: publicKey.export({ format: 'jwk' }) as JsonWebKey };
};
const ed = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, jwk: publicKey.export({ format: 'jwk' }) as JsonWebKey };
};

const part = (value: unknown) => base64url(JSON.stringify(value));
const payload = part({ iss: 'https://issuer.example', nonce: 'n-1' });

/** A compact JWS over `header.payload`, signed as asked (whatever the header claims). */
function jws(
  header: Record<string, unknown>,
  key: KeyObject,
  how: 'es256' | 'es256-der' | 'eddsa' = 'es256',
  body = payload,
  encodedHeader = part(header),
) {
  const input = Buffer.from(`${encodedHeader}.${body}`);
  const signature =
    how === 'eddsa'
      ? sign(null, input, key)
      : sign('sha256', input, { key, dsaEncoding: how === 'es256' ? 'ieee-p1363' : 'der' });
  return `${encodedHeader}.${body}.${base64url(signature)}`;
}

const both = async (jwt: string, jwk: JsonWebKey) => [
  await verifyJwtSignature(jwt, jwk),
  await verifyJwtSignatureWebCrypto(jwt, jwk),
];

/** What jose's compactVerify answered with the options jws.ts used before it checked JWS itself. */
async function jose(jwt: string, jwk: JsonWebKey) {
  try {
    const publicOnly = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } as JWK;
    const key = await importJWK(publicOnly, jwk.kty === 'OKP' ? 'EdDSA' : 'ES256');
    await compactVerify(jwt, key, { algorithms: ['ES256', 'EdDSA', 'Ed25519'] });
    return true;
  } catch {
    return false;
  }
}

describe('verifyJwtSignature', () => {
  it('accepts ES256 with its P-256 key and EdDSA / Ed25519 with its Ed25519 key, as jose does', async () => {
    const p256 = ec();
    const ed25519 = ed();
    const cases: [string, JsonWebKey][] = [
      [jws({ alg: 'ES256', typ: 'kb+jwt' }, p256.privateKey), p256.jwk],
      [jws({ alg: 'EdDSA' }, ed25519.privateKey, 'eddsa'), ed25519.jwk],
      [jws({ alg: 'Ed25519' }, ed25519.privateKey, 'eddsa'), ed25519.jwk],
    ];
    for (const [jwt, jwk] of cases) {
      expect(await both(jwt, jwk)).toEqual([true, true]);
      expect(await jose(jwt, jwk)).toBe(true);
    }
  });

  it('accepts what this package signs (WebCrypto signer), and a JWK that also carries private members', async () => {
    const { privateJwk, publicJwk } = await generateEs256KeyPair();
    const jwt = await signJwt(await signerFromPrivateJwk(privateJwk), { typ: 'JWT' }, { a: 1 });
    expect(await both(jwt, publicJwk)).toEqual([true, true]);
    expect(await both(jwt, privateJwk)).toEqual([true, true]);
  });

  it('refuses a header whose alg is not the key’s: ES256 with an Ed25519 key, EdDSA with a P-256 key', async () => {
    const p256 = ec();
    const ed25519 = ed();
    // Signed correctly for the key's real algorithm, but the header names the other one.
    const esHeaderEdKey = jws({ alg: 'ES256' }, ed25519.privateKey, 'eddsa');
    const edHeaderEcKey = jws({ alg: 'EdDSA' }, p256.privateKey);
    const ed25519HeaderEcKey = jws({ alg: 'Ed25519' }, p256.privateKey);
    expect(await both(esHeaderEdKey, ed25519.jwk)).toEqual([false, false]);
    expect(await both(edHeaderEcKey, p256.jwk)).toEqual([false, false]);
    expect(await both(ed25519HeaderEcKey, p256.jwk)).toEqual([false, false]);
    expect(await jose(esHeaderEdKey, ed25519.jwk)).toBe(false);
    expect(await jose(edHeaderEcKey, p256.jwk)).toBe(false);
  });

  it('refuses other algorithms: none, HS256, RS256, ES384, ES256K, a missing or non-string alg', async () => {
    const p256 = ec();
    for (const alg of ['none', 'HS256', 'RS256', 'ES384', 'ES256K', 'es256', '', undefined, 7, ['ES256']]) {
      const jwt = jws(alg === undefined ? {} : { alg }, p256.privateKey);
      expect(await both(jwt, p256.jwk), String(alg)).toEqual([false, false]);
    }
    expect(await both(`${part({ alg: 'none' })}.${payload}.`, p256.jwk)).toEqual([false, false]);
  });

  it('refuses a signature by another key, and a token changed after signing', async () => {
    const p256 = ec();
    const other = ec();
    const jwt = jws({ alg: 'ES256' }, other.privateKey);
    expect(await both(jwt, p256.jwk)).toEqual([false, false]);
    const good = jws({ alg: 'ES256' }, p256.privateKey);
    const [h, , s] = good.split('.');
    const tamperedPayload = `${h}.${part({ iss: 'https://issuer.example', nonce: 'n-2' })}.${s}`;
    expect(await both(tamperedPayload, p256.jwk)).toEqual([false, false]);
    const tamperedHeader = `${part({ alg: 'ES256', typ: 'other' })}.${payload}.${s}`;
    expect(await both(tamperedHeader, p256.jwk)).toEqual([false, false]);
    const ed25519 = ed();
    const otherEd = ed();
    expect(await both(jws({ alg: 'EdDSA' }, otherEd.privateKey, 'eddsa'), ed25519.jwk)).toEqual([false, false]);
  });

  it('refuses a DER-encoded, truncated, extended, zero or non-canonically encoded signature', async () => {
    const p256 = ec();
    const der = jws({ alg: 'ES256' }, p256.privateKey, 'es256-der');
    expect(await both(der, p256.jwk)).toEqual([false, false]);
    // A signature with a URL-safe character, so that its standard base64 spelling below is another string (ECDSA
    // signatures are randomized: about 1 in 15 has neither '-' nor '_').
    let good = jws({ alg: 'ES256' }, p256.privateKey);
    while (!/[-_]/.test(good.split('.')[2]!)) good = jws({ alg: 'ES256' }, p256.privateKey);
    const [h, p, s] = good.split('.') as [string, string, string];
    const bytes = Buffer.from(s, 'base64url');
    const variants = [
      base64url(bytes.subarray(0, 63)),
      base64url(Buffer.concat([bytes, Buffer.from([0])])),
      base64url(Buffer.alloc(64)),
      // The same 64 bytes with the unused low bits of the last character set: another string, refused.
      s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1),
      `${s}==`,
      s.replaceAll('-', '+').replaceAll('_', '/'),
      '',
    ];
    for (const signature of variants) {
      expect(await both(`${h}.${p}.${signature}`, p256.jwk), signature).toEqual([false, false]);
    }
    expect(await both(good, p256.jwk)).toEqual([true, true]);
  });

  it('accepts valid ES256 signatures whatever their r and s (leading zero bytes, high bits), refuses r or s of 0 or n', async () => {
    const p256 = ec();
    let leadingZero = 0;
    let highBit = 0;
    for (let i = 0; i < 5000 && (leadingZero < 2 || highBit < 2); i++) {
      const jwt = jws({ alg: 'ES256', i }, p256.privateKey);
      const signature = Buffer.from(jwt.split('.')[2]!, 'base64url');
      const zero = signature[0] === 0 || signature[32] === 0;
      const high = (signature[0]! & 0x80) !== 0 && (signature[32]! & 0x80) !== 0;
      if (!zero && !high && i > 20) continue;
      if (zero) leadingZero++;
      if (high) highBit++;
      expect(await both(jwt, p256.jwk), jwt).toEqual([true, true]);
    }
    expect(leadingZero).toBeGreaterThanOrEqual(2);
    const good = jws({ alg: 'ES256' }, p256.privateKey);
    const [h, p, s] = good.split('.') as [string, string, string];
    const bytes = Buffer.from(s, 'base64url');
    const order = Buffer.from('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551', 'hex');
    for (const forged of [
      Buffer.concat([Buffer.alloc(32), bytes.subarray(32)]),
      Buffer.concat([bytes.subarray(0, 32), Buffer.alloc(32)]),
      Buffer.concat([order, bytes.subarray(32)]),
      Buffer.concat([bytes.subarray(0, 32), order]),
    ]) {
      expect(await both(`${h}.${p}.${base64url(forged)}`, p256.jwk)).toEqual([false, false]);
    }
  });

  it('refuses b64:false (unencoded payload, RFC 7797) even when signed over the raw payload and declared critical', async () => {
    const p256 = ec();
    const raw = '{"iss":"https://issuer.example"}';
    // What jose accepts: crit ["b64"], signed over `<header>.<raw payload>`; the compact form carries it raw.
    const header = { alg: 'ES256', b64: false, crit: ['b64'] };
    const encodedHeader = part(header);
    const signature = sign('sha256', Buffer.from(`${encodedHeader}.${raw}`), {
      key: p256.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    const unencoded = `${encodedHeader}.${raw}.${base64url(signature)}`;
    expect(await both(unencoded, p256.jwk)).toEqual([false, false]);
    // b64 false without crit, signed over the encoded payload (jose ignores b64 then): refused as well.
    expect(await both(jws({ alg: 'ES256', b64: false }, p256.privateKey), p256.jwk)).toEqual([false, false]);
    expect(await both(jws({ alg: 'ES256', b64: true, crit: ['b64'] }, p256.privateKey), p256.jwk)).toEqual([
      false,
      false,
    ]);
  });

  it('refuses any crit: unknown extensions, and crit of any shape', async () => {
    const p256 = ec();
    for (const crit of [['exp'], ['urn:example:ext'], [], 'exp', [''], null]) {
      const jwt = jws({ alg: 'ES256', crit, exp: 1, 'urn:example:ext': true }, p256.privateKey);
      expect(await both(jwt, p256.jwk), JSON.stringify(crit)).toEqual([false, false]);
    }
  });

  it('refuses malformed compact serializations', async () => {
    const p256 = ec();
    const good = jws({ alg: 'ES256' }, p256.privateKey);
    const [h, p, s] = good.split('.') as [string, string, string];
    const malformed: unknown[] = [
      `${h}.${p}`,
      `${h}.${p}.${s}.`,
      `${h}.${p}.${s}.${s}`,
      `.${p}.${s}`,
      // Characters outside base64url, padding, whitespace.
      `${h}=.${p}.${s}`,
      `${h}.${p}=.${s}`,
      `${h}.${p}+.${s}`,
      ` ${good}`,
      `${good}\n`,
      // A header that is not a JSON object, or not UTF-8.
      jws({}, p256.privateKey, 'es256', payload, base64url('not json')),
      jws({}, p256.privateKey, 'es256', payload, base64url('["ES256"]')),
      jws({}, p256.privateKey, 'es256', payload, base64url('null')),
      jws({}, p256.privateKey, 'es256', payload, base64url(Buffer.from([0x7b, 0xff, 0x7d]))),
      // A payload whose length cannot be base64url.
      jws({ alg: 'ES256' }, p256.privateKey, 'es256', 'abcde'),
      undefined,
      null,
      42,
      { protected: h, payload: p, signature: s },
    ];
    for (const jwt of malformed) {
      expect(await both(jwt as string, p256.jwk), String(jwt)).toEqual([false, false]);
    }
  });

  it('refuses keys that are not EC P-256 or Ed25519 public keys, off the curve, or shortened', async () => {
    const p256 = ec();
    const jwt = jws({ alg: 'ES256' }, p256.privateKey);
    const { x, y } = p256.jwk as { x: string; y: string };
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
    const offCurve = { ...p256.jwk, y: base64url(Buffer.from(y, 'base64url').map((b, i) => (i === 31 ? b ^ 1 : b))) };
    const keys: unknown[] = [
      { ...p256.jwk, crv: 'P-384' },
      { ...p256.jwk, kty: 'OKP' },
      { kty: 'EC', crv: 'P-256', x },
      { kty: 'EC', crv: 'P-256', x, y: y.slice(1) },
      { kty: 'EC', crv: 'P-256', x: `A${x}`, y },
      { kty: 'oct', k: base64url('secret') },
      offCurve,
      p384,
      rsa,
      {},
      null,
      'EC',
    ];
    for (const key of keys) {
      expect(await both(jwt, key as JsonWebKey), JSON.stringify(key)).toEqual([false, false]);
    }
    expect(await both(jwt, p256.jwk)).toEqual([true, true]);
  });

  it('answers as jose did for random tokens, keys and tamperings', async () => {
    const keys = [ec(), ec(), ed()];
    for (let i = 0; i < 30; i++) {
      const signer = keys[i % keys.length]!;
      const verifier = keys[(i * 7 + 1) % keys.length]!;
      const isEd = signer.jwk.kty === 'OKP';
      let jwt = jws(
        { alg: isEd ? (i % 2 ? 'EdDSA' : 'Ed25519') : 'ES256', i },
        signer.privateKey,
        isEd ? 'eddsa' : 'es256',
        part({ i }),
      );
      if (i % 5 === 0) jwt = jwt.slice(0, 10) + (jwt[10] === 'A' ? 'B' : 'A') + jwt.slice(11);
      const expected = await jose(jwt, verifier.jwk);
      expect(await both(jwt, verifier.jwk), `case ${i}`).toEqual([expected, expected]);
    }
  });
});
