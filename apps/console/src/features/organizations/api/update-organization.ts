import type { Organization, UpdateOrganizationRequest } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { organizationsKey } from './find-organizations.ts';

/** PUT /api/organizations/{id}, acting as that organization (CurrentIdentity header). */
export const updateOrganization = (id: string, body: UpdateOrganizationRequest) =>
  withCatalogue(
    'catalogue.updateOrganization',
    api.put<Organization>(`/organizations/${encodeURIComponent(id)}`, body, { identity: id }),
  );

export const useUpdateOrganization = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganizationRequest) => updateOrganization(id, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: organizationsKey });
    },
  });
};
