import { randomBytes } from 'node:crypto';
import { type Database, getOrCreateSecret, type SecretBox } from '@cp/db';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** ES256 for relying parties that ask for it, RS256 because it is the OpenID Connect default alg. */
async function generateJwks(): Promise<string> {
  const keys: JWK[] = [];
  for (const alg of ['RS256', 'ES256'] as const) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    const jwk = await exportJWK(privateKey);
    keys.push({ ...jwk, alg, use: 'sig', kid: `${alg.toLowerCase()}-${randomBytes(8).toString('base64url')}` });
  }
  return JSON.stringify({ keys });
}

export interface AccountCenterSecrets {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
  /** HMAC key for CSRF tokens and signed `state` values of the account center's own pages. */
  formKey: Buffer;
}

/** Created once, stored encrypted in platform_secrets: every process serving the issuer shares them. */
export async function loadAccountCenterSecrets(db: Database, box: SecretBox): Promise<AccountCenterSecrets> {
  const jwks = JSON.parse(await getOrCreateSecret(db, box, 'id.oidc.jwks', generateJwks)) as { keys: JWK[] };
  const cookieKeys = JSON.parse(
    await getOrCreateSecret(db, box, 'id.oidc.cookie-keys', () =>
      JSON.stringify([randomBytes(32).toString('base64url')]),
    ),
  ) as string[];
  const formKey = Buffer.from(
    await getOrCreateSecret(db, box, 'id.form-key', () => randomBytes(32).toString('base64url')),
    'base64url',
  );
  return { jwks, cookieKeys, formKey };
}
