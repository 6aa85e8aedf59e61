import type { UpdateWebhookRequest, Webhook } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { webhooksKey } from './find-webhooks.ts';

/** PATCH /api/webhooks/{id}: change only the fields sent (here: enable or disable deliveries). */
export const updateWebhook = (id: string, body: UpdateWebhookRequest) =>
  withCatalogue('catalogue.saveIntegration', api.patch<Webhook>(`/webhooks/${encodeURIComponent(id)}`, body));

export const useUpdateWebhook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateWebhookRequest & { id: string }) => updateWebhook(id, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey });
    },
  });
};
