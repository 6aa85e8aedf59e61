import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialsKey } from './find-credentials.ts';

/** POST /api/credentials/delete {credentials: ids}: issued ones are revoked first by the API. */
export const deleteCredentials = (organizationId: string, ids: string[]) =>
  withCatalogue(
    'catalogue.deleteCredentials',
    api.post<unknown>('/credentials/delete', { credentials: ids }, { identity: organizationId }),
  );

export const useDeleteCredentials = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => deleteCredentials(organizationId, ids),
    onSettled: () => queryClient.invalidateQueries({ queryKey: credentialsKey(organizationId) }),
  });
};
