import { acceptedLanguage, credentialMailLocales, type UpdateUserProfileRequest } from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { getUserAvatar } from '../media/media.service.ts';
import * as repository from './users.repository.ts';

export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  /** The provider's `email_verified` claim (absent: false). */
  emailVerified?: boolean;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  /** The provider's `locale` claim (OpenID Connect Core 1.0 §5.1: a BCP 47 tag such as `ja-JP`), if any. */
  locale?: string | null;
}

/**
 * One of the platform's languages for a `locale` claim (`ja-JP` → `ja`, `es_ES` → `es`); null for anything
 * else. OIDC Core §5.1 says BCP 47, but some providers send the underscore form.
 */
export function localeFromClaim(claim: unknown) {
  if (typeof claim !== 'string' || claim.length > 35) return null;
  return acceptedLanguage(claim.replace('_', '-'), credentialMailLocales) ?? null;
}

/** A person's `locale` is filled from the provider's claim only while empty: their console choice wins. */
export function upsertUserFromIdentity(db: Database, identity: ProviderIdentity) {
  const { locale, ...rest } = identity;
  return repository.upsertUserFromIdentity(db, { ...rest, locale: localeFromClaim(locale) });
}

/** The user signed in through this provider account (issuer + subject), if any. */
export function findUserByIdentity(db: Database, issuer: string, subject: string) {
  return repository.findUserByIdentity(db, issuer, subject);
}

export async function getUser(db: Database, userId: string) {
  const row = await repository.findUserById(db, userId);
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}

export async function updateUserProfile(db: Database, userId: string, input: UpdateUserProfileRequest) {
  // An uploaded avatar must be the user's own image upload; an avatar address replaces an upload.
  const avatar = input.avatar !== undefined ? await getUserAvatar(db, userId, input.avatar) : undefined;
  // The console sends the avatar address back with every save: the address of the uploaded avatar keeps it.
  const current = input.avatar_url !== undefined ? await getUser(db, userId) : undefined;
  const keepsUpload = Boolean(
    current?.avatarMediaId && input.avatar_url?.endsWith(`/api/media/${current.avatarMediaId}`),
  );
  const row = await repository.updateUser(db, userId, {
    ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
    ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
    ...(input.job_title !== undefined ? { jobTitle: input.job_title || null } : {}),
    ...(input.avatar_url !== undefined && !keepsUpload ? { avatarUrl: input.avatar_url, avatarMediaId: null } : {}),
    ...(avatar ? { avatarMediaId: avatar.id } : {}),
    ...(input.locale !== undefined ? { locale: input.locale } : {}),
  });
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}
