import type { WebhookDelivery } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { webhookDeliveriesKey } from './find-webhook-deliveries.ts';

/** POST /api/webhooks/{id}/test: queues a sample `verification.completed` event flagged `test: true`. */
export const sendWebhookTest = (webhookId: string) =>
  withCatalogue(
    'integrations.webhooks.errors.test',
    api.post<WebhookDelivery>(`/webhooks/${encodeURIComponent(webhookId)}/test`),
  );

export const useSendWebhookTest = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendWebhookTest,
    onSuccess: async (_, webhookId) => {
      await queryClient.invalidateQueries({ queryKey: webhookDeliveriesKey(webhookId) });
    },
  });
};
