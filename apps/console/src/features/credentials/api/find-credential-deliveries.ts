import type { CredentialDeliveryList } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialsKey } from './find-credentials.ts';

/** How often the history is read again while an e-mail is still on its way. */
const PENDING_REFRESH_MS = 2000;

/** GET /api/credentials/{id}/deliveries: the credential's e-mails, the latest first. */
export const findCredentialDeliveries = (organizationId: string, id: string) =>
  withCatalogue(
    'catalogue.getCredentials',
    api.get<CredentialDeliveryList>(`/credentials/${encodeURIComponent(id)}/deliveries`, { identity: organizationId }),
  );

export const useCredentialDeliveries = (organizationId: string, id: string | null) =>
  useQuery({
    queryKey: [...credentialsKey(organizationId), 'deliveries', id] as const,
    queryFn: () => findCredentialDeliveries(organizationId, id ?? ''),
    enabled: Boolean(organizationId && id),
    // A queued e-mail is sent within seconds: its status is followed until it is SENT or FAILED.
    refetchInterval: (query) =>
      query.state.data?.results.some((d) => d.status === 'QUEUED' || d.status === 'SENDING')
        ? PENDING_REFRESH_MS
        : false,
  });
