import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { walletProvidersKey } from './find-wallet-providers.ts';

/** DELETE /api/wallet-providers/{id} (204): its attestations are refused from the next token request on. */
export const deleteWalletProvider = (organizationId: string, id: string) =>
  withCatalogue(
    'walletProviders.errors.delete',
    api.delete<void>(`/wallet-providers/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const useDeleteWalletProvider = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteWalletProvider(organizationId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletProvidersKey(organizationId) }),
  });
};
