import type { CreateWalletProviderRequest, WalletProvider } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { walletProvidersKey } from './find-wallet-providers.ts';

/**
 * POST /api/wallet-providers: a provider's CA certificate or attestation signing certificate (PEM). 422
 * WALLET_PROVIDER_INVALID says why in `detail`; 409 WALLET_PROVIDER_DUPLICATE, WALLET_PROVIDER_LIMIT_REACHED.
 */
export const createWalletProvider = (organizationId: string, body: CreateWalletProviderRequest) =>
  withCatalogue(
    'walletProviders.errors.create',
    api.post<WalletProvider>('/wallet-providers', body, { identity: organizationId }),
  );

export const useCreateWalletProvider = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWalletProviderRequest) => createWalletProvider(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletProvidersKey(organizationId) }),
  });
};
