import type { CreateOrganizationRequest, Organization } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { storeIdentity } from '../../../lib/current-identity.ts';
import { organizationsKey } from './find-organizations.ts';

/** POST /api/organizations: used when no external account center handles organization creation. */
export const createOrganization = (body: CreateOrganizationRequest) =>
  withCatalogue('organization.createFailed', api.post<Organization>('/organizations', body));

export const useCreateOrganization = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: async (organization) => {
      storeIdentity(organization.id);
      await queryClient.invalidateQueries({ queryKey: organizationsKey });
    },
  });
};
