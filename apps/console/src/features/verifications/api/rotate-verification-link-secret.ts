import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { type VerificationLinkSecret, verificationLinkSecretKey } from './get-verification-link-secret.ts';

/**
 * POST /api/verifications/{id}/link-secret: a new link secret. Links signed with the previous one stop vouching
 * for their customers (the holder page answers 403 VERIFICATION_LINK_SIGNATURE_INVALID).
 */
export const rotateVerificationLinkSecret = (organizationId: string, id: string) =>
  withCatalogue(
    'verifications.linkSecret.rotateFailed',
    api.post<VerificationLinkSecret>(`/verifications/${encodeURIComponent(id)}/link-secret`, undefined, {
      identity: organizationId,
    }),
  );

export const useRotateVerificationLinkSecret = (organizationId: string, id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateVerificationLinkSecret(organizationId, id),
    onSuccess: (answer) => queryClient.setQueryData(verificationLinkSecretKey(organizationId, id), answer),
  });
};
