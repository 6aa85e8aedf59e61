import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { apiKeysKey } from './find-api-keys.ts';

/** DELETE /api/integrations/keys/{id}: the key stops working at once. */
export const deleteApiKey = (id: string) =>
  withCatalogue('catalogue.deleteIntegration', api.delete<void>(`/integrations/keys/${encodeURIComponent(id)}`));

export const useDeleteApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
};
