import { randomUUID } from 'node:crypto';
import { pipeline, Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline as pipelinePromise } from 'node:stream/promises';
import {
  CREDENTIAL_IMPORT_MAX_BYTES,
  CREDENTIAL_IMPORT_MAX_ROWS,
  CREDENTIAL_IMPORT_RECIPIENT_COLUMNS,
  type CredentialImportFields,
} from '@cp/contracts';
import { type AttributeType, buildClaims, type ClaimTypingError } from '@cp/credentials';
import type { Database } from '@cp/db';
import { type Options as CsvOptions, parse } from 'csv-parse';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import type { Storage } from '../../storage/storage.ts';
import { type AuditActor, recordAuditEvent, SYSTEM_ACTOR } from '../audit-events/audit-events.service.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import * as kybService from '../kyb/kyb.service.ts';
import * as repository from './credential-imports.repository.ts';
import * as credentialsRepository from './credentials.repository.ts';
import type { SchemaSnapshot } from './credentials.service.ts';

/**
 * Limits of an upload: the contract's defaults, the configuration's (CREDENTIAL_IMPORT_MAX_BYTES and
 * _MAX_ROWS) once the runtime starts; tests and the benchmark may lower or raise them.
 */
export const importLimits = { maxBytes: CREDENTIAL_IMPORT_MAX_BYTES, maxRows: CREDENTIAL_IMPORT_MAX_ROWS };

/** Applies the configured limits (at start-up, before the routes register). */
export function configureImportLimits(limits: { maxBytes: number; maxRows: number }) {
  Object.assign(importLimits, limits);
}
/** Row errors kept on the import (the counts stay exact beyond it). */
export const MAX_STORED_ERRORS = 1000;
export const DEFAULT_BATCH_SIZE = 500;

export interface ImportDeps {
  db: Database;
  storage: Storage;
  statusListSize: number;
  /**
   * Batches of an import in the database at once (default 1). PostgreSQL: 2, one connection each, so the
   * database's work spreads over two server processes; PGlite is one session, where more would only queue.
   */
  parallelBatches?: number;
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

function csvParser(options: Pick<CsvOptions, 'on_record'> = {}) {
  return parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false, ...options });
}

const invalidFile = (detail = 'Please upload a valid CSV file', cause?: unknown) =>
  new AppError('CREDENTIAL_IMPORT_INVALID_FILE', { detail, cause });

const tooLarge = () =>
  new AppError('CREDENTIAL_IMPORT_TOO_LARGE', { detail: `The file is larger than ${importLimits.maxBytes} bytes.` });

/**
 * The upload checks, applied to the bytes as they pass on their way to storage (nothing is buffered beyond
 * one chunk): at most `maxBytes`, UTF-8 text without NUL, a well-formed CSV of at most `maxRows` data rows.
 * Records are counted in csv-parse's `on_record` (called synchronously while a chunk is parsed, and
 * dropped there), so a chunk is passed on only once it has been checked.
 */
class UploadInspector extends Transform {
  bytes = 0;
  rows = 0;
  header: string[] | undefined;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  readonly #parser: ReturnType<typeof parse>;
  #failure: AppError | undefined;

  constructor() {
    super();
    this.#parser = csvParser({
      on_record: (record: string[]) => {
        if (!this.header) this.header = record.map((c) => c.trim());
        else if (++this.rows > importLimits.maxRows) {
          this.#failure ??= new AppError('CREDENTIAL_IMPORT_TOO_MANY_ROWS', {
            detail: `The file has more than ${importLimits.maxRows} rows.`,
          });
        }
        return null;
      },
    });
    this.#parser.resume(); // on_record drops every record: nothing to read, but the stream must flow to end
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > importLimits.maxBytes) return callback(tooLarge());
    try {
      this.#decoder.decode(chunk, { stream: true });
    } catch (err) {
      return callback(invalidFile('Please upload a valid CSV file (UTF-8 text).', err));
    }
    if (chunk.includes(0)) return callback(invalidFile());
    this.#parser.write(chunk, (err) => {
      if (err) return callback(invalidFile('Please upload a valid CSV file', err));
      if (this.#failure) return callback(this.#failure);
      callback(null, chunk);
    });
  }

  override _flush(callback: TransformCallback) {
    try {
      this.#decoder.decode(); // a truncated multi-byte sequence at the end
    } catch (err) {
      return callback(invalidFile('Please upload a valid CSV file (UTF-8 text).', err));
    }
    const ended = (err?: unknown) => {
      if (err) return callback(invalidFile('Please upload a valid CSV file', err));
      if (this.#failure) return callback(this.#failure);
      if (this.bytes === 0) return callback(new AppError('CREDENTIAL_IMPORT_EMPTY', { detail: 'The file is empty.' }));
      if (!this.header) return callback(new AppError('CREDENTIAL_IMPORT_EMPTY', { detail: 'The file is empty.' }));
      if (this.rows === 0) {
        return callback(new AppError('CREDENTIAL_IMPORT_EMPTY', { detail: 'The file has a header but no rows.' }));
      }
      callback();
    };
    this.#parser.once('error', ended);
    this.#parser.once('end', () => ended());
    this.#parser.end();
  }
}

/** An upload stored (under a fresh key) and checked; the import is recorded by `startImport`. */
export interface ReceivedImportFile {
  id: string;
  storageKey: string;
  header: string[];
  rows: number;
  bytes: number;
}

/**
 * Streams an uploaded CSV into storage while checking it (`UploadInspector`): memory stays at a few chunks
 * whatever the size. A file that fails a check (or an upload that is cut) leaves nothing stored.
 */
export async function receiveImportFile(
  deps: Pick<ImportDeps, 'storage'>,
  organizationId: string,
  file: Buffer | Readable,
): Promise<ReceivedImportFile> {
  const id = randomUUID();
  const storageKey = `credential-imports/${organizationId}/${id}`;
  const inspector = new UploadInspector();
  // pipeline: an error of the source (a cut or oversize upload) destroys the inspector with it.
  const body = pipeline(Buffer.isBuffer(file) ? Readable.from([file]) : file, inspector, () => undefined);
  try {
    await deps.storage.putStream(storageKey, body, 'text/csv');
  } catch (err) {
    await deps.storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
  return { id, storageKey, header: inspector.header ?? [], rows: inspector.rows, bytes: inspector.bytes };
}

/** Removes a received file that will not be imported (the form was refused after the file arrived). */
export async function discardImportFile(deps: Pick<ImportDeps, 'storage'>, received: ReceivedImportFile) {
  await deps.storage.delete(received.storageKey).catch(() => undefined);
}

/**
 * Cheap checks at upload, for a file already in memory (tests and tools): the same checks as
 * `receiveImportFile`, plus the header against the template. Answers the number of data rows.
 */
export async function inspectCsv(bytes: Buffer, expectedColumns: string[]) {
  const inspector = new UploadInspector();
  await pipelinePromise(Readable.from([bytes]), inspector, new Writable({ write: (_c, _e, cb) => cb() }));
  checkHeader(inspector.header ?? [], expectedColumns);
  return inspector.rows;
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

/**
 * Validates an upload, stores the file (streamed: `file` may be a stream of any size up to the limit, or a
 * file received already by `receiveImportFile`), records the import (PENDING) and queues its job. Nothing
 * stays stored when the import is refused.
 */
export async function startImport(
  deps: ImportDeps,
  scope: { organizationId: string; userId: string | null; actor: AuditActor },
  fields: CredentialImportFields,
  file: Buffer | Readable | ReceivedImportFile,
) {
  let received = isReceived(file) ? file : undefined;
  try {
    await kybService.assertOrganizationVerified(deps.db, scope.organizationId);
    const { record, snapshot } = await loadSchema(deps.db, scope.organizationId, fields.schema_id);
    if (record.schema.issueDisabled) {
      throw new AppError('CREDENTIAL_SCHEMA_ISSUE_DISABLED', {
        detail: 'This schema can be used for verification only.',
      });
    }
    received ??= await receiveImportFile(deps, scope.organizationId, file as Buffer | Readable);
    if (!received.storageKey.startsWith(`credential-imports/${scope.organizationId}/`)) {
      throw new Error('The received file belongs to another organization.');
    }
    checkHeader(received.header, templateColumns(snapshot.attributes));
    const { id, storageKey, rows: totalCount } = received;
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
    received = undefined; // recorded: the job owns the file now
    await deps.enqueue(id);
    return row;
  } finally {
    if (received) await deps.storage.delete(received.storageKey).catch(() => undefined);
  }
}

function isReceived(file: Buffer | Readable | ReceivedImportFile): file is ReceivedImportFile {
  return !Buffer.isBuffer(file) && !(file instanceof Readable) && typeof file.storageKey === 'string';
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
 * The import job: streams the stored CSV (never whole in memory), validates every row, and stores valid
 * rows in batches, each in one transaction with its status indexes (reserved per batch) and the progress
 * (counts, capped row errors). The progress is the checkpoint: `processed_count` rows of the file are done,
 * committed together with their credentials. A re-run (after a crash, or a retry of the job) resumes after
 * the checkpoint with the counts and errors stored with it, so a row is neither lost nor duplicated and the
 * counts stay exact; (import_id, import_row) is unique as a last guard. Two runs of one import (a lost
 * lease) advance the checkpoint by compare-and-set: the one that falls behind rolls its batch back and
 * resumes from the other's checkpoint.
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

  let checkpoint: repository.ImportProgress = {
    processed: job.processedCount,
    succeeded: job.succeededCount,
    failed: job.failedCount,
    errors: job.errors,
  };
  let batchNumber = 0;
  for (;;) {
    const source = await deps.storage.getStream(job.storageKey);
    if (!source) return fail('The uploaded file cannot be read.');
    let outcome: PassOutcome;
    try {
      outcome = await importPass(deps, job, snapshot, source, checkpoint, {
        batchSize,
        afterBatch: async () => {
          batchNumber += 1;
          await options.afterBatch?.(batchNumber);
        },
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'CREDENTIAL_IMPORT_HEADER_INVALID') return fail(err.message);
      if ((err as { code?: string }).code?.startsWith?.('CSV_')) return fail('Please upload a valid CSV file');
      throw err; // a database or storage failure: the job is retried and resumes
    } finally {
      source.destroy();
    }
    if (outcome.done) break;
    // Another run of this import got ahead: go on from its checkpoint (or stop once it has finished).
    const current = await repository.findImportById(deps.db, importId);
    if (current?.status !== 'PROCESSING') return;
    checkpoint = {
      processed: current.processedCount,
      succeeded: current.succeededCount,
      failed: current.failedCount,
      errors: current.errors,
    };
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

type PassOutcome = { done: true } | { done: false; superseded: true };

/** Thrown inside a batch's transaction when another run moved the checkpoint: rolls the batch back. */
class Superseded extends Error {}

/** One pass over the file from the checkpoint `from` to the end (or until another run gets ahead). */
async function importPass(
  deps: Omit<ImportDeps, 'enqueue'>,
  job: repository.CredentialImportRow,
  snapshot: SchemaSnapshot,
  source: Readable,
  from: repository.ImportProgress,
  options: { batchSize: number; afterBatch: () => Promise<void> },
): Promise<PassOutcome> {
  const { batchSize } = options;
  const columns = templateColumns(snapshot.attributes);
  // Bounded: at most MAX_STORED_ERRORS row errors are kept (and stored); the counts stay exact.
  const errors = [...from.errors];
  let errorsChanged = false;
  let processed = from.processed;
  let succeeded = from.succeeded;
  let failed = from.failed;
  let batch: repository.ImportedCredentialsBatch['rows'] = [];
  let flushedTo = from.processed;
  // Up to `parallelBatches` batches in the database at once while the next one is parsed and validated: the CPU
  // of this process and the database's overlap, and on PostgreSQL each batch has a connection (a server
  // process) of its own. Batches still commit in file order: each takes its status slots only after the one
  // before has taken its own (so it never waits for a list that a later batch holds) and advances the checkpoint
  // only once the one before has committed (a batch whose predecessor failed rolls back too).
  const parallel = Math.max(1, deps.parallelBatches ?? 1);
  const inflight: Promise<void>[] = [];
  let lastAllocated: Promise<void> = Promise.resolve();
  let lastCommitted: Promise<void> = Promise.resolve();

  const commit = (
    rows: repository.ImportedCredentialsBatch['rows'],
    expected: number,
    progress: Parameters<typeof repository.advanceProgress>[3],
  ) => {
    const previousAllocated = lastAllocated;
    const previousCommitted = lastCommitted;
    let allocated = () => {};
    lastAllocated = new Promise<void>((resolve) => {
      allocated = resolve;
    });
    const done = (async () => {
      try {
        await deps.db.transaction(async (tx) => {
          let statusSlots: credentialsRepository.StatusSlot[] = [];
          try {
            await previousAllocated;
            if (rows.length > 0) {
              statusSlots = await credentialsRepository.allocateStatusIndexes(
                tx,
                job.organizationId,
                deps.statusListSize,
                rows.length,
              );
            }
          } finally {
            allocated();
          }
          if (rows.length > 0) {
            await repository.insertImportedCredentials(tx, {
              organizationId: job.organizationId,
              schemaId: snapshot.id,
              schemaSnapshot: snapshot as unknown as Record<string, unknown>,
              name: job.credentialName,
              description: job.credentialDescription,
              createdByUserId: job.createdByUserId,
              importId: job.id,
              statusSlots,
              rows,
            });
          }
          await previousCommitted;
          // The checkpoint (compare-and-set): a run that fell behind another run of this import rolls back here.
          if (!(await repository.advanceProgress(tx, job.id, expected, progress))) throw new Superseded();
        });
      } finally {
        allocated();
      }
      await options.afterBatch();
    })();
    lastCommitted = done;
    done.catch(() => undefined); // awaited by the next batch, by flush or at the end
    return done;
  };

  const flush = async () => {
    const rows = batch;
    batch = [];
    const expected = flushedTo;
    flushedTo = processed;
    const progress = { processed, succeeded, failed, ...(errorsChanged ? { errors: [...errors] } : {}) };
    errorsChanged = false;
    while (inflight.length >= parallel) await inflight.shift();
    inflight.push(commit(rows, expected, progress));
  };

  const parser = source.pipe(csvParser());
  source.once('error', (err) => parser.destroy(err));
  let header: string[] | undefined;
  let line = 0; // data rows read in this pass
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = record.map((c) => c.trim());
        checkHeader(header, columns);
        continue;
      }
      line += 1;
      if (line <= from.processed) continue; // done before the checkpoint (its counts and errors are stored)
      processed = line;
      const rowNumber = line + 1; // the header is row 1
      const values: Record<string, string> = {};
      for (let i = 0; i < header.length; i++) values[header[i]!] = record[i] ?? '';
      const result = validateRow(snapshot.attributes, values);
      if (!result.ok) {
        failed += 1;
        for (const e of result.errors) {
          if (errors.length < MAX_STORED_ERRORS) {
            errors.push({ row: rowNumber, ...e });
            errorsChanged = true;
          }
        }
      } else {
        succeeded += 1;
        batch.push({
          row: rowNumber,
          email: result.recipient.email,
          firstName: result.recipient.firstName,
          lastName: result.recipient.lastName,
          claims: result.claims,
        });
      }
      if (batch.length >= batchSize || processed - flushedTo >= batchSize * 4) await flush();
    }
    if (processed > flushedTo || errorsChanged) await flush();
    await Promise.all(inflight);
  } catch (err) {
    await Promise.allSettled(inflight); // never leave a batch's transaction running behind the caller
    if (err instanceof Superseded) return { done: false, superseded: true };
    throw err;
  } finally {
    parser.destroy();
  }
  return { done: true };
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
