import type { Credential, CredentialStatus } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export interface CredentialFilters {
  status?: CredentialStatus | '';
  schema_id?: string;
  search?: string;
}

export interface CredentialPage {
  results: Credential[];
  total: number;
  page: number;
  limit: number;
}

export const CREDENTIALS_PAGE_SIZE = 10;

/** Every cached credential list of an organization starts with this key (invalidated after revoke/delete/create). */
export const credentialsKey = (organizationId: string) => ['credentials', organizationId] as const;

/** GET /api/credentials?page&limit&filter.status&filter.schema_id&filter.search. */
export const findCredentials = (organizationId: string, page: number, filters: CredentialFilters) =>
  withCatalogue(
    'catalogue.getCredentials',
    api.get<CredentialPage>('/credentials', {
      query: { page, limit: CREDENTIALS_PAGE_SIZE },
      filters: { status: filters.status, schema_id: filters.schema_id, search: filters.search?.trim() },
      identity: organizationId,
    }),
  );

export const credentialsQuery = (organizationId: string, page: number, filters: CredentialFilters) =>
  queryOptions({
    queryKey: [...credentialsKey(organizationId), 'page', page, filters] as const,
    queryFn: () => findCredentials(organizationId, page, filters),
  });

export const useCredentials = (organizationId: string | undefined, page: number, filters: CredentialFilters) =>
  useQuery({
    ...credentialsQuery(organizationId ?? '', page, filters),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
