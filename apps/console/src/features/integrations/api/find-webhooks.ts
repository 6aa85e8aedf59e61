import type { WebhookPage } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const webhooksKey = ['integrations', 'webhooks'] as const;

/** GET /api/webhooks?page&limit: the current organization's endpoints (never their secrets). */
export const findWebhooks = (page: number, limit: number): Promise<WebhookPage> =>
  withCatalogue('catalogue.getIntegrations', api.get<WebhookPage>('/webhooks', { query: { page, limit } }));

/** Keyed by organization too: switching organization must never show the previous one's endpoints. */
export const webhooksQuery = (organizationId: string | undefined, page: number, limit: number) =>
  queryOptions({
    queryKey: [...webhooksKey, organizationId, page, limit],
    queryFn: () => findWebhooks(page, limit),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });

export const useWebhooks = (organizationId: string | undefined, page: number, limit: number) =>
  useQuery(webhooksQuery(organizationId, page, limit));
