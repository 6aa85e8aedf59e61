import {
  zCredentialImport,
  zCredentialImportFields,
  zCredentialImportStarted,
  zCredentialImportTemplateQuery,
  zCredentialMailPreview,
  zCredentialMailPreviewRequest,
  zIdParams,
  zNotifyViaSchemaRequest,
  zNotifyViaSchemaResponse,
} from '@cp/contracts';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors/app-error.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import * as deliveriesService from './credential-deliveries.service.ts';
import { presentCredentialImport } from './credential-imports.presenter.ts';
import * as importsService from './credential-imports.service.ts';
import * as mailService from './credential-mail.service.ts';
import { credentialMailLocaleFromAcceptLanguage } from './credential-mail.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

function uploadError(err: unknown): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('CREDENTIAL_IMPORT_TOO_LARGE', { detail: 'The file is too large.', cause: err });
  }
  if (code === 'FST_FILES_LIMIT') {
    return new AppError('CREDENTIAL_IMPORT_INVALID_FILE', { detail: 'Upload one CSV file.', cause: err });
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('CREDENTIAL_IMPORT_FILE_REQUIRED', {
      detail: 'Send the file as multipart/form-data.',
      cause: err,
    });
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION') {
    return new AppError('REQUEST_INVALID', { detail: 'Too many form fields.', cause: err });
  }
  return err;
}

/** CSV import (durable job), its template, the e-mail's preview and e-mail delivery of named credentials. */
export function credentialImportsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const imports = ctx.deps.imports;
  const deliveries = ctx.deps.deliveries;
  const preview = ctx.deps.mailPreview;
  return async (plugin) => {
    await plugin.register(multipart, {
      // One byte over the import's limit: the upload checks then refuse the file with CREDENTIAL_IMPORT_TOO_LARGE.
      limits: { fileSize: importsService.importLimits.maxBytes + 1, files: 1, fields: 5, parts: 6, fieldSize: 2048 },
    });
    const app = plugin.withTypeProvider<ZodTypeProvider>();
    app.addHook('preHandler', authenticate(ctx, { allowApiKey: true }));

    app.post(
      '/credentials/import',
      {
        config: { role: 'member' }, // issuing: every member (and API keys)
        schema: {
          tags: ['credentials'],
          summary: 'Import credentials from a CSV file (multipart `file`, `schema_id`, optional `name`, `description`)',
          security: apiKeyOrUserSecurity,
          consumes: ['multipart/form-data'],
          response: { 202: zCredentialImportStarted },
        },
      },
      async (request, reply) => {
        const scope = requireOrganization(request);
        // The file goes to storage as it arrives (checked on the way), never whole in memory; the form
        // fields may come before or after it.
        let received: importsService.ReceivedImportFile | undefined;
        const fields: Record<string, string> = {};
        let row: Awaited<ReturnType<typeof importsService.startImport>>;
        try {
          try {
            for await (const part of request.parts()) {
              if (part.type === 'file') {
                if (part.fieldname === 'file' && !received) {
                  received = await importsService.receiveImportFile(imports, scope.organizationId, part.file);
                  if (part.file.truncated) throw uploadError({ code: 'FST_REQ_FILE_TOO_LARGE' });
                } else {
                  part.file.resume(); // another file field: read past it
                }
              } else if (typeof part.value === 'string') {
                fields[part.fieldname] = part.value;
              }
            }
          } catch (err) {
            throw uploadError(err);
          }
          if (!received) {
            throw new AppError('CREDENTIAL_IMPORT_FILE_REQUIRED', {
              detail: 'Attach the CSV file in the field "file".',
            });
          }
          // PostgreSQL text cannot hold NUL characters (JSON bodies are checked in app.ts; form fields here).
          if (Object.values(fields).some((value) => value.includes('\u0000'))) {
            throw new AppError('REQUEST_INVALID', { detail: 'Text must not contain NUL characters.' });
          }
          const parsed = zCredentialImportFields.safeParse(fields);
          if (!parsed.success) {
            throw new AppError('REQUEST_INVALID', {
              detail: 'The form fields are invalid.',
              errors: parsed.error.issues.map((i) => ({ path: `body.${i.path.join('.')}`, message: i.message })),
            });
          }
          const file = received;
          received = undefined; // startImport deletes it if it refuses the import
          row = await importsService.startImport(imports, scope, parsed.data, file);
        } finally {
          if (received) await importsService.discardImportFile(imports, received);
        }
        return reply.status(202).send({ id: row.id, total_count: row.totalCount, status: row.status as 'PENDING' });
      },
    );

    app.get(
      '/credentials/import/template',
      {
        config: { role: 'member' }, // issuing: every member (and API keys)
        schema: {
          tags: ['credentials'],
          summary: 'The CSV template of a schema (header and one sample row)',
          security: apiKeyOrUserSecurity,
          querystring: zCredentialImportTemplateQuery,
        },
      },
      async (request, reply) => {
        const { organizationId } = requireOrganization(request);
        const template = await importsService.buildTemplate(db, organizationId, request.query.schema_id);
        const filename = template.filename.replace(/[^\w.-]/g, '_');
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(template.body);
      },
    );

    app.get(
      '/credentials/import/:id',
      {
        config: { role: 'member' }, // issuing: every member (and API keys)
        schema: {
          tags: ['credentials'],
          summary: 'Progress and row errors of a CSV import',
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zCredentialImport },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        return presentCredentialImport(await importsService.getImport(db, organizationId, request.params.id));
      },
    );

    app.post(
      '/credentials/notify/via-schema',
      {
        config: { role: 'member' }, // issuing: every member (and API keys)
        schema: {
          tags: ['credentials'],
          summary:
            'E-mail exactly the named credentials (credential_ids, ≤ 1,000 per call, and/or import_id) that were never e-mailed; answers how many were queued',
          security: apiKeyOrUserSecurity,
          body: zNotifyViaSchemaRequest,
          response: { 200: zNotifyViaSchemaResponse },
        },
      },
      async (request) => {
        const { organizationId, actor } = requireOrganization(request);
        const locale =
          request.body.locale ?? credentialMailLocaleFromAcceptLanguage(request.headers['accept-language']);
        return deliveriesService.notifyViaSchema(deliveries, organizationId, { ...request.body, locale }, actor);
      },
    );

    app.post(
      '/credentials/mail-preview',
      {
        config: { role: 'member' }, // issuing: every member (and API keys)
        schema: {
          tags: ['credentials'],
          summary: 'The credential e-mail as it will be sent (subject, HTML, text), with a placeholder claim link',
          security: apiKeyOrUserSecurity,
          body: zCredentialMailPreviewRequest,
          response: { 200: zCredentialMailPreview },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        const locale =
          request.body.locale ?? credentialMailLocaleFromAcceptLanguage(request.headers['accept-language']);
        return mailService.previewCredentialMail(preview, organizationId, { ...request.body, locale });
      },
    );
  };
}
