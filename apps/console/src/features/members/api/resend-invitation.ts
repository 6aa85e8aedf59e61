import type { CredentialMailLocale, SentInvitation } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { invitationsKey } from './find-invitations.ts';

/** POST /api/organizations/{id}/invitations/{invitationId}/resend: a new link, e-mailed; the old one stops working. */
export const resendInvitation = (organizationId: string, invitationId: string, locale: CredentialMailLocale) =>
  withCatalogue(
    'members.errors.resend',
    api.post<SentInvitation>(
      `/organizations/${encodeURIComponent(organizationId)}/invitations/${encodeURIComponent(invitationId)}/resend`,
      { locale },
      { identity: organizationId },
    ),
  );

export const useResendInvitation = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ invitationId, locale }: { invitationId: string; locale: CredentialMailLocale }) =>
      resendInvitation(organizationId, invitationId, locale),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
    },
  });
};
