import type { CredentialDelivery, CredentialMailLocale } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { credentialsKey } from './find-credentials.ts';

/**
 * POST /api/credentials/{id}/resend {locale}: the claim e-mail once more, in the user's language. Failures keep
 * their code (CREDENTIAL_RESEND_TOO_SOON: once a minute) for the dialog to explain.
 */
export const resendCredential = (organizationId: string, id: string, locale: CredentialMailLocale) =>
  api.post<CredentialDelivery>(
    `/credentials/${encodeURIComponent(id)}/resend`,
    { locale },
    { identity: organizationId },
  );

export const useResendCredential = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, locale }: { id: string; locale: CredentialMailLocale }) =>
      resendCredential(organizationId, id, locale),
    // The credential (a replaced offer, EXPIRED → ISSUED) and its e-mail history changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: credentialsKey(organizationId) }),
  });
};
