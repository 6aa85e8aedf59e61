import type { Credential } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialsKey } from './find-credentials.ts';

/** GET /api/credentials/{id}: one credential with its claims and events. */
export const getCredential = (organizationId: string, id: string) =>
  withCatalogue(
    'catalogue.getCredentials',
    api.get<Credential>(`/credentials/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const useCredential = (organizationId: string, id: string | null) =>
  useQuery({
    queryKey: [...credentialsKey(organizationId), 'one', id] as const,
    queryFn: () => getCredential(organizationId, id ?? ''),
    enabled: Boolean(organizationId && id),
    // The detail dialog says "no longer exists" itself for a 404.
    meta: { showsNotFound: true },
  });
