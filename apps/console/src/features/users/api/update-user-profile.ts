import type { UpdateUserProfileRequest, UserProfile } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { userProfileKey } from './get-user-profile.ts';

/** PUT /api/users. */
export const updateUserProfile = (body: UpdateUserProfileRequest) =>
  withCatalogue('settings.saveFailed', api.put<UserProfile>('/users', body));

export const useUpdateUserProfile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserProfile,
    onSuccess: (profile) => queryClient.setQueryData(userProfileKey, profile),
  });
};
