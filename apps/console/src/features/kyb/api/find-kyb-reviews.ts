import type { KybApplicationStatus, KybReviewPage } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const kybReviewsKey = ['kyb-reviews'] as const;

/** GET /api/kyb-reviews?status&page&limit: the platform administrators' review queue. */
export const findKybReviews = (params: { status: KybApplicationStatus; page: number; limit: number }) =>
  withCatalogue('catalogue.verifyOrganization', api.get<KybReviewPage>('/kyb-reviews', { query: params }));

export const kybReviewsQuery = (params: { status: KybApplicationStatus; page: number; limit: number }) =>
  queryOptions({ queryKey: [...kybReviewsKey, params], queryFn: () => findKybReviews(params) });

export const useKybReviews = (params: { status: KybApplicationStatus; page: number; limit: number }) =>
  useQuery({ ...kybReviewsQuery(params), placeholderData: keepPreviousData });
