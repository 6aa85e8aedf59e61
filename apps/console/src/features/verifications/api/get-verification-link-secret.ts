import type { zVerificationLinkSecret } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { verificationsKey } from './find-verifications.ts';

export type VerificationLinkSecret = z.infer<typeof zVerificationLinkSecret>;

/** The cache entry of one verification's link secret (the rotation writes the new one into it). */
export const verificationLinkSecretKey = (organizationId: string, id: string) =>
  [...verificationsKey(organizationId), 'link-secret', id] as const;

/**
 * GET /api/verifications/{id}/link-secret: the secret integrators sign holder links with (made on first use).
 * The spec's catalogue has no message for it.
 */
export const getVerificationLinkSecret = (organizationId: string, id: string) =>
  withCatalogue(
    'verifications.linkSecret.loadFailed',
    api.get<VerificationLinkSecret>(`/verifications/${encodeURIComponent(id)}/link-secret`, {
      identity: organizationId,
    }),
  );

export const verificationLinkSecretQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: verificationLinkSecretKey(organizationId, id),
    queryFn: () => getVerificationLinkSecret(organizationId, id),
    // A secret is asked for when the user reveals it, and forgotten as soon as nothing shows it.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** Asked for only once `isRevealed`: opening the dialog never fetches the secret by itself. */
export const useVerificationLinkSecret = (organizationId: string | undefined, id: string | null, isRevealed: boolean) =>
  useQuery({
    ...verificationLinkSecretQuery(organizationId ?? '', id ?? ''),
    enabled: Boolean(organizationId && id) && isRevealed,
  });
