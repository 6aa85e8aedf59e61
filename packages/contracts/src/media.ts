import { z } from 'zod';
import { zMedia } from './common.ts';

/** What an upload is for: logos and avatars are public, KYB documents private to the organization. */
export const mediaPurposes = ['logo', 'avatar', 'kyb_document'] as const;
export const zMediaPurpose = z.enum(mediaPurposes);
export type MediaPurpose = z.infer<typeof zMediaPurpose>;

/** Content types accepted, recognized by their first bytes (never by the declared type or extension). */
export const mediaContentTypes = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'] as const;
export const zMediaContentType = z.enum(mediaContentTypes);
export type MediaContentType = z.infer<typeof zMediaContentType>;

/** Logos and avatars must be images. */
export const imageContentTypes: readonly MediaContentType[] = ['image/png', 'image/jpeg', 'image/webp'];

/** `POST media/upload` multipart fields besides `file`. */
export const zUploadMediaFields = z.object({ purpose: zMediaPurpose.default('logo') });
export type UploadMediaFields = z.infer<typeof zUploadMediaFields>;

export const zUploadedMedia = zMedia.extend({
  content_type: zMediaContentType,
  size: z.number().int(),
});
export type UploadedMedia = z.infer<typeof zUploadedMedia>;
