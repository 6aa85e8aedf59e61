import { generateEs256KeyPair, type JwsSigner, signerFromPrivateJwk } from '@cp/credentials';
import type { SecretBox } from '@cp/db';

/**
 * Where organization private keys live. The local store keeps each private JWK as AES-256-GCM
 * ciphertext under the master key (SecretBox); a KMS-backed store implements the same two calls and
 * keeps a key reference in `wrapped` instead.
 */
export interface KeyStore {
  createKey(label: string): Promise<{ publicJwk: JsonWebKey; wrapped: string }>;
  signer(wrapped: string, label: string): Promise<JwsSigner>;
}

export class LocalKeyStore implements KeyStore {
  readonly #cache = new Map<string, JwsSigner>();

  constructor(private readonly box: SecretBox) {}

  async createKey(label: string) {
    const { privateJwk, publicJwk } = await generateEs256KeyPair();
    return { publicJwk, wrapped: this.box.seal(JSON.stringify(privateJwk), label) };
  }

  async signer(wrapped: string, label: string): Promise<JwsSigner> {
    const cached = this.#cache.get(label);
    if (cached) return cached;
    const signer = await signerFromPrivateJwk(JSON.parse(this.box.open(wrapped, label)) as JsonWebKey);
    // Imported keys are non-extractable CryptoKeys: caching them keeps the plaintext JWK out of memory.
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(label, signer);
    return signer;
  }
}
