import { compactVerify, importJWK, type JWK } from 'jose';
import { base64url, decodeJson } from './encoding.ts';

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
 * Imported public keys by their public members: a verifier checks the same issuer keys again and again,
 * and importing one costs about as much as the signature check. Bounded; oldest out first.
 */
const verificationKeys = new Map<string, ReturnType<typeof importJWK>>();
const VERIFICATION_KEYS_MAX = 256;

function verificationKey(jwk: JsonWebKey): ReturnType<typeof importJWK> {
  const alg = jwk.kty === 'OKP' ? 'EdDSA' : 'ES256';
  const publicOnly = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  const cacheKey = JSON.stringify(publicOnly);
  const cached = verificationKeys.get(cacheKey);
  if (cached) return cached;
  const key = importJWK(publicOnly as JWK, alg);
  verificationKeys.set(cacheKey, key);
  key.catch(() => verificationKeys.delete(cacheKey));
  if (verificationKeys.size > VERIFICATION_KEYS_MAX) {
    verificationKeys.delete(verificationKeys.keys().next().value as string);
  }
  return key;
}

/** Checks a compact JWS signature with a public JWK; only ES256 (and EdDSA for did:key holders). */
export async function verifyJwtSignature(jwt: string, jwk: JsonWebKey): Promise<boolean> {
  try {
    await compactVerify(jwt, await verificationKey(jwk), { algorithms: ['ES256', 'EdDSA', 'Ed25519'] });
    return true;
  } catch {
    return false;
  }
}
