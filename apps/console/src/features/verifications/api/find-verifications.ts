import type { VerificationPage, VerificationType } from '@cp/contracts';
import { PAGE_SIZE_DEFAULT } from '@cp/contracts';
import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** Every cached verification query of an organization starts with this key (invalidated after a change). */
export const verificationsKey = (organizationId: string) => ['verifications', organizationId] as const;

/** How often a visible list asks again: holders complete attempts on their own phones, which the console never sees. */
export const VERIFICATIONS_REFRESH_MS = 15_000;

/** Asks for the lists again (their usage counts), e.g. once a QR code or a history was looked at. */
export const refreshVerificationLists = (queryClient: QueryClient, organizationId: string) =>
  queryClient.invalidateQueries({ queryKey: [...verificationsKey(organizationId), 'list'] });

/** GET /api/verifications?page&limit&type: one kind of verification (single-use or reusable), newest first. */
export const findVerifications = (
  organizationId: string,
  type: VerificationType,
  page: number,
  limit = PAGE_SIZE_DEFAULT,
) =>
  withCatalogue(
    'catalogue.getVerifications',
    api.get<VerificationPage>('/verifications', { query: { page, limit, type }, identity: organizationId }),
  );

export const verificationsQuery = (
  organizationId: string,
  type: VerificationType,
  page: number,
  limit = PAGE_SIZE_DEFAULT,
) =>
  queryOptions({
    queryKey: [...verificationsKey(organizationId), 'list', type, page, limit] as const,
    queryFn: () => findVerifications(organizationId, type, page, limit),
  });

export const useVerifications = (organizationId: string | undefined, type: VerificationType, page: number) =>
  useQuery({
    ...verificationsQuery(organizationId ?? '', type, page),
    enabled: Boolean(organizationId),
    // The list keeps the current page while the next one loads.
    placeholderData: keepPreviousData,
    // Usage counts move while the page is open: asked again every few seconds while the page is visible (react-query
    // pauses the interval in a hidden tab) and on coming back to it.
    staleTime: 0,
    refetchInterval: VERIFICATIONS_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
