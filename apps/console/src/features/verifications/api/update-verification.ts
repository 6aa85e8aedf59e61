import type { UpdateVerificationRequest, Verification } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { verificationsKey } from './find-verifications.ts';

/** PUT /api/verifications/{id}: the whole verification, as POST takes it. */
export const updateVerification = (organizationId: string, id: string, body: UpdateVerificationRequest) =>
  withCatalogue(
    'catalogue.updateVerification',
    api.put<Verification>(`/verifications/${encodeURIComponent(id)}`, body, { identity: organizationId }),
  );

export const useUpdateVerification = (organizationId: string, id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateVerificationRequest) => updateVerification(organizationId, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: verificationsKey(organizationId) }),
  });
};
