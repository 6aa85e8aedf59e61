import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialsKey } from './find-credentials.ts';

/** PATCH /api/credentials/revoke {credentials: ids}. */
export const revokeCredentials = (organizationId: string, ids: string[]) =>
  withCatalogue(
    'catalogue.revokeCredentials',
    api.patch<unknown>('/credentials/revoke', { credentials: ids }, { identity: organizationId }),
  );

export const useRevokeCredentials = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => revokeCredentials(organizationId, ids),
    onSettled: () => queryClient.invalidateQueries({ queryKey: credentialsKey(organizationId) }),
  });
};
