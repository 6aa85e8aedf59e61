import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { invitationsKey } from './find-invitations.ts';

/** DELETE /api/organizations/{id}/invitations/{invitationId}: the link stops working at once. */
export const revokeInvitation = (organizationId: string, invitationId: string) =>
  withCatalogue(
    'members.errors.revoke',
    api.delete<void>(
      `/organizations/${encodeURIComponent(organizationId)}/invitations/${encodeURIComponent(invitationId)}`,
      { identity: organizationId },
    ),
  );

export const useRevokeInvitation = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => revokeInvitation(organizationId, invitationId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
    },
  });
};
