import type { Organization } from '@cp/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const organizationsKey = ['organizations'] as const;

/**
 * GET /api/organizations: the organizations the signed-in user belongs to, with their role in each. Sent without
 * CurrentIdentity: the stored organization may be one the user was just removed from.
 */
export const findOrganizations = async (): Promise<Organization[]> => {
  const answer = await withCatalogue(
    'catalogue.getOrganizations',
    api.get<{ results: Organization[] }>('/organizations', { identity: null }),
  );
  return answer.results;
};

export const organizationsQuery = () => queryOptions({ queryKey: organizationsKey, queryFn: findOrganizations });
