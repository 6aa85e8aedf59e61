import type { TrustAnchorList } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** Every cached trust-anchor query of an organization starts with this key (invalidated after a change). */
export const trustAnchorsKey = (organizationId: string) => ['trust-anchors', organizationId] as const;

/** GET /api/trust-anchors: all of the organization's anchors (at most TRUST_ANCHORS_MAX, so no pages). */
export const findTrustAnchors = (organizationId: string) =>
  withCatalogue('trustAnchors.errors.load', api.get<TrustAnchorList>('/trust-anchors', { identity: organizationId }));

export const trustAnchorsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: trustAnchorsKey(organizationId),
    queryFn: () => findTrustAnchors(organizationId),
  });

export const useTrustAnchors = (organizationId: string | undefined) =>
  useQuery({ ...trustAnchorsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
