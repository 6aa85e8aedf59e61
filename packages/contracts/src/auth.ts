import { z } from 'zod';

export const zStartAuthRequest = z.strictObject({
  /** Where the identity provider sends the browser back (the console's /oauth/socious). */
  redirect_url: z.url().max(2048).optional(),
  /** Ask the provider to show its sign-up form first (OpenID Connect prompt=create). */
  signup: z.boolean().optional(),
  /**
   * Ask the provider to sign in again even when its session is open (OpenID Connect Core §3.1.2.1 prompt=login):
   * switching to another account, e.g. the one an invitation was sent to.
   */
  reauthenticate: z.boolean().optional(),
});
export type StartAuthRequest = z.infer<typeof zStartAuthRequest>;

export const zStartAuthResponse = z.object({ auth_url: z.string(), session: z.string() });
export type StartAuthResponse = z.infer<typeof zStartAuthResponse>;

export const zCompleteAuthRequest = z.strictObject({
  code: z.string().min(1).max(4096),
  session: z.string().min(1).max(200),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
});
export type CompleteAuthRequest = z.infer<typeof zCompleteAuthRequest>;

export const zTokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});
export type TokenResponse = z.infer<typeof zTokenResponse>;

export const zRefreshRequest = z.strictObject({ refresh_token: z.string().min(1).max(512) });
export type RefreshRequest = z.infer<typeof zRefreshRequest>;

export const zLogoutRequest = z.strictObject({ refresh_token: z.string().min(1).max(512).optional() });

/** Where the browser goes to end the identity provider's session too (RP-Initiated Logout); null: nowhere. */
export const zLogoutResponse = z.object({ logout_url: z.string().nullable() });
export type LogoutResponse = z.infer<typeof zLogoutResponse>;

/** Public, unauthenticated runtime configuration for the web apps (no secrets). */
export const zPublicConfig = z.object({
  /** Account center base URL, or null when a generic OpenID Connect provider is used. */
  account_center_url: z.string().nullable(),
  /** Where "create an organization" leaves for; null means the console shows its own form. */
  organization_create_url: z.string().nullable(),
  /** Where "change password" leaves for; null when the provider has no such page. */
  password_change_url: z.string().nullable(),
  wallet_url: z.string(),
  languages: z.array(z.string()),
  /** Upload limits the API enforces, so forms can say them before a file is sent. */
  upload_max_bytes: z.number().int(),
  upload_max_files: z.number().int(),
});
export type PublicConfig = z.infer<typeof zPublicConfig>;

export const zClientErrorReport = z.strictObject({
  message: z.string().min(1).max(2000),
  stack: z.string().max(8000).optional(),
  url: z.string().max(2048).optional(),
});
export type ClientErrorReport = z.infer<typeof zClientErrorReport>;
