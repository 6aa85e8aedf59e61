import { getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './database.ts';

/**
 * A hand-written SQL statement for a hot path (the OpenID4VCI and OpenID4VP endpoints): on PostgreSQL it is a
 * named prepared statement, parsed and planned once per pooled connection; on PGlite it is sent as is. Nothing
 * is built per request (Drizzle's query builder costs more CPU than the statement's own execution there).
 *
 * Rows come back as the driver reads them: column names as written (alias them in camelCase), `timestamptz`
 * as Date, `jsonb` parsed, `int4` as number, `int8`/`bigint` as string. Pass JSON as a string cast with
 * `::jsonb` and times as Date. Runs on the database handle itself (its own pooled connection), never inside
 * a Drizzle transaction: write a statement that needs to be atomic as one statement (CTEs).
 */
export interface Statement<Row> {
  readonly name: string;
  readonly text: string;
  /** Type only: the row's shape. */
  readonly row?: Row;
}

const names = new Set<string>();

/** Declares a statement once, at module load; its name must be unique in the process. */
export function statement<Row>(name: string, text: string): Statement<Row> {
  if (names.has(name)) throw new Error(`Statement ${name} is declared twice`);
  names.add(name);
  return { name, text: text.replace(/\s+/g, ' ').trim() };
}

interface QueryClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The driver's client under a Drizzle database handle (a pg.Pool or a PGlite); undefined for a transaction. */
const clientOf = (db: Database) => (db as unknown as { $client?: unknown }).$client;

/** Runs `statement` with `values` ($1, $2, … in order) on `db`; answers its rows. */
export async function runStatement<Row>(db: Database, statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
  const client = clientOf(db);
  if (client instanceof pg.Pool) {
    const result = await client.query({ name: statement.name, text: statement.text, values });
    return result.rows as Row[];
  }
  if (client && typeof (client as QueryClient).query === 'function') {
    return (await (client as QueryClient).query(statement.text, values)).rows as Row[];
  }
  throw new Error(`Statement ${statement.name} needs the database handle (not a transaction)`);
}

/**
 * Runs `statement` inside a Drizzle transaction (where a prepared statement cannot run): its `$n` become bound
 * parameters, so it is parsed and planned each time. Rows come back as Drizzle reads them there, which differs
 * from runStatement for times: a `timestamptz` may come back as a string (convert what the caller reads).
 */
export async function runStatementInTransaction<Row>(
  tx: Database,
  statement: Statement<Row>,
  values: unknown[],
): Promise<Row[]> {
  const chunks: SQL[] = statement.text
    .split(/\$(\d+)/)
    .map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`));
  const result = await tx.execute(sql.join(chunks));
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Row[];
}

/**
 * Runs `statement` on `db`, the database handle or a Drizzle transaction, for a statement that serves both: on
 * PostgreSQL's handle it is prepared (runStatement: planned once per pooled connection); anywhere else it is
 * bound (runStatementInTransaction), inside a transaction as it must be, and on PGlite's handle exactly as
 * Drizzle's own statements run there (PGlite is one session, where a plan saved is worth nothing). Times may
 * come back as Date or as string (see runStatementInTransaction).
 */
export function runStatementAnywhere<Row>(db: Database, statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
  return clientOf(db) instanceof pg.Pool
    ? runStatement(db, statement, values)
    : runStatementInTransaction(db, statement, values);
}

/**
 * The columns `fields` of `table` (all when not given) under the statement's `alias` of it, each named
 * `<prefix>.<field>` after the schema's field, so that `unprefixed` splits a row back into the table's rows. A name
 * without a column fails when the statement is declared (at start).
 */
export function selectList(table: Table, alias: string, prefix: string, fields?: readonly string[]) {
  const columns: Record<string, { name: string } | undefined> = getTableColumns(table);
  return (fields ?? Object.keys(columns))
    .map((field) => {
      const column = columns[field];
      if (!column) throw new Error(`No column for ${field}`);
      return `${alias}."${column.name}" as "${prefix}.${field}"`;
    })
    .join(', ');
}

/** The fields a statement's row names `<prefix>.<field>` (selectList), as one object. */
export function unprefixed<T>(row: Record<string, unknown>, prefix: string): T {
  const fields: Record<string, unknown> = {};
  const start = `${prefix}.`;
  for (const key in row) if (key.startsWith(start)) fields[key.slice(start.length)] = row[key];
  return fields as T;
}
