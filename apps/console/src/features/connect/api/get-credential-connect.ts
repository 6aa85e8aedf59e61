import type { CredentialConnect } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const CONNECT_POLL_MS = 3000;

/** GET /api/credentials/{id}/connect (public): what the holder page shows. */
export const getCredentialConnect = (id: string) =>
  withCatalogue(
    'catalogue.connectCredential',
    api.get<CredentialConnect>(`/credentials/${encodeURIComponent(id)}/connect`),
  );

/** Polls every 3 s while the offer waits to be claimed; stops at a final state. */
export const useCredentialConnect = (id: string) =>
  useQuery({
    queryKey: ['credential-connect', id] as const,
    queryFn: () => getCredentialConnect(id),
    retry: false,
    // On a desktop the wallet opens in another tab: this page keeps following while hidden, so it already shows
    // the outcome when the holder comes back to it.
    refetchIntervalInBackground: true,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      if (query.state.error || status === 'CLAIMED' || status === 'REVOKED' || status === 'EXPIRED') return false;
      return CONNECT_POLL_MS;
    },
  });
