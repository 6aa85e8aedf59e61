import type { UpdateUserProfileRequest } from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import * as repository from './users.repository.ts';

export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
}

export function upsertUserFromIdentity(db: Database, identity: ProviderIdentity) {
  return repository.upsertUserFromIdentity(db, identity);
}

export async function getUser(db: Database, userId: string) {
  const row = await repository.findUserById(db, userId);
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}

export async function updateUserProfile(db: Database, userId: string, input: UpdateUserProfileRequest) {
  const row = await repository.updateUser(db, userId, {
    ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
    ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
    ...(input.job_title !== undefined ? { jobTitle: input.job_title || null } : {}),
    ...(input.avatar_url !== undefined ? { avatarUrl: input.avatar_url } : {}),
  });
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}
