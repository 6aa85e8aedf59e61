import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

export const credentialImportStatuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export const zCredentialImportStatus = z.enum(credentialImportStatuses);

/**
 * Default limits of a CSV import (the API refuses larger files with CREDENTIAL_IMPORT_TOO_LARGE, more rows
 * with CREDENTIAL_IMPORT_TOO_MANY_ROWS); a deployment sets its own with CREDENTIAL_IMPORT_MAX_BYTES and
 * CREDENTIAL_IMPORT_MAX_ROWS. The upload is streamed to storage, so the size costs disk, not memory.
 */
export const CREDENTIAL_IMPORT_MAX_BYTES = 512 * 1024 * 1024;
export const CREDENTIAL_IMPORT_MAX_ROWS = 1_000_000;
/** The fixed leading columns of the CSV template; the schema's attribute names follow. */
export const CREDENTIAL_IMPORT_RECIPIENT_COLUMNS = [
  'recipient_first_name',
  'recipient_last_name',
  'recipient_email',
] as const;

/**
 * `POST credentials/import` is multipart: `file` (CSV) and the fields below. The answer is
 * `zCredentialImportStarted`; progress comes from `GET credentials/import/{id}`.
 */
export const zCredentialImportFields = z.object({
  schema_id: z.uuid(),
  /** Credential name and description for every row; default to the schema's name. */
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().trim().max(1000).optional(),
});
export type CredentialImportFields = z.infer<typeof zCredentialImportFields>;

export const zCredentialImportStarted = z.object({
  id: z.uuid(),
  total_count: z.number().int(),
  status: zCredentialImportStatus,
});

export const zCredentialImportError = z.object({ row: z.number().int(), column: z.string(), message: z.string() });

export const zCredentialImport = z.object({
  id: z.uuid(),
  schema_id: z.uuid().nullable(),
  status: zCredentialImportStatus,
  total_count: z.number().int(),
  processed_count: z.number().int(),
  succeeded_count: z.number().int(),
  failed_count: z.number().int(),
  /** Row numbers count the header as row 1, as spreadsheets show them. */
  errors: z.array(zCredentialImportError),
  failure_reason: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  completed_at: z.iso.datetime({ offset: true }).nullable(),
});
export type CredentialImport = z.infer<typeof zCredentialImport>;

/** Languages of the credential e-mail: the console's languages (spec §9). */
/** The languages a claim e-mail can be written in: the product's languages. */
export const credentialMailLocales = LANGUAGES;
export const zCredentialMailLocale = z.enum(credentialMailLocales);
export type CredentialMailLocale = z.infer<typeof zCredentialMailLocale>;

/** At most this many credential ids per `POST credentials/notify/via-schema` call (the console sends batches). */
export const NOTIFY_MAX_CREDENTIAL_IDS = 1000;

/**
 * `POST credentials/notify/via-schema`: e-mail exactly the named credentials of the schema — `credential_ids`
 * and/or every successful row of the CSV import `import_id` — that can still be sent (not claimed, revoked or
 * deleted, and not e-mailed already). At least one of the two is required: nothing is ever sent to "every
 * credential of the schema". Ids of another organization, or of another schema, are ignored.
 */
export const zNotifyViaSchemaRequest = z.strictObject({
  schema_id: z.uuid(),
  credential_ids: z.array(z.uuid()).max(NOTIFY_MAX_CREDENTIAL_IDS).optional(),
  import_id: z.uuid().optional(),
  message: z.string().trim().max(2000).optional(),
  /**
   * The e-mail's language (the sender's console language). Without it, the best match of the request's
   * Accept-Language among these, else `en`.
   */
  locale: zCredentialMailLocale.optional(),
});
export type NotifyViaSchemaRequest = z.infer<typeof zNotifyViaSchemaRequest>;
/** `queued`: how many e-mails this call queued, exactly (each goes out once). */
export const zNotifyViaSchemaResponse = z.object({ queued: z.number().int() });
export type NotifyViaSchemaResponse = z.infer<typeof zNotifyViaSchemaResponse>;

/**
 * `POST credentials/mail-preview`: the credential e-mail exactly as it will be sent (the same renderer), for
 * the first recipient (or a placeholder name), with a placeholder claim link and QR code.
 */
export const zCredentialMailPreviewRequest = z.strictObject({
  schema_id: z.uuid(),
  /** The credential's name; the schema's name when empty. */
  name: z.string().trim().max(200).optional(),
  description: z.string().trim().max(1000).optional(),
  message: z.string().trim().max(2000).optional(),
  locale: zCredentialMailLocale.optional(),
  /** The first recipient as typed in the wizard; else `credential_id` names one of the organization's. */
  recipient: z
    .strictObject({ first_name: z.string().trim().max(100), last_name: z.string().trim().max(100) })
    .optional(),
  credential_id: z.uuid().optional(),
});
export type CredentialMailPreviewRequest = z.infer<typeof zCredentialMailPreviewRequest>;
export const zCredentialMailPreview = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type CredentialMailPreview = z.infer<typeof zCredentialMailPreview>;

/** `GET credentials/import/template?schema_id=` answers text/csv: the header and one sample row. */
export const zCredentialImportTemplateQuery = z.object({ schema_id: z.uuid(), t: z.string().max(32).optional() });
