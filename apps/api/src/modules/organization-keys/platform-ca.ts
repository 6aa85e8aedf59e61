import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createCaCertificate, generateEs256KeyPair } from '@cp/credentials';
import { type Database, getOrCreateSecret, type SecretBox } from '@cp/db';
import type { Config } from '../../config/env.ts';

export interface PlatformCa {
  certificatePem: string;
  privateJwk: JsonWebKey;
}

/**
 * The platform certificate authority that certifies organization keys (HAIP verifiers trust issuers
 * by x5c chain). Production supplies it as PEM files; the embedded default creates one on first start
 * and keeps it, encrypted, with the other platform secrets.
 */
export async function loadPlatformCa(db: Database, box: SecretBox, config: Config): Promise<PlatformCa> {
  const { caCertFile, caKeyFile } = config.credentialEngine;
  if (caCertFile && caKeyFile) {
    const privateJwk = createPrivateKey(readFileSync(caKeyFile, 'utf8')).export({ format: 'jwk' }) as JsonWebKey;
    if (privateJwk.crv !== 'P-256') throw new Error('PLATFORM_CA_KEY_FILE must hold a P-256 key');
    return { certificatePem: readFileSync(caCertFile, 'utf8'), privateJwk };
  }
  const stored = await getOrCreateSecret(db, box, 'platform-ca', async () => {
    const { privateJwk, publicJwk } = await generateEs256KeyPair();
    const host = new URL(config.publicUrl).host;
    const certificatePem = await createCaCertificate({
      commonName: `Credential Platform CA (${host})`,
      privateJwk,
      publicJwk,
    });
    return JSON.stringify({ certificatePem, privateJwk });
  });
  return JSON.parse(stored) as PlatformCa;
}

export function publicJwkOfPem(pem: string): JsonWebKey {
  return createPublicKey(pem).export({ format: 'jwk' }) as JsonWebKey;
}
