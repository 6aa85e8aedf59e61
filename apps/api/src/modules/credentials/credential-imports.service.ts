import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CREDENTIAL_IMPORT_MAX_BYTES,
  CREDENTIAL_IMPORT_MAX_ROWS,
  CREDENTIAL_IMPORT_RECIPIENT_COLUMNS,
  type CredentialImportFields,
} from '@cp/contracts';
import { type AttributeType, buildClaims, type ClaimTypingError } from '@cp/credentials';
import type { Database } from '@cp/db';
import { parse } from 'csv-parse';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import type { Storage } from '../../storage/storage.ts';
import { type AuditActor, recordAuditEvent, SYSTEM_ACTOR } from '../audit-events/audit-events.service.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import * as kybService from '../kyb/kyb.service.ts';
import * as repository from './credential-imports.repository.ts';
import * as credentialsRepository from './credentials.repository.ts';
import type { SchemaSnapshot } from './credentials.service.ts';

/** Limits of an upload; tests and the benchmark may lower or raise them (the contract values by default). */
export const importLimits = { maxBytes: CREDENTIAL_IMPORT_MAX_BYTES, maxRows: CREDENTIAL_IMPORT_MAX_ROWS };
/** Row errors kept on the import (the counts stay exact beyond it). */
export const MAX_STORED_ERRORS = 1000;
export const DEFAULT_BATCH_SIZE = 500;

export interface ImportDeps {
  db: Database;
  storage: Storage;
  statusListSize: number;
  /** Queues the durable job of an import (pg-boss, singleton per import). */
  enqueue: (importId: string) => Promise<void>;
}

const zRecipientEmail = z.email().max(320);

/** Messages of row errors, as the console shows them (spec §8 wording). */
const claimMessages: Record<ClaimTypingError, string> = {
  REQUIRED: 'This field is required',
  NOT_A_NUMBER: 'Must be a number',
  NOT_A_BOOLEAN: 'Must be true or false',
  NOT_A_URL: 'Must be a valid URL',
  NOT_A_DATE: 'Must be a valid date',
  NOT_AN_EMAIL: 'Must be a valid e-mail',
  TOO_LONG: 'Too long',
};

type SchemaAttributes = SchemaSnapshot['attributes'];

export function templateColumns(attributes: { name: string }[]) {
  return [...CREDENTIAL_IMPORT_RECIPIENT_COLUMNS, ...attributes.map((a) => a.name)];
}

const sampleValues: Record<AttributeType, string> = {
  TEXT: 'Sample text',
  NUMBER: '42',
  BOOLEAN: 'true',
  URL: 'https://example.com',
  DATETIME: '2025-01-31',
  EMAIL: 'someone@example.com',
};

function csvCell(value: string) {
  return /[",\r\n]/.test(value) || value.trim() !== value ? `"${value.replaceAll('"', '""')}"` : value;
}

async function loadSchema(db: Database, organizationId: string, schemaId: string) {
  const record = await credentialSchemasService.getCredentialSchema(db, { organizationId, id: schemaId });
  const attributes: SchemaAttributes = record.attributes.map((a) => ({
    name: a.name,
    type: a.type as AttributeType,
    description: a.description,
  }));
  const snapshot: SchemaSnapshot = {
    id: record.schema.id,
    name: record.schema.name,
    slug: record.schema.slug,
    attributes,
  };
  return { record, snapshot };
}

/** The CSV template of a schema: the header and one sample row valid for every type. */
export async function buildTemplate(db: Database, organizationId: string, schemaId: string) {
  const { snapshot } = await loadSchema(db, organizationId, schemaId);
  const header = templateColumns(snapshot.attributes);
  const sample = ['Ada', 'Lovelace', 'ada@example.com', ...snapshot.attributes.map((a) => sampleValues[a.type])];
  return {
    filename: `${snapshot.slug || 'credentials'}-template.csv`,
    body: `${header.map(csvCell).join(',')}\r\n${sample.map(csvCell).join(',')}\r\n`,
  };
}

function csvParser() {
  return parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false });
}

const invalidFile = (detail = 'Please upload a valid CSV file', cause?: unknown) =>
  new AppError('CREDENTIAL_IMPORT_INVALID_FILE', { detail, cause });

/**
 * Cheap checks at upload: UTF-8 text, a CSV whose header is the template's columns exactly, at least one
 * row, within the limits. Answers the number of data rows.
 */
export async function inspectCsv(bytes: Buffer, expectedColumns: string[]) {
  if (bytes.length > importLimits.maxBytes) {
    throw new AppError('CREDENTIAL_IMPORT_TOO_LARGE', {
      detail: `The file is larger than ${importLimits.maxBytes} bytes.`,
    });
  }
  if (bytes.length === 0) throw new AppError('CREDENTIAL_IMPORT_EMPTY', { detail: 'The file is empty.' });
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw invalidFile('Please upload a valid CSV file (UTF-8 text).', err);
  }
  if (bytes.includes(0)) throw invalidFile();
  let header: string[] | undefined;
  let rows = 0;
  try {
    for await (const record of Readable.from([bytes]).pipe(csvParser()) as AsyncIterable<string[]>) {
      if (!header) {
        header = record.map((c) => c.trim());
        checkHeader(header, expectedColumns);
        continue;
      }
      rows += 1;
      if (rows > importLimits.maxRows) {
        throw new AppError('CREDENTIAL_IMPORT_TOO_MANY_ROWS', {
          detail: `The file has more than ${importLimits.maxRows} rows.`,
        });
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalidFile('Please upload a valid CSV file', err);
  }
  if (!header) throw new AppError('CREDENTIAL_IMPORT_EMPTY', { detail: 'The file is empty.' });
  if (rows === 0) throw new AppError('CREDENTIAL_IMPORT_EMPTY', { detail: 'The file has a header but no rows.' });
  return rows;
}

function checkHeader(header: string[], expected: string[]) {
  const missing = expected.filter((c) => !header.includes(c));
  const unknown = header.filter((c) => !expected.includes(c));
  const duplicated = header.filter((c, i) => header.indexOf(c) !== i);
  if (missing.length === 0 && unknown.length === 0 && duplicated.length === 0) return;
  const parts = [
    missing.length > 0 ? `missing columns: ${missing.join(', ')}` : '',
    unknown.length > 0 ? `unknown columns: ${unknown.join(', ')}` : '',
    duplicated.length > 0 ? `duplicated columns: ${duplicated.join(', ')}` : '',
  ].filter(Boolean);
  throw new AppError('CREDENTIAL_IMPORT_HEADER_INVALID', {
    detail: `The header does not match the template (${parts.join('; ')}).`,
    errors: [
      ...missing.map((c) => ({ path: `file.header.${c}`, message: 'MISSING' })),
      ...unknown.map((c) => ({ path: `file.header.${c}`, message: 'UNKNOWN' })),
      ...duplicated.map((c) => ({ path: `file.header.${c}`, message: 'DUPLICATED' })),
    ],
  });
}

/** Validates an upload, stores the file, records the import (PENDING) and queues its job. */
export async function startImport(
  deps: ImportDeps,
  scope: { organizationId: string; userId: string | null; actor: AuditActor },
  fields: CredentialImportFields,
  bytes: Buffer,
) {
  await kybService.assertOrganizationVerified(deps.db, scope.organizationId);
  const { record, snapshot } = await loadSchema(deps.db, scope.organizationId, fields.schema_id);
  if (record.schema.issueDisabled) {
    throw new AppError('CREDENTIAL_SCHEMA_ISSUE_DISABLED', {
      detail: 'This schema can be used for verification only.',
    });
  }
  const totalCount = await inspectCsv(bytes, templateColumns(snapshot.attributes));
  const id = randomUUID();
  const storageKey = `credential-imports/${scope.organizationId}/${id}`;
  await deps.storage.put(storageKey, bytes, 'text/csv');
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repository.insertImport(tx, {
      id,
      organizationId: scope.organizationId,
      schemaId: record.schema.id,
      createdByUserId: scope.userId,
      credentialName: fields.name || record.schema.name,
      credentialDescription: fields.description || null,
      storageKey,
      status: 'PENDING',
      totalCount,
    });
    // One event for the whole file: the rows become credentials in the job, which records its end.
    await recordAuditEvent(tx, scope, {
      action: 'credential_import.started',
      target: { id, label: inserted.credentialName },
      details: { schema_id: record.schema.id, total_count: totalCount },
    });
    return inserted;
  });
  await deps.enqueue(id);
  return row;
}

export async function getImport(db: Database, organizationId: string, id: string) {
  const row = await repository.findImport(db, organizationId, id);
  if (!row) throw new AppError('CREDENTIAL_IMPORT_NOT_FOUND');
  return row;
}

export interface RunImportOptions {
  batchSize?: number;
  /** Test hook: called after each stored batch (throwing simulates a crash mid-import). */
  afterBatch?: (batch: number) => Promise<void> | void;
}

/**
 * The import job: streams the stored CSV, validates every row, inserts valid rows in batches with their
 * status indexes reserved per batch. Idempotent: rows already stored by an earlier (crashed) run are
 * skipped and (import_id, import_row) is unique, so a re-run neither loses nor duplicates rows. Counts and
 * errors are recomputed from the file on every run, so they stay exact.
 */
export async function runImport(deps: Omit<ImportDeps, 'enqueue'>, importId: string, options: RunImportOptions = {}) {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const started = await repository.startProcessing(deps.db, importId);
  if (!started) return; // finished already (or unknown)
  const job = started;
  const fail = async (reason: string) => {
    await deps.db.transaction(async (tx) => {
      if (!(await repository.finishImport(tx, importId, { status: 'FAILED', failureReason: reason }))) return;
      await recordAuditEvent(
        tx,
        { organizationId: job.organizationId, actor: SYSTEM_ACTOR },
        {
          action: 'credential_import.failed',
          target: { id: importId, label: job.credentialName },
          details: { reason },
        },
      );
    });
  };
  if (!job.schemaId) return fail('The credential schema was deleted.');
  let snapshot: SchemaSnapshot;
  try {
    snapshot = (await loadSchema(deps.db, job.organizationId, job.schemaId)).snapshot;
  } catch {
    return fail('The credential schema was deleted.');
  }
  const bytes = await deps.storage.get(job.storageKey);
  if (!bytes) return fail('The uploaded file cannot be read.');

  const done = await repository.findImportedRows(deps.db, importId);
  const errors: repository.ImportRowError[] = [];
  let processed = 0;
  let succeeded = 0;
  let failed = 0;
  let batch: repository.ImportedCredentialsBatch['rows'] = [];
  let batchNumber = 0;
  const addError = (error: repository.ImportRowError) => {
    if (errors.length < MAX_STORED_ERRORS) errors.push(error);
  };

  const flush = async () => {
    const rows = batch;
    batch = [];
    if (rows.length > 0) {
      await deps.db.transaction(async (tx) => {
        const statusSlots = await credentialsRepository.allocateStatusIndexes(
          tx,
          job.organizationId,
          deps.statusListSize,
          rows.length,
        );
        await repository.insertImportedCredentials(tx, {
          organizationId: job.organizationId,
          schemaId: snapshot.id,
          schemaSnapshot: snapshot as unknown as Record<string, unknown>,
          name: job.credentialName,
          description: job.credentialDescription,
          createdByUserId: job.createdByUserId,
          importId,
          statusSlots,
          rows,
        });
      });
    }
    batchNumber += 1;
    await repository.updateProgress(deps.db, importId, { processed, succeeded, failed, errors });
    await options.afterBatch?.(batchNumber);
  };

  let header: string[] | undefined;
  let pending = 0; // rows counted since the last progress write
  try {
    for await (const record of Readable.from([bytes]).pipe(csvParser()) as AsyncIterable<string[]>) {
      if (!header) {
        header = record.map((c) => c.trim());
        checkHeader(header, templateColumns(snapshot.attributes));
        continue;
      }
      processed += 1;
      pending += 1;
      const rowNumber = processed + 1; // the header is row 1
      const values = Object.fromEntries(header.map((column, i) => [column, record[i] ?? '']));
      const rowErrors = validateRow(snapshot.attributes, values);
      if (!rowErrors.ok) {
        failed += 1;
        for (const e of rowErrors.errors) addError({ row: rowNumber, ...e });
      } else {
        succeeded += 1;
        if (!done.has(rowNumber)) {
          batch.push({
            row: rowNumber,
            email: rowErrors.recipient.email,
            firstName: rowErrors.recipient.firstName,
            lastName: rowErrors.recipient.lastName,
            claims: rowErrors.claims,
          });
        }
      }
      if (batch.length >= batchSize || pending >= batchSize * 4) {
        pending = 0;
        await flush();
      }
    }
    await flush();
  } catch (err) {
    if (err instanceof AppError && err.code === 'CREDENTIAL_IMPORT_HEADER_INVALID') return fail(err.message);
    if ((err as { code?: string }).code?.startsWith?.('CSV_')) return fail('Please upload a valid CSV file');
    throw err; // a database or storage failure: the job is retried and resumes
  }
  await deps.db.transaction(async (tx) => {
    // Only the run that ends the import records it (two runs of one import can overlap after a lost lease).
    const finished = await repository.finishImport(tx, importId, { status: 'COMPLETED' });
    if (!finished) return;
    await recordAuditEvent(
      tx,
      { organizationId: job.organizationId, actor: SYSTEM_ACTOR },
      {
        action: 'credential_import.completed',
        target: { id: importId, label: job.credentialName },
        details: {
          total_count: finished.totalCount,
          succeeded_count: finished.succeededCount,
          failed_count: finished.failedCount,
        },
      },
    );
  });
  await deps.storage.delete(job.storageKey).catch(() => undefined);
}

/** One row against the schema: the same rules as a credential created one by one. */
export function validateRow(attributes: SchemaAttributes, values: Record<string, string>) {
  const errors: { column: string; message: string }[] = [];
  const firstName = (values.recipient_first_name ?? '').trim();
  const lastName = (values.recipient_last_name ?? '').trim();
  const email = (values.recipient_email ?? '').trim();
  if (!firstName) errors.push({ column: 'recipient_first_name', message: 'This field is required' });
  else if (firstName.length > 100) errors.push({ column: 'recipient_first_name', message: 'Too long' });
  if (!lastName) errors.push({ column: 'recipient_last_name', message: 'This field is required' });
  else if (lastName.length > 100) errors.push({ column: 'recipient_last_name', message: 'Too long' });
  if (!email) errors.push({ column: 'recipient_email', message: 'This field is required' });
  else if (!zRecipientEmail.safeParse(email).success) {
    errors.push({ column: 'recipient_email', message: 'Must be a valid e-mail' });
  }
  const raw = Object.fromEntries(attributes.map((a) => [a.name, values[a.name] ?? '']));
  const typed = buildClaims(attributes, raw);
  if (!typed.ok) for (const e of typed.errors) errors.push({ column: e.name, message: claimMessages[e.error] });
  if (errors.length > 0 || !typed.ok) return { ok: false as const, errors };
  return { ok: true as const, claims: typed.claims, recipient: { firstName, lastName, email } };
}
