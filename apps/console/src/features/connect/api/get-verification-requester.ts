import type { HolderOrganization } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * GET /api/verifications/{verificationId}/requester (public): who asks, for the shareable link's page. Only
 * decoration (the page works without it), so a failure shows no error message.
 */
export const getVerificationRequester = (verificationId: string) =>
  api.get<HolderOrganization>(`/verifications/${encodeURIComponent(verificationId)}/requester`);

export const useVerificationRequester = (verificationId: string) =>
  useQuery({
    queryKey: ['verification-requester', verificationId] as const,
    queryFn: () => getVerificationRequester(verificationId),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
