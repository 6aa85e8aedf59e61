import type { UserProfile } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const userProfileKey = ['users', 'me'] as const;

/** GET /api/users: the signed-in user's own profile (no CurrentIdentity: it belongs to no organization). */
export const getUserProfile = () =>
  withCatalogue('catalogue.getUserProfile', api.get<UserProfile>('/users', { identity: null }));

export const userProfileQuery = () => queryOptions({ queryKey: userProfileKey, queryFn: getUserProfile });

export const useUserProfile = () => useQuery(userProfileQuery());
