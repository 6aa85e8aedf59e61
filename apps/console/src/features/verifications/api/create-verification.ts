import type { CreateVerificationRequest, Verification } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { verificationsKey } from './find-verifications.ts';

/** POST /api/verifications: 422 VALIDATION_FAILED names the field (`attributes.0.value`) a rule value breaks. */
export const createVerification = (organizationId: string, body: CreateVerificationRequest) =>
  withCatalogue(
    'catalogue.createVerification',
    api.post<Verification>('/verifications', body, { identity: organizationId }),
  );

export const useCreateVerification = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateVerificationRequest) => createVerification(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: verificationsKey(organizationId) }),
  });
};
