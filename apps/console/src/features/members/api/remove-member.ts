import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { membersKey } from './find-members.ts';

/** DELETE /api/organizations/{id}/members/{userId}: an admin removes someone, or a member leaves (own id). */
export const removeMember = (organizationId: string, userId: string) =>
  withCatalogue(
    'members.errors.remove',
    api.delete<void>(`/organizations/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}`, {
      identity: organizationId,
    }),
  );

export const useRemoveMember = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(organizationId, userId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: membersKey });
    },
  });
};
