import type { VerificationIndividualPage } from '@cp/contracts';
import { PAGE_SIZE_DEFAULT } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { verificationsKey } from './find-verifications.ts';

/** GET /api/verifications/{id}/individuals?page&limit: the holders' attempts, newest first, 10 per page. */
export const findVerificationIndividuals = (organizationId: string, verificationId: string, page: number) =>
  withCatalogue(
    'catalogue.getVerificationIndividuals',
    api.get<VerificationIndividualPage>(`/verifications/${encodeURIComponent(verificationId)}/individuals`, {
      query: { page, limit: PAGE_SIZE_DEFAULT },
      identity: organizationId,
    }),
  );

export const useVerificationIndividuals = (
  organizationId: string | undefined,
  verificationId: string | null,
  page: number,
  isOpen = true,
) =>
  useQuery({
    queryKey: [...verificationsKey(organizationId ?? ''), 'individuals', verificationId, page] as const,
    queryFn: () => findVerificationIndividuals(organizationId ?? '', verificationId ?? '', page),
    // Closed, the last answer stays on screen while the dialog fades out; reopened, it is asked for again.
    enabled: Boolean(organizationId && verificationId) && isOpen,
    // The current page stays while the next one loads, but never another verification's attempts.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[3] === verificationId ? previous : undefined,
    // Attempts advance while the dialog is open (a wallet answers): never serve a stale history.
    staleTime: 0,
  });
