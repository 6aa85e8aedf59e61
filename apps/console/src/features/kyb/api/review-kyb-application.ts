import type { KybReview } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { kybReviewsKey } from './find-kyb-reviews.ts';

export type KybDecision =
  | { applicationId: string; status: 'APPROVED' }
  | { applicationId: string; status: 'REJECTED'; reason: string };

/** POST /api/kyb-reviews/{id}/approve or /reject {reason}. */
export const reviewKybApplication = (decision: KybDecision) =>
  withCatalogue(
    'catalogue.verifyOrganization',
    decision.status === 'APPROVED'
      ? api.post<KybReview>(`/kyb-reviews/${encodeURIComponent(decision.applicationId)}/approve`)
      : api.post<KybReview>(`/kyb-reviews/${encodeURIComponent(decision.applicationId)}/reject`, {
          reason: decision.reason,
        }),
  );

export const useReviewKybApplication = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewKybApplication,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: kybReviewsKey }),
        queryClient.invalidateQueries({ queryKey: ['organizations'] }),
        queryClient.invalidateQueries({ queryKey: ['kyb'] }),
      ]);
    },
  });
};
