import type { MediaContentType, UploadedMedia } from '@cp/contracts';
import type { MediaRow } from './media.repository.ts';

/** Address of a file: public files are served as is; private ones need the caller's credentials. */
export const mediaUrl = (publicUrl: string, id: string) => `${publicUrl.replace(/\/$/, '')}/api/media/${id}`;

export function presentMedia(row: MediaRow, publicUrl: string): UploadedMedia {
  return {
    id: row.id,
    url: mediaUrl(publicUrl, row.id),
    filename: row.filename,
    created_at: row.createdAt.toISOString(),
    content_type: row.contentType as MediaContentType,
    size: row.sizeBytes,
  };
}
