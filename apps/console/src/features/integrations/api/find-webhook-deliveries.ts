import type { WebhookDeliveryPage } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { webhooksKey } from './find-webhooks.ts';

export const webhookDeliveriesKey = (webhookId: string) => [...webhooksKey, webhookId, 'deliveries'] as const;

/** GET /api/webhooks/{id}/deliveries?page&limit: the endpoint's deliveries, newest first. */
export const findWebhookDeliveries = (webhookId: string, page: number, limit: number): Promise<WebhookDeliveryPage> =>
  withCatalogue(
    'integrations.webhooks.errors.deliveries',
    api.get<WebhookDeliveryPage>(`/webhooks/${encodeURIComponent(webhookId)}/deliveries`, { query: { page, limit } }),
  );

export const webhookDeliveriesQuery = (webhookId: string, page: number, limit: number) =>
  queryOptions({
    queryKey: [...webhookDeliveriesKey(webhookId), page, limit],
    queryFn: () => findWebhookDeliveries(webhookId, page, limit),
    placeholderData: keepPreviousData,
    // The log changes while retries run: always ask again when the dialog opens.
    staleTime: 0,
  });

export const useWebhookDeliveries = (webhookId: string, page: number, limit: number) =>
  useQuery(webhookDeliveriesQuery(webhookId, page, limit));
