import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { webhooksKey } from './find-webhooks.ts';

/** DELETE /api/webhooks/{id}: no further events are sent to the endpoint. */
export const deleteWebhook = (id: string) =>
  withCatalogue('catalogue.deleteIntegration', api.delete<void>(`/webhooks/${encodeURIComponent(id)}`));

export const useDeleteWebhook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey });
    },
  });
};
