import { type Database, schema, uuidv7 } from '@cp/db';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { StatusSlot } from './credentials.repository.ts';

const { credentialImports, credentials } = schema;
export type CredentialImportRow = typeof credentialImports.$inferSelect;
export type ImportRowError = { row: number; column: string; message: string };

export async function insertImport(db: Database, values: typeof credentialImports.$inferInsert) {
  const [row] = await db.insert(credentialImports).values(values).returning();
  return row!;
}

/** An import of the organization; another organization's import is not found. */
export async function findImport(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(credentialImports)
    .where(and(eq(credentialImports.organizationId, organizationId), eq(credentialImports.id, id)));
  return row;
}

/** The worker's lookup (the job carries only the id). */
export async function findImportById(db: Database, id: string) {
  const [row] = await db.select().from(credentialImports).where(eq(credentialImports.id, id));
  return row;
}

/** PENDING (or PROCESSING left by a crashed worker) → PROCESSING; answers undefined once it is finished. */
export async function startProcessing(db: Database, id: string) {
  const [row] = await db
    .update(credentialImports)
    .set({ status: 'PROCESSING', startedAt: sql`coalesce(${credentialImports.startedAt}, now())` })
    .where(and(eq(credentialImports.id, id), inArray(credentialImports.status, ['PENDING', 'PROCESSING'])))
    .returning();
  return row;
}

export interface ImportProgress {
  processed: number;
  succeeded: number;
  failed: number;
  errors: ImportRowError[];
}

/**
 * Moves the checkpoint (processed_count) from `expected` to `progress.processed` with the counts and, when
 * given, the row errors — compare-and-set, inside the batch's transaction. Answers false when another run
 * moved it first (or the import is no longer PROCESSING): the caller rolls its batch back.
 */
export async function advanceProgress(
  db: Database,
  id: string,
  expected: number,
  progress: Omit<ImportProgress, 'errors'> & { errors?: ImportRowError[] },
) {
  const rows = await db
    .update(credentialImports)
    .set({
      processedCount: progress.processed,
      succeededCount: progress.succeeded,
      failedCount: progress.failed,
      ...(progress.errors ? { errors: progress.errors } : {}),
    })
    .where(
      and(
        eq(credentialImports.id, id),
        eq(credentialImports.status, 'PROCESSING'),
        eq(credentialImports.processedCount, expected),
      ),
    )
    .returning({ id: credentialImports.id });
  return rows.length === 1;
}

/** PROCESSING → COMPLETED or FAILED; answers the finished row, or undefined when it was finished already. */
export async function finishImport(
  db: Database,
  id: string,
  outcome: { status: 'COMPLETED' | 'FAILED'; failureReason?: string | null },
) {
  const [row] = await db
    .update(credentialImports)
    .set({ status: outcome.status, failureReason: outcome.failureReason ?? null, completedAt: new Date() })
    .where(and(eq(credentialImports.id, id), eq(credentialImports.status, 'PROCESSING')))
    .returning();
  return row;
}

export async function countImportedCredentials(db: Database, importId: string) {
  const [row] = await db.select({ value: count() }).from(credentials).where(eq(credentials.importId, importId));
  return row?.value ?? 0;
}

export interface ImportedCredentialsBatch {
  organizationId: string;
  schemaId: string;
  schemaSnapshot: Record<string, unknown>;
  name: string;
  description: string | null;
  createdByUserId: string | null;
  importId: string;
  /** The reserved status-list slots (allocateStatusIndexes): row i gets statusSlots[i]. */
  statusSlots: StatusSlot[];
  rows: { row: number; email: string; firstName: string; lastName: string; claims: Record<string, unknown> }[];
}

/**
 * One INSERT for a batch. The rows travel as one JSON parameter (jsonb_to_recordset) and the values shared
 * by the batch once, which keeps a 500-row statement cheap to build and to send. (import_id, import_row)
 * is unique, so a row inserted by an earlier run is skipped. Answers how many rows were inserted.
 */
export async function insertImportedCredentials(db: Database, batch: ImportedCredentialsBatch) {
  if (batch.rows.length === 0) return 0;
  const rows = batch.rows.map((r, i) => ({
    i,
    id: uuidv7(),
    line: r.row,
    email: r.email,
    first_name: r.firstName,
    last_name: r.lastName,
    claims: r.claims,
    status_list_id: batch.statusSlots[i]!.statusListId,
    status_index: batch.statusSlots[i]!.statusIndex,
  }));
  const result = await db.execute(sql`
    insert into ${credentials} (
      id, organization_id, schema_id, schema_snapshot, name, description, recipient_email, recipient_first_name,
      recipient_last_name, claims, status_list_id, status_index, created_by_user_id, import_id, import_row
    )
    select r.id, ${batch.organizationId}::uuid, ${batch.schemaId}::uuid, ${JSON.stringify(batch.schemaSnapshot)}::jsonb,
      ${batch.name}, ${batch.description}, r.email, r.first_name, r.last_name, r.claims,
      r.status_list_id, r.status_index, ${batch.createdByUserId}::uuid, ${batch.importId}::uuid, r.line
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(i int, id uuid, line int, email text, first_name text, last_name text, claims jsonb, status_list_id uuid,
        status_index int)
    on conflict (import_id, import_row) do nothing
  `);
  return (result as { rowCount?: number | null; affectedRows?: number }).rowCount ?? 0;
}
