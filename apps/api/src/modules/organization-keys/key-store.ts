import { createPrivateKey, sign } from 'node:crypto';
import { generateEs256KeyPair, type JwsSigner } from '@cp/credentials';
import type { SecretBox } from '@cp/db';

/**
 * An organization key's signer: JWS signing inputs (SD-JWT VCs, status lists, request objects) and, for COSE
 * (ISO mdoc's issuerAuth, RFC 9052 §4.4), the bytes of a Sig_structure, which are not text. Both ES256, r||s.
 */
export interface OrganizationKeySigner extends JwsSigner {
  signBytes(data: Uint8Array): Promise<Uint8Array>;
}

/**
 * Where organization private keys live. The local store keeps each private JWK as AES-256-GCM
 * ciphertext under the master key (SecretBox); a KMS-backed store implements the same two calls and
 * keeps a key reference in `wrapped` instead.
 */
export interface KeyStore {
  createKey(label: string): Promise<{ publicJwk: JsonWebKey; wrapped: string }>;
  signer(wrapped: string, label: string): Promise<OrganizationKeySigner>;
}

export class LocalKeyStore implements KeyStore {
  readonly #cache = new Map<string, OrganizationKeySigner>();

  constructor(private readonly box: SecretBox) {}

  async createKey(label: string) {
    const { privateJwk, publicJwk } = await generateEs256KeyPair();
    return { publicJwk, wrapped: this.box.seal(JSON.stringify(privateJwk), label) };
  }

  async signer(wrapped: string, label: string): Promise<OrganizationKeySigner> {
    const cached = this.#cache.get(label);
    if (cached) return cached;
    const signer = nodeSigner(JSON.parse(this.box.open(wrapped, label)) as JsonWebKey);
    // The imported KeyObject is cached, not the plaintext JWK.
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(label, signer);
    return signer;
  }
}

/**
 * ES256 with node:crypto: synchronous, on the calling thread. Cheaper here than WebCrypto's `subtle.sign`,
 * whose job is dispatched to the thread pool and back (measured in bench/issuance.bench.ts: node:crypto
 * signs about twice as many per second on one core as WebCrypto one at a time). The key is passed bare and the
 * DER signature converted to r||s here: given `{ key, dsaEncoding }`, Node probes the object for a KeyObject and
 * a CryptoKey by throwing and catching, which cost as much again as the signature (bench/RESULTS.md).
 */
export function nodeSigner(jwk: JsonWebKey): OrganizationKeySigner {
  const key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  const signBytes = (data: Uint8Array) => derToP1363(sign('sha256', data, key));
  return {
    alg: 'ES256',
    sign: async (signingInput) => Buffer.from(signBytes(Buffer.from(signingInput))).toString('base64url'),
    signBytes: async (data) => signBytes(data),
  };
}

/**
 * An ECDSA P-256 signature from DER (SEQUENCE of two INTEGERs, RFC 3279 §2.2.3) to IEEE P1363 (r || s, 32 bytes
 * each, as JWS and COSE want it). Strict: anything but two positive integers of at most 32 bytes, minimally
 * encoded, is refused (OpenSSL never writes one; a refusal here is a bug, not an input).
 */
export function derToP1363(der: Uint8Array): Uint8Array {
  const fail = () => {
    throw new Error('Not a DER ECDSA P-256 signature');
  };
  if (der[0] !== 0x30 || der[1] !== der.length - 2 || der.length > 72) fail();
  const out = new Uint8Array(64);
  let offset = 2;
  for (const at of [0, 32]) {
    const length = der[offset + 1] ?? 0;
    if (der[offset] !== 0x02 || length < 1 || length > 33) fail();
    let value = der.subarray(offset + 2, offset + 2 + length);
    if (value.length !== length || (value[0] ?? 0) & 0x80) fail();
    if (value.length > 1 && value[0] === 0) {
      // A leading zero only where the next byte's high bit would otherwise make the integer negative.
      if (!((value[1] ?? 0) & 0x80)) fail();
      value = value.subarray(1);
    }
    if (value.length > 32) fail();
    out.set(value, at + 32 - value.length);
    offset += 2 + length;
  }
  if (offset !== der.length) fail();
  return out;
}
