import { z } from 'zod';
import { pageOf, zPageQuery } from './common.ts';
import { zUploadedMedia } from './media.ts';

export const KYB_DOCUMENTS_MAX = 5;

export const kybApplicationStatuses = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export const zKybApplicationStatus = z.enum(kybApplicationStatuses);
export type KybApplicationStatus = z.infer<typeof zKybApplicationStatus>;

/** `POST kyb/{orgId}`: media ids of documents uploaded with purpose kyb_document. */
export const zCreateKybApplicationRequest = z.strictObject({
  documents: z.array(z.uuid()).min(1).max(KYB_DOCUMENTS_MAX),
});
export type CreateKybApplicationRequest = z.infer<typeof zCreateKybApplicationRequest>;

export const zKybApplication = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  status: zKybApplicationStatus,
  reason: z.string().nullable(),
  submitted_at: z.iso.datetime({ offset: true }),
  reviewed_at: z.iso.datetime({ offset: true }).nullable(),
  documents: z.array(zUploadedMedia),
});
export type KybApplication = z.infer<typeof zKybApplication>;

/** `GET kyb/{orgId}`: the latest application, or null when the organization never applied. */
export const zKybApplicationState = z.object({ application: zKybApplication.nullable() });
export type KybApplicationState = z.infer<typeof zKybApplicationState>;

/** One row of the administrators' review queue. */
export const zKybReview = zKybApplication.extend({ organization_name: z.string() });
export type KybReview = z.infer<typeof zKybReview>;

export const zKybReviewQuery = zPageQuery.extend({ status: zKybApplicationStatus.default('PENDING') });
export type KybReviewQuery = z.infer<typeof zKybReviewQuery>;

export const zKybReviewPage = pageOf(zKybReview);
export type KybReviewPage = z.infer<typeof zKybReviewPage>;

export const KYB_REASON_MAX = 2000;

export const zRejectKybApplicationRequest = z.strictObject({
  reason: z.string().trim().min(1).max(KYB_REASON_MAX),
});
export type RejectKybApplicationRequest = z.infer<typeof zRejectKybApplicationRequest>;
