import type { CreateApiKeyRequest, CreatedApiKey } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { apiKeysKey } from './find-api-keys.ts';

/** POST /api/integrations/keys: the answer is the only time the secret is available. */
export const createApiKey = (body: CreateApiKeyRequest) =>
  withCatalogue('catalogue.saveIntegration', api.post<CreatedApiKey>('/integrations/keys', body));

export const useCreateApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
};
