import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { OAuthError } from '../../errors/oauth-error.ts';

/**
 * Credential response encryption (OpenID4VCI 1.0 §8.2, §8.3, §12.2.4; HAIP 1.0): when the wallet asks, the
 * credential response is a JWE (compact, `application/jwt`) to the one-time public key the request names.
 * ECDH-ES on P-256 only, A128GCM or A256GCM, no compression. Offered, not required: wallets that do not ask
 * keep receiving plain JSON.
 */

export const RESPONSE_ENCRYPTION_ALG = 'ECDH-ES';
export const RESPONSE_ENCRYPTION_ENCS = ['A128GCM', 'A256GCM'] as const;

/** The issuer metadata's `credential_response_encryption` (§12.2.4). No `zip_values_supported`: no compression. */
export const credentialResponseEncryptionMetadata = {
  alg_values_supported: [RESPONSE_ENCRYPTION_ALG],
  enc_values_supported: [...RESPONSE_ENCRYPTION_ENCS],
  encryption_required: false,
};

/** The encryption a request asked for, its key imported (so a key that is no P-256 point is refused early). */
export interface ResponseEncryption {
  key: CryptoKey | Uint8Array;
  enc: (typeof RESPONSE_ENCRYPTION_ENCS)[number];
  kid?: string;
}

const invalid = (description: string) => new OAuthError('invalid_encryption_parameters', description, 400);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const B64URL_COORDINATE = /^[\w-]{43}$/;

/**
 * The request's `credential_response_encryption` (§8.2: `jwk` with its `alg`, `enc`, optional `zip`), checked
 * before anything is spent: whatever is wrong is `invalid_encryption_parameters` (§8.3.1.2), and the request
 * can be sent again. The drafts' top-level `alg` is read when the key has none (it must agree otherwise).
 */
export async function parseResponseEncryption(value: unknown): Promise<ResponseEncryption | undefined> {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalid('credential_response_encryption must be an object.');
  const { jwk, enc, zip } = value;
  if (!isObject(jwk)) throw invalid('credential_response_encryption.jwk must be a JWK object.');
  if ('d' in jwk) throw invalid('The jwk is a private key: send only the public key.');
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw invalid('The jwk must be an EC P-256 public key.');
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw invalid('The jwk lacks its x and y coordinates.');
  if (!B64URL_COORDINATE.test(jwk.x) || !B64URL_COORDINATE.test(jwk.y)) {
    throw invalid('The jwk coordinates are not P-256 coordinates.');
  }
  if (jwk.use !== undefined && jwk.use !== 'enc') throw invalid('The jwk is not an encryption key (use).');
  if (jwk.kid !== undefined && (typeof jwk.kid !== 'string' || jwk.kid.length > 200)) {
    throw invalid('The jwk kid must be a short string.');
  }
  const alg = jwk.alg ?? value.alg;
  if (jwk.alg !== undefined && value.alg !== undefined && jwk.alg !== value.alg) {
    throw invalid('The jwk alg and the alg parameter disagree.');
  }
  if (alg === undefined) throw invalid('The jwk must name its alg.');
  if (alg !== RESPONSE_ENCRYPTION_ALG) throw invalid(`Unsupported alg: only ${RESPONSE_ENCRYPTION_ALG}.`);
  if (enc === undefined) throw invalid('enc is missing.');
  if (typeof enc !== 'string' || !(RESPONSE_ENCRYPTION_ENCS as readonly string[]).includes(enc)) {
    throw invalid(`Unsupported enc: one of ${RESPONSE_ENCRYPTION_ENCS.join(', ')}.`);
  }
  if (zip !== undefined) throw invalid('This issuer compresses nothing (no zip_values_supported).');
  let key: CryptoKey | Uint8Array;
  try {
    // Only the public members: importing checks that the point is on the curve.
    key = await importJWK({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } as JWK, RESPONSE_ENCRYPTION_ALG);
  } catch {
    throw invalid('The jwk is not a valid P-256 public key.');
  }
  return { key, enc: enc as ResponseEncryption['enc'], ...(typeof jwk.kid === 'string' ? { kid: jwk.kid } : {}) };
}

/** The credential response as a JWE compact serialization to the wallet's key (§8.3). */
export async function encryptCredentialResponse(encryption: ResponseEncryption, response: object): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(response)))
    .setProtectedHeader({
      alg: RESPONSE_ENCRYPTION_ALG,
      enc: encryption.enc,
      ...(encryption.kid ? { kid: encryption.kid } : {}),
    })
    .encrypt(encryption.key);
}
