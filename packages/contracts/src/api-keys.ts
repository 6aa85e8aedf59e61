import { z } from 'zod';
import { pageOf } from './common.ts';

export const API_KEY_NAME_MAX = 100;

/** Public key identifier (the HTTP Basic user name): `ck_` + 24 base62 characters. */
export const API_KEY_ID_PATTERN = /^ck_[0-9A-Za-z]{24}$/;

/** An organization's integration API key as listed: never its secret (stored as SHA-256 only). */
export const zApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The API address integrators call, e.g. `https://platform.example/api`. */
  base_url: z.string(),
  /** Key id, sent as the HTTP Basic user name. */
  key: z.string(),
  /** Last four characters of the secret, to tell keys apart. */
  last_four: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
});
export type ApiKey = z.infer<typeof zApiKey>;

/** The creation answer: the only time the secret is ever returned. */
export const zCreatedApiKey = zApiKey.extend({
  /** Sent as the HTTP Basic password. Shown once; it cannot be retrieved later. */
  secret: z.string(),
});
export type CreatedApiKey = z.infer<typeof zCreatedApiKey>;

export const zApiKeyPage = pageOf(zApiKey);
export type ApiKeyPage = z.infer<typeof zApiKeyPage>;

export const zCreateApiKeyRequest = z.strictObject({
  name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
});
export type CreateApiKeyRequest = z.infer<typeof zCreateApiKeyRequest>;

export const zUpdateApiKeyRequest = z.strictObject({
  name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
});
export type UpdateApiKeyRequest = z.infer<typeof zUpdateApiKeyRequest>;

/** GET /api/integrations/whoami: who a credential acts for (integrators test their key with it). */
export const zIntegrationWhoami = z.object({
  organization_id: z.uuid(),
  actor: z.enum(['api_key', 'user']),
});
export type IntegrationWhoami = z.infer<typeof zIntegrationWhoami>;
