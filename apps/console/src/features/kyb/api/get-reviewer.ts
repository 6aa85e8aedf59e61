import type { UserProfile } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/**
 * GET /api/users, read for `is_platform_admin`. Same query key as the profile the shell loads, so the
 * cached answer is shared (features do not import each other).
 */
export const useIsPlatformAdmin = () =>
  useQuery({
    queryKey: ['users', 'me'],
    queryFn: () => withCatalogue('catalogue.getUserProfile', api.get<UserProfile>('/users')),
    select: (profile) => profile.is_platform_admin,
  });
