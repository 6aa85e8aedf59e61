import type { Credential, CredentialSort, CredentialStatus } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export interface CredentialFilters {
  status?: CredentialStatus | '';
  schema_id?: string;
  search?: string;
  /** Created on or after this day (YYYY-MM-DD), in the user's time zone. */
  created_from?: string;
  /** Created on or before this day (YYYY-MM-DD), in the user's time zone. */
  created_to?: string;
}

export interface CredentialPage {
  results: Credential[];
  total: number;
  page: number;
  limit: number;
}

export const CREDENTIALS_PAGE_SIZE = 10;

/**
 * The list's sorts (`credentialSorts` of @cp/contracts, kept equal by find-credentials.test.ts: importing the
 * value would load every zod schema with the list).
 */
export const CREDENTIAL_SORTS = [
  '-created_at',
  'created_at',
  'status',
  '-status',
  'recipient',
  '-recipient',
  'expires_at',
  '-expires_at',
] as const satisfies readonly CredentialSort[];
export const DEFAULT_CREDENTIAL_SORT: CredentialSort = '-created_at';

export const isCredentialSort = (value: string | null): value is CredentialSort =>
  CREDENTIAL_SORTS.includes(value as CredentialSort);

/** The user's time zone: the days of a date filter are the user's days, and the export's times are local. */
export const userTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The query of the list and of its export: filters as filter.{name}, the sort, the time zone of the days. */
export function credentialListQuery(filters: CredentialFilters, sort: CredentialSort) {
  return {
    query: {
      sort: sort === DEFAULT_CREDENTIAL_SORT ? undefined : sort,
      timezone: filters.created_from || filters.created_to ? userTimeZone() : undefined,
    },
    filters: {
      status: filters.status,
      schema_id: filters.schema_id,
      search: filters.search?.trim(),
      created_from: filters.created_from,
      created_to: filters.created_to,
    },
  };
}

/** Every cached credential list of an organization starts with this key (invalidated after revoke/delete/create). */
export const credentialsKey = (organizationId: string) => ['credentials', organizationId] as const;

/** GET /api/credentials?page&limit&sort&timezone&filter.status&filter.schema_id&filter.search&filter.created_*. */
export const findCredentials = (
  organizationId: string,
  page: number,
  filters: CredentialFilters,
  sort: CredentialSort = DEFAULT_CREDENTIAL_SORT,
) => {
  const { query, filters: sent } = credentialListQuery(filters, sort);
  return withCatalogue(
    'catalogue.getCredentials',
    api.get<CredentialPage>('/credentials', {
      query: { page, limit: CREDENTIALS_PAGE_SIZE, ...query },
      filters: sent,
      identity: organizationId,
    }),
  );
};

export const credentialsQuery = (
  organizationId: string,
  page: number,
  filters: CredentialFilters,
  sort: CredentialSort = DEFAULT_CREDENTIAL_SORT,
) =>
  queryOptions({
    queryKey: [...credentialsKey(organizationId), 'page', page, filters, sort] as const,
    queryFn: () => findCredentials(organizationId, page, filters, sort),
  });

export const useCredentials = (
  organizationId: string | undefined,
  page: number,
  filters: CredentialFilters,
  sort: CredentialSort = DEFAULT_CREDENTIAL_SORT,
) =>
  useQuery({
    ...credentialsQuery(organizationId ?? '', page, filters, sort),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
