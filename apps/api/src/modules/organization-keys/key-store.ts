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
 * signs about twice as many per second on one core as WebCrypto one at a time).
 */
export function nodeSigner(jwk: JsonWebKey): OrganizationKeySigner {
  const key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  return {
    alg: 'ES256',
    sign: async (signingInput) =>
      sign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
    signBytes: async (data) => new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' })),
  };
}
