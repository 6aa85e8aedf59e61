import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { trustAnchorsKey } from './find-trust-anchors.ts';

/** DELETE /api/trust-anchors/{id} (204): issuers it certified are refused from the next presentation on. */
export const deleteTrustAnchor = (organizationId: string, id: string) =>
  withCatalogue(
    'trustAnchors.errors.delete',
    api.delete<void>(`/trust-anchors/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const useDeleteTrustAnchor = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteTrustAnchor(organizationId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trustAnchorsKey(organizationId) }),
  });
};
