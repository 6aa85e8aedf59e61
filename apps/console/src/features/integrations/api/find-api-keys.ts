import type { ApiKeyPage } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const apiKeysKey = ['integrations', 'keys'] as const;

/** GET /api/integrations/keys?page&limit: the current organization's keys (never their secrets). */
export const findApiKeys = (page: number, limit: number): Promise<ApiKeyPage> =>
  withCatalogue('catalogue.getIntegrations', api.get<ApiKeyPage>('/integrations/keys', { query: { page, limit } }));

/** Keyed by organization too: switching organization must never show the previous one's keys. */
export const apiKeysQuery = (organizationId: string | undefined, page: number, limit: number) =>
  queryOptions({
    queryKey: [...apiKeysKey, organizationId, page, limit],
    queryFn: () => findApiKeys(page, limit),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });

export const useApiKeys = (organizationId: string | undefined, page: number, limit: number) =>
  useQuery(apiKeysQuery(organizationId, page, limit));
