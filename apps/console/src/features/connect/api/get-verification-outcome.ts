import type { IndividualStatus, VerificationOutcome } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const VERIFICATION_POLL_MS = 3000;

export const isFinalIndividualStatus = (status: IndividualStatus | undefined) =>
  status === 'VERIFIED' || status === 'FAILED';

/** GET /api/verifications/{individualId}/verify (public): the attempt's outcome, without personal data. */
export const getVerificationOutcome = (id: string) =>
  withCatalogue(
    'catalogue.connectVerification',
    api.get<VerificationOutcome>(`/verifications/${encodeURIComponent(id)}/verify`),
  );

/** Polls every 3 s while the holder's wallet has not answered; stops at VERIFIED, FAILED or an error. */
export const useVerificationOutcome = (id: string) =>
  useQuery({
    queryKey: ['verification-outcome', id] as const,
    queryFn: () => getVerificationOutcome(id),
    retry: false,
    // On a desktop the wallet opens in another tab: this page keeps following while hidden, so it already shows
    // the outcome when the holder comes back to it.
    refetchIntervalInBackground: true,
    refetchInterval: (query) => {
      if (query.state.error || isFinalIndividualStatus(query.state.data?.status)) return false;
      return VERIFICATION_POLL_MS;
    },
  });
