import { zIdParams, zUploadedMedia, zUploadMediaFields } from '@cp/contracts';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors/app-error.ts';
import { assertRole, authenticate, requireOrganization, requireUser } from '../../plugins/authenticate.ts';
import * as kybService from '../kyb/kyb.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as usersService from '../users/users.service.ts';
import { presentMedia } from './media.presenter.ts';
import * as mediaService from './media.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional(), download: z.enum(['1']).optional() });

/** Multipart failures of @fastify/multipart mapped to our codes (its errors carry FST_* codes). */
function uploadError(err: unknown): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('MEDIA_TOO_LARGE', { cause: err });
  if (code === 'FST_FILES_LIMIT') return new AppError('MEDIA_TOO_MANY_FILES', { cause: err });
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('MEDIA_FILE_REQUIRED', { detail: 'Send the file as multipart/form-data.', cause: err });
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('REQUEST_INVALID', { detail: 'Too many form fields.', cause: err });
  }
  return err;
}

export function mediaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const deps = ctx.deps.media;
  const { maxBytes, maxFiles } = ctx.config.uploads;
  const limitText = `${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB`;

  /** Who is reading a file: a signed-in user when the request carries valid credentials, else nobody. */
  async function viewerOf(request: FastifyRequest, reply: FastifyReply): Promise<mediaService.MediaViewer | null> {
    if (!request.headers.authorization) return null;
    try {
      await authenticate(ctx)(request, reply);
      const { userId } = requireUser(request);
      const user = await usersService.getUser(db, userId);
      return {
        userId,
        isPlatformAdmin: kybService.isPlatformAdmin(ctx.config, user),
        isMember: async (organizationId) => {
          try {
            await organizationsService.assertMember(db, organizationId, userId);
            return true;
          } catch {
            return false;
          }
        },
      };
    } catch {
      return null;
    }
  }

  return async (app) => {
    await app.register(multipart, {
      limits: { fileSize: maxBytes, files: maxFiles, fields: 5, parts: maxFiles + 5, fieldSize: 1024 },
    });

    app.post(
      '/media/upload',
      {
        config: { role: 'user' }, // avatars: anyone; logo and KYB documents: admins (checked below)
        preHandler: authenticate(ctx),
        schema: {
          tags: ['media'],
          summary: `Upload one file (field \`file\`, PNG/JPEG/WebP/PDF by content, at most ${limitText}) with a \`purpose\``,
          consumes: ['multipart/form-data'],
          response: { 201: zUploadedMedia },
        },
      },
      async (request, reply) => {
        const { userId } = requireUser(request);
        let file: { filename: string; bytes: Buffer } | undefined;
        const fields: Record<string, string> = {};
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file' || file) {
                // Drain what we do not keep so the parser can move on.
                await part.toBuffer();
                if (file && part.fieldname === 'file') {
                  throw new AppError('MEDIA_TOO_MANY_FILES', { detail: 'Upload one file per request.' });
                }
                continue;
              }
              file = { filename: part.filename, bytes: await part.toBuffer() };
            } else if (typeof part.value === 'string') {
              fields[part.fieldname] = part.value;
            }
          }
        } catch (err) {
          throw uploadError(err);
        }
        if (!file) throw new AppError('MEDIA_FILE_REQUIRED', { detail: 'Attach the file in the field "file".' });
        const parsed = zUploadMediaFields.safeParse(fields);
        if (!parsed.success) {
          throw new AppError('REQUEST_INVALID', {
            detail: 'purpose must be logo, avatar or kyb_document.',
            errors: [{ path: 'body.purpose', message: 'Invalid value' }],
          });
        }
        const { purpose } = parsed.data;
        // Avatars belong to the user; logos and KYB documents to the organization named by CurrentIdentity.
        const organizationId = purpose === 'avatar' ? null : requireOrganization(request).organizationId;
        if (organizationId) assertRole(request, 'admin'); // a logo or KYB document: the organization's admins
        const row = await mediaService.uploadMedia(deps, {
          purpose,
          filename: file.filename,
          bytes: file.bytes,
          organizationId,
          userId,
        });
        return reply.status(201).send(presentMedia(row, ctx.config.publicUrl));
      },
    );

    app.get(
      '/media/:id',
      {
        config: { role: 'user' }, // public files for all, private ones checked by the media service
        schema: {
          tags: ['media'],
          summary: 'A file: logos and avatars for everyone, KYB documents for members and platform administrators',
          params: zIdParams,
          querystring: zQuery,
        },
      },
      async (request, reply) => {
        const viewer = await viewerOf(request, reply);
        const { row, bytes } = await mediaService.readMedia(deps, request.params.id, viewer);
        const disposition = request.query.download ? 'attachment' : 'inline';
        return (
          reply
            .header('content-type', row.contentType)
            .header('content-length', String(bytes.length))
            .header('x-content-type-options', 'nosniff')
            .header(
              'content-disposition',
              `${disposition}; filename="${row.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(row.filename)}`,
            )
            .header(
              'cache-control',
              // A media id never changes content; private files must not sit in shared caches.
              row.visibility === 'public' ? 'public, max-age=31536000, immutable' : 'private, no-store',
            )
            // Logos and avatars appear in the wallet and verifier pages on other origins; private files never.
            .header('cross-origin-resource-policy', row.visibility === 'public' ? 'cross-origin' : 'same-origin')
            .header('etag', `"${row.sha256}"`)
            .send(bytes)
        );
      },
    );
  };
}
