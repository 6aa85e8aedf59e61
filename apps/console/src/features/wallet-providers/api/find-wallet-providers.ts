import type { WalletProviderList } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** Every cached wallet-provider query of an organization starts with this key (invalidated after a change). */
export const walletProvidersKey = (organizationId: string) => ['wallet-providers', organizationId] as const;

/** GET /api/wallet-providers: all of the organization's trusted wallet providers (at most 50, so no pages). */
export const findWalletProviders = (organizationId: string) =>
  withCatalogue(
    'walletProviders.errors.load',
    api.get<WalletProviderList>('/wallet-providers', { identity: organizationId }),
  );

export const walletProvidersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: walletProvidersKey(organizationId),
    queryFn: () => findWalletProviders(organizationId),
  });

export const useWalletProviders = (organizationId: string | undefined) =>
  useQuery({ ...walletProvidersQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
