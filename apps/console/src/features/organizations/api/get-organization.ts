import type { Organization } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const organizationKey = (id: string) => ['organizations', id] as const;

/** GET /api/organizations/{id}. */
export const getOrganization = (id: string) =>
  withCatalogue(
    'catalogue.getOrganization',
    api.get<Organization>(`/organizations/${encodeURIComponent(id)}`, { identity: id }),
  );

export const organizationQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKey(id),
    queryFn: () => getOrganization(id),
    // The profile page says "no longer exists" itself for a 404 (RecordLoadError).
    meta: { showsNotFound: true },
  });

export const useOrganization = (id: string | undefined) =>
  useQuery({ ...organizationQuery(id ?? ''), enabled: Boolean(id) });
