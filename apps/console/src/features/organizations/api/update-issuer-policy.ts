import type { IssuerPolicy, UpdateIssuerPolicyRequest } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { issuerPolicyKey } from './get-issuer-policy.ts';

/** PUT /api/organizations/{id}/issuer-policy (admins). */
export const updateIssuerPolicy = (id: string, body: UpdateIssuerPolicyRequest) =>
  withCatalogue(
    'catalogue.updateOrganization',
    api.put<IssuerPolicy>(`/organizations/${encodeURIComponent(id)}/issuer-policy`, body, { identity: id }),
  );

export const useUpdateIssuerPolicy = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateIssuerPolicyRequest) => updateIssuerPolicy(id, body),
    onSuccess: (policy) => {
      queryClient.setQueryData(issuerPolicyKey(id), policy);
    },
  });
};
