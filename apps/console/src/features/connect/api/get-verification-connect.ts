import type { VerificationConnect } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** GET /api/verifications/{individualId}/connect (public): what the holder page shows. */
export const getVerificationConnect = (id: string) =>
  withCatalogue(
    'catalogue.connectVerification',
    api.get<VerificationConnect>(`/verifications/${encodeURIComponent(id)}/connect`),
  );

/** Loaded once: the verifier, the request and the wallet URL do not change while the page is open. */
export const useVerificationConnect = (id: string) =>
  useQuery({
    queryKey: ['verification-connect', id] as const,
    queryFn: () => getVerificationConnect(id),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
