import type { CreateInvitationRequest, SentInvitation } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { invitationsKey } from './find-invitations.ts';

/**
 * POST /api/organizations/{id}/invitations: e-mails the link in `locale` (the console's language). The answer's
 * `url` is the only time the link is available.
 */
export const createInvitation = (organizationId: string, body: CreateInvitationRequest) =>
  withCatalogue(
    'members.errors.invite',
    api.post<SentInvitation>(`/organizations/${encodeURIComponent(organizationId)}/invitations`, body, {
      identity: organizationId,
    }),
  );

export const useCreateInvitation = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitationRequest) => createInvitation(organizationId, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
    },
  });
};
