import type { CreatedWebhook, CreateWebhookRequest } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { webhooksKey } from './find-webhooks.ts';

/** POST /api/webhooks: the answer is the only time the signing secret (`whsec_…`) is available. */
export const createWebhook = (body: CreateWebhookRequest) =>
  withCatalogue('catalogue.saveIntegration', api.post<CreatedWebhook>('/webhooks', body));

export const useCreateWebhook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey });
    },
  });
};
