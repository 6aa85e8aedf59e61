import { base64url, decodeJson, fromBase64url } from './encoding.ts';

/**
 * A signing key held elsewhere (a key store, a KMS, WebCrypto in the wallet): this package never sees
 * private key material, it asks for signatures over JWS signing input.
 */
export interface JwsSigner {
  alg: 'ES256';
  /** Signs the JWS signing input; answers the base64url signature (IEEE P1363 r||s for ES256). */
  sign(signingInput: string): Promise<string>;
}

/** A signer over a private JWK with WebCrypto (tests, the wallet, the embedded key store). */
export async function signerFromPrivateJwk(jwk: JsonWebKey): Promise<JwsSigner> {
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  return {
    alg: 'ES256',
    async sign(signingInput) {
      const signature = await crypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        key,
        new TextEncoder().encode(signingInput),
      );
      return base64url(new Uint8Array(signature));
    },
  };
}

export async function generateEs256KeyPair(): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey }> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const { d: _d, key_ops: _ops, ext: _ext, ...publicJwk } = privateJwk;
  delete privateJwk.key_ops;
  delete privateJwk.ext;
  return { privateJwk, publicJwk };
}

/** Public part of an EC JWK (never carries `d`). */
export function publicJwk(jwk: JsonWebKey): JsonWebKey {
  if (jwk.kty !== 'EC' || !jwk.crv || !jwk.x || !jwk.y) throw new Error('Only EC public keys are supported');
  return { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y };
}

export async function signJwt(
  signer: JwsSigner,
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
): Promise<string> {
  const signingInput = `${base64url(JSON.stringify({ ...header, alg: signer.alg }))}.${base64url(JSON.stringify(payload))}`;
  return `${signingInput}.${await signer.sign(signingInput)}`;
}

export function decodeJwt<P = Record<string, unknown>>(jwt: string): { header: Record<string, unknown>; payload: P } {
  const [header, payload] = jwt.split('.');
  if (!header || !payload) throw new Error('Not a compact JWT');
  return { header: decodeJson(header), payload: decodeJson<P>(payload) };
}

/**
 * Signature checks (`verifyJwtSignature`): the one place every JWS of this platform is checked (presentations,
 * status lists, proofs, DPoP, wallet attestations, trusted lists, the wallet's own checks).
 *
 * The checks are done here rather than by jose's compactVerify: on Node, with node:crypto's `verify` over a cached
 * KeyObject, given a callback so that the elliptic-curve check runs on libuv's thread pool (one job) and not on the
 * event loop, which is what bounds a verifier process (bench/RESULTS.md). WebCrypto (what jose uses) also runs on
 * the thread pool but as several jobs with key objects and promises around each, and at the verifier's rate that
 * dispatch cost more than the check itself ("Presentations profiled again": WebCrypto jobs ≈ 17-20 % of the API's
 * CPU). The primitive is the same OpenSSL code either way; in a browser (the wallet) the same checks end in
 * `crypto.subtle.verify`.
 *
 * As strict as jose's compactVerify with `algorithms: ['ES256', 'EdDSA', 'Ed25519']`, and stricter where noted:
 * - three base64url parts (nothing outside the alphabet), a protected header that is a JSON object (UTF-8);
 * - `alg` ES256 with an EC P-256 key, EdDSA or Ed25519 with an OKP Ed25519 key: the header cannot choose
 *   another algorithm for the key, and no other algorithm or key type is accepted (`none`, HS256, RS256…);
 * - `crit`: refused whatever it names (no extension is understood here; jose would take `b64`);
 * - `b64`: refused when present (RFC 7797 unencoded payloads are never accepted);
 * - the signature exactly 64 bytes (P-256 r||s, IEEE P1363; Ed25519): a DER-encoded ECDSA signature is refused;
 * - keys: full-length coordinates only, on the curve (checked by the import), public members only.
 */

/** node:crypto's key import and verify when running on Node (see above), else undefined. */
interface NodeKey {
  readonly asymmetricKeyType?: string;
}
const nodeCrypto = (
  globalThis as {
    process?: {
      getBuiltinModule?(id: 'node:crypto'): {
        createPublicKey(pem: string): NodeKey;
        verify(
          algorithm: 'sha256' | null,
          data: Uint8Array,
          key: NodeKey,
          signature: Uint8Array,
          callback: (error: Error | null, valid: boolean) => void,
        ): void;
      };
    };
  }
).process?.getBuiltinModule?.('node:crypto');

type VerificationKeyType = 'EC' | 'OKP';
interface VerificationKey {
  kty: VerificationKeyType;
  /** A node:crypto KeyObject on Node, a WebCrypto CryptoKey (a promise of one) elsewhere. */
  key: NodeKey | Promise<CryptoKey>;
}

/**
 * Imported public keys by their public members: a verifier checks the same issuer keys again and again,
 * and importing one costs about as much as the signature check. Bounded; oldest out first.
 */
const verificationKeys = new Map<string, VerificationKey>();
const VERIFICATION_KEYS_MAX = 256;
/** A P-256 coordinate or an Ed25519 key: 32 bytes, 43 base64url characters. */
const COORDINATE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** The public key of a JWK usable here (EC P-256 or OKP Ed25519), or undefined. */
function verificationKey(jwk: JsonWebKey, nodeOnly: boolean): VerificationKey | undefined {
  let publicOnly: JsonWebKey;
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && COORDINATE.test(jwk.x ?? '') && COORDINATE.test(jwk.y ?? '')) {
    publicOnly = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
  } else if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && COORDINATE.test(jwk.x ?? '')) {
    publicOnly = { kty: 'OKP', crv: 'Ed25519', x: jwk.x! };
  } else {
    return undefined;
  }
  const kty = publicOnly.kty as VerificationKeyType;
  const native = nodeOnly && nodeCrypto !== undefined;
  const cacheKey = `${native ? 'n' : 'w'}.${kty}.${publicOnly.x}.${publicOnly.y ?? ''}`;
  const cached = verificationKeys.get(cacheKey);
  if (cached) return cached;
  let key: VerificationKey['key'];
  if (native) {
    try {
      // Throws for a point that is not on the curve.
      key = nodeCrypto.createPublicKey(spkiPem(publicOnly));
    } catch {
      return undefined;
    }
  } else {
    key = crypto.subtle.importKey(
      'jwk',
      publicOnly,
      kty === 'EC' ? { name: 'ECDSA', namedCurve: 'P-256' } : { name: 'Ed25519' },
      false,
      ['verify'],
    );
    key.catch(() => verificationKeys.delete(cacheKey));
  }
  const entry = { kty, key };
  verificationKeys.set(cacheKey, entry);
  if (verificationKeys.size > VERIFICATION_KEYS_MAX) {
    verificationKeys.delete(verificationKeys.keys().next().value as string);
  }
  return entry;
}

/**
 * The key as a PEM SubjectPublicKeyInfo, for node:crypto: its import from a string takes half the time of a JWK
 * object (Node probes an object for KeyObject and CryptoKey by throwing). Only the fixed prefixes of an uncompressed
 * P-256 point and of an Ed25519 key: the coordinates were checked to be 32 bytes each.
 */
const SPKI_PREFIX = { EC: '3059301306072a8648ce3d020106082a8648ce3d030107034200', OKP: '302a300506032b6570032100' };
function spkiPem(jwk: JsonWebKey): string {
  const key =
    jwk.kty === 'EC' ? [0x04, ...fromBase64url(jwk.x!), ...fromBase64url(jwk.y!)] : [...fromBase64url(jwk.x!)];
  const der = [...hexBytes(SPKI_PREFIX[jwk.kty as 'EC' | 'OKP']), ...key];
  return `-----BEGIN PUBLIC KEY-----\n${btoa(String.fromCharCode(...der))}\n-----END PUBLIC KEY-----\n`;
}
const hexBytes = (hex: string) => hex.match(/../g)!.map((byte) => Number.parseInt(byte, 16));

/**
 * An IEEE P1363 ECDSA signature (r || s, 32 bytes each) as DER, which node:crypto verifies with a bare KeyObject
 * (the `{key, dsaEncoding}` form costs as much again in Node's key probing). The same conversion Node does
 * itself for `ieee-p1363`: minimal positive INTEGERs in a SEQUENCE; r or s zero stays zero and fails.
 */
function p1363ToDer(signature: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const value = bytes.subarray(start);
    const pad = (value[0] ?? 0) & 0x80 ? [0] : [];
    return [0x02, pad.length + value.length, ...pad, ...value];
  };
  const r = integer(signature.subarray(0, 32));
  const s = integer(signature.subarray(32, 64));
  return Uint8Array.from([0x30, r.length + s.length, ...r, ...s]);
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextEncoder();
/** The key type each accepted `alg` needs. */
const ALGORITHM_KEY_TYPES: Record<string, VerificationKeyType> = { ES256: 'EC', EdDSA: 'OKP', Ed25519: 'OKP' };

/** What a compact JWS must be before its signature is checked (see above); undefined when it is refused. */
function signatureInput(
  jwt: unknown,
): { keyType: VerificationKeyType; signingInput: Uint8Array; signature: Uint8Array } | undefined {
  if (typeof jwt !== 'string') return undefined;
  const parts = jwt.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  if (!header || !BASE64URL.test(header) || !BASE64URL.test(payload) || payload.length % 4 === 1) return undefined;
  // 64 bytes: 86 base64url characters, no other encoding of the same bytes.
  if (signature.length !== 86 || !BASE64URL.test(signature) || !/[AQgw]$/.test(signature)) return undefined;
  let protectedHeader: unknown;
  try {
    protectedHeader = JSON.parse(strictUtf8.decode(fromBase64url(header)));
  } catch {
    return undefined;
  }
  if (!protectedHeader || typeof protectedHeader !== 'object' || Array.isArray(protectedHeader)) return undefined;
  const { alg, crit, b64 } = protectedHeader as { alg?: unknown; crit?: unknown; b64?: unknown };
  if (crit !== undefined || b64 !== undefined) return undefined;
  const keyType =
    typeof alg === 'string' && Object.hasOwn(ALGORITHM_KEY_TYPES, alg) ? ALGORITHM_KEY_TYPES[alg] : undefined;
  if (!keyType) return undefined;
  const signatureBytes = fromBase64url(signature);
  if (signatureBytes.length !== 64) return undefined;
  return {
    keyType,
    signingInput: utf8.encode(jwt.slice(0, header.length + 1 + payload.length)),
    signature: signatureBytes,
  };
}

async function checkJwtSignature(jwt: string, jwk: JsonWebKey, nodeOnly: boolean): Promise<boolean> {
  try {
    const input = signatureInput(jwt);
    if (!input || !jwk || typeof jwk !== 'object') return false;
    const verification = verificationKey(jwk, nodeOnly);
    // The header's algorithm must be the key's: no ES256 with an Ed25519 key, no EdDSA with a P-256 key.
    if (!verification || verification.kty !== input.keyType) return false;
    const { key } = verification;
    if (!(key instanceof Promise)) {
      const ec = input.keyType === 'EC';
      return await new Promise<boolean>((resolve) => {
        nodeCrypto!.verify(
          ec ? 'sha256' : null,
          input.signingInput,
          key,
          ec ? p1363ToDer(input.signature) : input.signature,
          (error, valid) => resolve(error === null && valid === true),
        );
      });
    }
    return await crypto.subtle.verify(
      input.keyType === 'EC' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'Ed25519' },
      await key,
      input.signature as BufferSource,
      input.signingInput as BufferSource,
    );
  } catch {
    return false;
  }
}

/** Checks a compact JWS signature with a public JWK; only ES256 (and EdDSA for did:key holders). See above. */
export function verifyJwtSignature(jwt: string, jwk: JsonWebKey): Promise<boolean> {
  return checkJwtSignature(jwt, jwk, true);
}

/** The same checks ending in WebCrypto, as in a browser (tests of that path on Node). */
export function verifyJwtSignatureWebCrypto(jwt: string, jwk: JsonWebKey): Promise<boolean> {
  return checkJwtSignature(jwt, jwk, false);
}
