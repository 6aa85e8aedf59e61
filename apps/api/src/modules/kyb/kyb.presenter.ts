import type { KybApplication, KybApplicationStatus, KybReview } from '@cp/contracts';
import { presentMedia } from '../media/media.presenter.ts';
import type { MediaRow } from '../media/media.service.ts';
import type { KybApplicationRow } from './kyb.repository.ts';

export function presentKybApplication(
  row: KybApplicationRow,
  documents: MediaRow[],
  publicUrl: string,
): KybApplication {
  const byId = new Map(documents.map((d) => [d.id, d]));
  return {
    id: row.id,
    organization_id: row.organizationId,
    status: row.status as KybApplicationStatus,
    reason: row.reason,
    submitted_at: row.submittedAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    // In the order submitted; a document deleted since is left out.
    documents: row.documentIds.flatMap((id) => {
      const document = byId.get(id);
      return document ? [presentMedia(document, publicUrl)] : [];
    }),
  };
}

export function presentKybReview(
  row: KybApplicationRow,
  organizationName: string,
  documents: MediaRow[],
  publicUrl: string,
): KybReview {
  return { ...presentKybApplication(row, documents, publicUrl), organization_name: organizationName };
}
