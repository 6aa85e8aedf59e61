import type { ApiKey, UpdateApiKeyRequest } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { apiKeysKey } from './find-api-keys.ts';

/** PUT /api/integrations/keys/{id}: rename. */
export const updateApiKey = (id: string, body: UpdateApiKeyRequest) =>
  withCatalogue('catalogue.saveIntegration', api.put<ApiKey>(`/integrations/keys/${encodeURIComponent(id)}`, body));

export const useUpdateApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateApiKeyRequest & { id: string }) => updateApiKey(id, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
};
