import type { ApiKey, CreatedApiKey } from '@cp/contracts';
import type { ApiKeyRow } from './api-keys.repository.ts';

/** `${publicUrl}/api`: the address integrators call with the key. */
export const apiBaseUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/api`;

export function presentApiKey(row: ApiKeyRow, baseUrl: string): ApiKey {
  return {
    id: row.id,
    name: row.name,
    base_url: baseUrl,
    key: row.keyId,
    last_four: row.lastFour,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}

/** Only the creation answer carries the secret. */
export function presentCreatedApiKey(row: ApiKeyRow, baseUrl: string, secret: string): CreatedApiKey {
  return { ...presentApiKey(row, baseUrl), secret };
}
