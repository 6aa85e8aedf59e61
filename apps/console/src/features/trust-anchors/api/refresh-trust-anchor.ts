import type { TrustAnchor } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { trustAnchorsKey } from './find-trust-anchors.ts';

/**
 * POST /api/trust-anchors/{id}/refresh: reads a trusted list again now (the API reads them every hour). A list
 * that cannot be read answers 200 with its `list_error`; the certificates last read stay in force.
 */
export const refreshTrustAnchor = (organizationId: string, id: string) =>
  withCatalogue(
    'trustAnchors.errors.refresh',
    api.post<TrustAnchor>(`/trust-anchors/${encodeURIComponent(id)}/refresh`, undefined, { identity: organizationId }),
  );

export const useRefreshTrustAnchor = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => refreshTrustAnchor(organizationId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trustAnchorsKey(organizationId) }),
  });
};
