import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from './database.ts';
import { platformSecrets } from './schema.ts';

const VERSION = 'v1';

/**
 * Authenticated encryption of small secrets at rest (AES-256-GCM under the master key). The secret's
 * name is bound as additional data, so a ciphertext copied to another row does not decrypt.
 */
export class SecretBox {
  /**
   * A KeyObject, not the Buffer: node:crypto probes a Buffer key for KeyObject and CryptoKey by throwing and
   * catching, several times the cost of the cipher set-up (the verifier opens a sealed key per response).
   */
  readonly #key: KeyObject;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes');
    this.#key = createSecretKey(masterKey);
  }

  seal(plaintext: string, name: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(name));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), data.toString('base64url'), tag.toString('base64url')].join('.');
  }

  open(envelope: string, name: string): string {
    const [version, iv, data, tag] = envelope.split('.');
    if (version !== VERSION || !iv || !data || !tag) throw new Error(`Unreadable secret envelope for ${name}`);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(name));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * Returns the named platform secret, creating it with `generate` on first use. Safe when several
 * processes start at once: the first insert wins and everyone reads the stored value.
 */
export async function getOrCreateSecret(
  db: Database,
  box: SecretBox,
  name: string,
  generate: () => string | Promise<string>,
): Promise<string> {
  const existing = await db.select().from(platformSecrets).where(eq(platformSecrets.name, name));
  if (existing[0]) return box.open(existing[0].ciphertext, name);
  const value = await generate();
  await db
    .insert(platformSecrets)
    .values({ name, ciphertext: box.seal(value, name) })
    .onConflictDoNothing();
  const stored = await db.select().from(platformSecrets).where(eq(platformSecrets.name, name));
  if (!stored[0]) throw new Error(`Secret ${name} could not be stored`);
  return box.open(stored[0].ciphertext, name);
}
