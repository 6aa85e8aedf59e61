import { credentialMailLocales, type UserProfile } from '@cp/contracts';
import type { UserRow } from './users.repository.ts';

/** `extras.avatarUrl` is the address of `row.avatarMediaId` when the avatar is an upload. */
export function presentUserProfile(
  row: UserRow,
  extras: { isPlatformAdmin: boolean; avatarUrl?: string | null } = { isPlatformAdmin: false },
): UserProfile {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    job_title: row.jobTitle,
    avatar:
      row.avatarMediaId && extras.avatarUrl
        ? { id: row.avatarMediaId, url: extras.avatarUrl }
        : row.avatarUrl
          ? { id: null, url: row.avatarUrl }
          : null,
    is_platform_admin: extras.isPlatformAdmin,
    locale: credentialMailLocales.find((l) => l === row.locale) ?? null,
  };
}
