import { createHash, randomUUID } from 'node:crypto';
import { imageContentTypes, type MediaContentType, type MediaPurpose } from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import type { Storage } from '../../storage/storage.ts';
import * as repository from './media.repository.ts';

export type { MediaRow } from './media.repository.ts';

/**
 * The content type from the file's first bytes (its signature); the declared type and the extension are
 * never trusted. PNG (ISO/IEC 15948 §5.2), JPEG (SOI + marker), WebP (RIFF....WEBP), PDF (ISO 32000 §7.5.2).
 */
export function sniffContentType(bytes: Buffer): MediaContentType | null {
  const starts = (signature: number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

/** Storage keys carry the purpose (the table has only the visibility): `logo/<uuid>`, `kyb-document/<uuid>`. */
const keyPrefix: Record<MediaPurpose, string> = { logo: 'logo', avatar: 'avatar', kyb_document: 'kyb-document' };

export function purposeOf(row: Pick<repository.MediaRow, 'storageKey'>): MediaPurpose | null {
  const prefix = row.storageKey.split('/')[0];
  const entry = Object.entries(keyPrefix).find(([, p]) => p === prefix);
  return entry ? (entry[0] as MediaPurpose) : null;
}

/** A file name safe to keep and to echo in headers: no paths, no control characters, bounded. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = [...base]
    .filter((c) => c !== '"' && c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 200);
  return cleaned || 'file';
}

export interface UploadInput {
  purpose: MediaPurpose;
  filename: string | undefined;
  bytes: Buffer;
  /** The organization the file belongs to (logos, KYB documents); null for a user's avatar. */
  organizationId: string | null;
  userId: string;
}

export interface MediaDeps {
  db: Database;
  storage: Storage;
}

export async function uploadMedia(deps: MediaDeps, input: UploadInput) {
  if (input.bytes.length === 0) throw new AppError('MEDIA_FILE_REQUIRED', { detail: 'The file is empty.' });
  const contentType = sniffContentType(input.bytes);
  if (!contentType) {
    throw new AppError('MEDIA_TYPE_NOT_ALLOWED', { detail: 'Only PNG, JPEG, WebP and PDF files are accepted.' });
  }
  if (input.purpose !== 'kyb_document' && !imageContentTypes.includes(contentType)) {
    throw new AppError('MEDIA_TYPE_NOT_ALLOWED', { detail: 'Logos and avatars must be PNG, JPEG or WebP images.' });
  }
  const id = randomUUID();
  const storageKey = `${keyPrefix[input.purpose]}/${id}`;
  await deps.storage.put(storageKey, input.bytes, contentType);
  try {
    return await repository.insertMedia(deps.db, {
      id,
      organizationId: input.organizationId,
      uploadedByUserId: input.userId,
      visibility: input.purpose === 'kyb_document' ? 'private' : 'public',
      filename: cleanFilename(input.filename),
      contentType,
      sizeBytes: input.bytes.length,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      storageKey,
    });
  } catch (err) {
    await deps.storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
}

export interface MediaViewer {
  /** Organizations the viewer is a member of are checked through this callback (the organizations service). */
  isMember(organizationId: string): Promise<boolean>;
  isPlatformAdmin: boolean;
  userId: string;
}

/**
 * A file and its bytes for the viewer: public files for everyone; private ones for the owning organization's
 * members and platform administrators. Everyone else gets 404, never a hint that the file exists.
 */
export async function readMedia(deps: MediaDeps, id: string, viewer: MediaViewer | null) {
  const row = await repository.findMediaById(deps.db, id);
  if (!row) throw new AppError('MEDIA_NOT_FOUND');
  if (row.visibility !== 'public') {
    const allowed =
      viewer !== null &&
      (viewer.isPlatformAdmin ||
        (row.organizationId !== null
          ? await viewer.isMember(row.organizationId)
          : row.uploadedByUserId === viewer.userId));
    if (!allowed) throw new AppError('MEDIA_NOT_FOUND');
  }
  const bytes = await deps.storage.get(row.storageKey);
  if (!bytes) throw new AppError('MEDIA_NOT_FOUND');
  return { row, bytes };
}

/** A logo for the organization: its own upload, an image, uploaded as a logo. Else 404 / 400. */
export async function getOrganizationLogo(db: Database, organizationId: string, mediaId: string) {
  const [row] = await repository.findOrganizationMedia(db, organizationId, [mediaId]);
  if (!row) throw new AppError('MEDIA_NOT_FOUND', { detail: 'No such file in this organization.' });
  if (purposeOf(row) !== 'logo' || !imageContentTypes.includes(row.contentType as MediaContentType)) {
    throw new AppError('MEDIA_NOT_AN_IMAGE', { detail: 'The logo must be an image uploaded as a logo.' });
  }
  return row;
}

/** The user's own avatar upload (an image), else 404. */
export async function getUserAvatar(db: Database, userId: string, mediaId: string) {
  const row = await repository.findMediaById(db, mediaId);
  if (!row || row.uploadedByUserId !== userId || purposeOf(row) !== 'avatar') throw new AppError('MEDIA_NOT_FOUND');
  return row;
}

export function findOrganizationMedia(db: Database, organizationId: string, ids: string[]) {
  return repository.findOrganizationMedia(db, organizationId, ids);
}

export function findMediaByIds(db: Database, ids: string[]) {
  return repository.findMediaByIds(db, ids);
}
