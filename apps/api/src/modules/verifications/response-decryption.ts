import {
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  diffieHellman,
  generateKeyPair,
  type KeyObject,
} from 'node:crypto';

/**
 * Decrypts the wallet's encrypted authorization response (`direct_post.jwt`, `dc_api.jwt`): a compact JWE made
 * with ECDH-ES, direct key agreement (RFC 7518 §4.6), and A128GCM or A256GCM (§5.3), to the attempt's P-256 key.
 *
 * On node:crypto rather than jose's compactDecrypt: jose runs it as six WebCrypto jobs (two key imports, the key
 * agreement, the Concat KDF's digest, the AES key import, the decryption), each dispatched to the thread pool and
 * awaited; at the verifier's rate that dispatch cost more than the cryptography (bench/RESULTS.md). Here the key
 * agreement, the costly step, is one job on the thread pool (off the event loop, which bounds a verifier process)
 * and the rest is synchronous. The primitives are OpenSSL's either way. As strict as jose's compactDecrypt with
 * `keyManagementAlgorithms: ['ECDH-ES']` and the content encryptions given, and stricter where noted:
 * - five base64url parts, a protected header that is a JSON object (UTF-8), no encrypted key (direct agreement);
 * - `alg` ECDH-ES only, `enc` one of those given; `zip` refused; `crit` refused whatever it names;
 * - `epk` an EC P-256 public key (no private members, full-length coordinates, on the curve: checked by the
 *   import) — another curve or key type is refused here (jose would fail later, at the key agreement);
 * - `apu`/`apv` strings in base64url when present, and not equal (as jose);
 * - a 96-bit IV and a 128-bit tag; the protected header is the additional authenticated data.
 * Throws on any problem; the caller answers one refusal whatever it was.
 */

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** A P-256 coordinate: 32 bytes, 43 base64url characters. */
const COORDINATE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
const PRIVATE_MEMBERS = ['d', 'k', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'priv'];
const CONTENT_KEY_BITS: Record<string, 128 | 256> = { A128GCM: 128, A256GCM: 256 };
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function decode(part: string, label: string): Buffer {
  if (!BASE64URL.test(part) || part.length % 4 === 1) throw new Error(`The JWE ${label} is not base64url`);
  return Buffer.from(part, 'base64url');
}

const lengthPrefixed = (bytes: Uint8Array) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return [length, bytes];
};

/**
 * Keys are imported from PEM strings built here, not from JWK objects: Node probes an object argument for a
 * KeyObject and a CryptoKey by throwing and catching, which costs as much as the import itself. The DER is the
 * fixed form of a P-256 key (the same bytes Node exports): SubjectPublicKeyInfo of an uncompressed point, and
 * PKCS #8 with the ECPrivateKey's scalar and public point. The import checks that a point is on the curve.
 */
const SPKI_P256 = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');
const PKCS8_P256 = Buffer.from('308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420', 'hex');
const PKCS8_P256_PUBLIC = Buffer.from('a144034200', 'hex');
const UNCOMPRESSED = Buffer.from([0x04]);
const pem = (label: string, der: Buffer) =>
  `-----BEGIN ${label}-----\n${der.toString('base64')}\n-----END ${label}-----\n`;

function coordinate(value: unknown, label: string): Buffer {
  if (typeof value !== 'string' || !COORDINATE.test(value)) throw new Error(`${label} is not a P-256 coordinate`);
  return Buffer.from(value, 'base64url');
}

/** A new attempt's P-256 key pair (on the thread pool), as a KeyObject and as the JWKs stored and published. */
export async function generateResponseKey(): Promise<{
  privateKey: KeyObject;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}> {
  const { privateKey, publicKey } = await new Promise<{ privateKey: KeyObject; publicKey: KeyObject }>(
    (resolve, reject) =>
      generateKeyPair('ec', { namedCurve: 'P-256' }, (error, publicKey, privateKey) =>
        error ? reject(error) : resolve({ privateKey, publicKey }),
      ),
  );
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, privateJwk: privateKey.export({ format: 'jwk' }), publicJwk: { kty, crv, x, y } };
}

/** The attempt's private key (a JWK with `d`), imported for the key agreement. */
export function responseDecryptionKey(privateJwk: JsonWebKey): KeyObject {
  if (privateJwk.kty !== 'EC' || privateJwk.crv !== 'P-256') {
    throw new Error('The response key is not a P-256 private key');
  }
  const der = Buffer.concat([
    PKCS8_P256,
    coordinate(privateJwk.d, 'd'),
    PKCS8_P256_PUBLIC,
    UNCOMPRESSED,
    coordinate(privateJwk.x, 'x'),
    coordinate(privateJwk.y, 'y'),
  ]);
  return createPrivateKey(pem('PRIVATE KEY', der));
}

/** ECDH on the thread pool (one job): the shared secret of `privateKey` and `publicKey`. */
const agree = (privateKey: KeyObject, publicKey: KeyObject) =>
  new Promise<Buffer>((resolve, reject) => {
    diffieHellman({ privateKey, publicKey }, (error, secret) => (error ? reject(error) : resolve(secret)));
  });

/** The plaintext of a compact ECDH-ES JWE encrypted to `privateKey` (see above). */
export async function decryptEcdhEsJwe(
  jwe: string,
  privateKey: KeyObject,
  contentEncryption: readonly string[],
): Promise<{ plaintext: Buffer; protectedHeader: Record<string, unknown> }> {
  const parts = jwe.split('.');
  if (parts.length !== 5) throw new Error('Not a compact JWE');
  const [encodedHeader, encryptedKey, encodedIv, encodedCiphertext, encodedTag] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (!encodedHeader) throw new Error('The JWE has no protected header');
  let header: unknown;
  try {
    header = JSON.parse(strictUtf8.decode(decode(encodedHeader, 'protected header')));
  } catch {
    throw new Error('The JWE protected header is invalid');
  }
  if (!isPlainObject(header)) throw new Error('The JWE protected header is invalid');
  if (header.crit !== undefined) throw new Error('No JWE extension is understood (crit)');
  if (header.zip !== undefined) throw new Error('Compressed JWEs are not accepted (zip)');
  if (header.alg !== 'ECDH-ES') throw new Error('The JWE alg is not ECDH-ES');
  const enc = header.enc;
  const keyBits = typeof enc === 'string' && contentEncryption.includes(enc) ? CONTENT_KEY_BITS[enc] : undefined;
  if (!keyBits || typeof enc !== 'string') throw new Error('The JWE enc is not accepted');
  // Direct key agreement: the content key is the agreed one, never sent.
  if (encryptedKey !== '') throw new Error('Unexpected JWE encrypted key');

  const epk = header.epk;
  if (!isPlainObject(epk) || PRIVATE_MEMBERS.some((member) => Object.hasOwn(epk, member))) {
    throw new Error('The JWE epk is missing or invalid');
  }
  if (epk.kty !== 'EC' || epk.crv !== 'P-256') throw new Error('The JWE epk is not a P-256 public key');
  // The import refuses a point that is not on the curve.
  const ephemeralKey = createPublicKey(
    pem('PUBLIC KEY', Buffer.concat([SPKI_P256, UNCOMPRESSED, coordinate(epk.x, 'epk x'), coordinate(epk.y, 'epk y')])),
  );
  const partyInfo = (name: 'apu' | 'apv') => {
    const value = header[name];
    if (value === undefined) return Buffer.alloc(0);
    if (typeof value !== 'string') throw new Error(`The JWE ${name} is invalid`);
    return decode(value, name);
  };
  const apu = partyInfo('apu');
  const apv = partyInfo('apv');
  if (header.apu !== undefined && header.apv !== undefined && apu.equals(apv)) {
    throw new Error('The JWE apu and apv must be distinct');
  }

  // RFC 7518 §4.6.2: Concat KDF (NIST SP 800-56A) with SHA-256; one round for 128 or 256 bits.
  const iv = decode(encodedIv, 'iv');
  const tag = decode(encodedTag, 'tag');
  if (iv.length !== 12) throw new Error('Invalid JWE initialization vector length');
  if (tag.length !== 16) throw new Error('Invalid JWE authentication tag length');
  const ciphertext = decode(encodedCiphertext, 'ciphertext');

  const sharedSecret = await agree(privateKey, ephemeralKey);
  const keyDataLength = Buffer.alloc(4);
  keyDataLength.writeUInt32BE(keyBits);
  const contentKey = createHash('sha256')
    .update(Buffer.from([0, 0, 0, 1]))
    .update(sharedSecret)
    .update(Buffer.concat([...lengthPrefixed(Buffer.from(enc)), ...lengthPrefixed(apu), ...lengthPrefixed(apv)]))
    .update(keyDataLength)
    .digest()
    .subarray(0, keyBits / 8);

  // A KeyObject: a Buffer key is probed for KeyObject and CryptoKey by throwing (see above), a KeyObject is not.
  const decipher = createDecipheriv(keyBits === 128 ? 'aes-128-gcm' : 'aes-256-gcm', createSecretKey(contentKey), iv, {
    authTagLength: 16,
  });
  decipher.setAAD(Buffer.from(encodedHeader, 'ascii'));
  decipher.setAuthTag(tag);
  const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return { plaintext, protectedHeader: header };
}
