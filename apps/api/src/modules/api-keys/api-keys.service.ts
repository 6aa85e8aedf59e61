import type { Database } from '@cp/db';

export interface ApiKeyPrincipal {
  apiKeyId: string;
  organizationId: string;
}

/**
 * Checks an API key (HTTP Basic `key:secret`). Returns its organization, or null when the key is
 * unknown, deleted or the secret does not match. Filled in by the integrations capability.
 */
export async function verifyApiKey(_db: Database, _keyId: string, _secret: string): Promise<ApiKeyPrincipal | null> {
  return null;
}
