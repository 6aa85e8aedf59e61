import { z } from 'zod';
import { zCredentialMailLocale } from './credential-imports.ts';

export const zUserProfile = z.object({
  id: z.uuid(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  job_title: z.string().nullable(),
  avatar: z.object({ id: z.uuid().nullable(), url: z.string() }).nullable(),
  /** The user's e-mail is one of the platform administrators' (ADMIN_EMAILS): KYB review. */
  is_platform_admin: z.boolean(),
  /** The person's language (en, ja, es, ko) for the e-mails the platform sends them; null: not known yet. */
  locale: zCredentialMailLocale.nullable().optional(),
});
export type UserProfile = z.infer<typeof zUserProfile>;

export const zUpdateUserProfileRequest = z.strictObject({
  first_name: z.string().trim().min(1).max(100).optional(),
  last_name: z.string().trim().min(1).max(100).optional(),
  job_title: z.string().trim().max(120).optional(),
  /** An https/http image address; uploads arrive with the media capability. */
  avatar_url: z.url().max(2048).optional(),
  /** Media id of the user's own avatar upload (`POST media/upload` with purpose avatar). */
  avatar: z.uuid().optional(),
  /** The console's language, stored whenever the person changes it: e-mails to them use it. */
  locale: zCredentialMailLocale.optional(),
});
export type UpdateUserProfileRequest = z.infer<typeof zUpdateUserProfileRequest>;
