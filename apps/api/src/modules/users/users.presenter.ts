import type { UserProfile } from '@cp/contracts';
import type { UserRow } from './users.repository.ts';

export function presentUserProfile(row: UserRow): UserProfile {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    job_title: row.jobTitle,
    avatar: row.avatarUrl ? { id: null, url: row.avatarUrl } : null,
  };
}
