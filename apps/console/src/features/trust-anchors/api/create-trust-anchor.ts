import type { CreateTrustAnchorRequest, TrustAnchor } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { trustAnchorsKey } from './find-trust-anchors.ts';

/**
 * POST /api/trust-anchors: a CA certificate (PEM), or a trusted list (its URL and the operator's signing
 * certificate). 422 TRUST_ANCHOR_INVALID says why in `detail`; 409 TRUST_ANCHOR_DUPLICATE, TRUST_ANCHOR_LIMIT_REACHED.
 */
export const createTrustAnchor = (organizationId: string, body: CreateTrustAnchorRequest) =>
  withCatalogue(
    'trustAnchors.errors.create',
    api.post<TrustAnchor>('/trust-anchors', body, { identity: organizationId }),
  );

export const useCreateTrustAnchor = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTrustAnchorRequest) => createTrustAnchor(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trustAnchorsKey(organizationId) }),
  });
};
