import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database handle type used by every repository, whatever the driver underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgresql';

/** Minimal SQL executor, shaped for pg-boss's `db` option and for raw statements in tests/tools. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  executor: SqlExecutor;
  close(): Promise<void>;
  /** Present in embedded mode: the PGlite instance (tests clone it). */
  pglite?: PGlite;
  /** Present on PostgreSQL: the connection pool (advisory locks need one session). */
  pool?: pg.Pool;
}

/**
 * Extensions the migrations create (pg_trgm: the credential search index), which PGlite must load
 * itself: pass these to every `new PGlite(…)`, including one restored from a dump.
 */
export const pgliteExtensions = { pg_trgm };

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; `undefined` with no URL means in-memory (tests). */
  pgliteDir?: string | undefined;
  /** Start from an existing PGlite instance (tests restore a migrated template). */
  pglite?: PGlite;
  poolMax?: number;
  /** PostgreSQL: how long a new connection may take before the query fails (a database that does not answer). */
  connectTimeoutMs?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    });
    // A pool error (a dropped idle connection) must not crash the process: the broken connection leaves the
    // pool and the next query opens a new one, so the API recovers by itself once the database is back.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgresql',
      executor: {
        async executeSql(text, values) {
          const result = await pool.query(text, values as unknown[] | undefined);
          // A multi-statement text answers an array of results: the rows of all of them, in order (pg-boss
          // sends `BEGIN; … RETURNING …; COMMIT` blocks and reads the rows of the middle statement).
          const results: pg.QueryResult[] = Array.isArray(result) ? result : [result];
          return { rows: results.flatMap((r) => r?.rows ?? []) as Record<string, unknown>[] };
        },
      },
      pool,
      close: () => pool.end(),
    };
  }
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const client =
    options.pglite ??
    (options.pgliteDir
      ? new PGlite(options.pgliteDir, { extensions: pgliteExtensions })
      : new PGlite({ extensions: pgliteExtensions }));
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    executor: {
      async executeSql(text, values) {
        try {
          if (!values || values.length === 0) {
            // exec() runs several statements (pg-boss's schema creation, its `BEGIN; …; COMMIT` blocks);
            // query() allows only one. The rows of all of them, in order, as on PostgreSQL.
            const results = await client.exec(text);
            return { rows: results.flatMap((r) => r.rows ?? []) as Record<string, unknown>[] };
          }
          const result = await client.query(text, values);
          return { rows: result.rows as Record<string, unknown>[] };
        } catch (err) {
          // PGlite is one session: a statement that failed inside an explicit transaction would leave it
          // aborted for every later query. PostgreSQL's pool drops such a connection; here roll it back.
          if (client.isInTransaction()) await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
      },
    },
    close: () => client.close(),
  };
}

/**
 * Runs `fn` while holding a PostgreSQL session advisory lock named `name`: processes that start together
 * (several API processes and workers) take turns, so one-time work (migrations, seeds) happens once and
 * the others wait for it. PGlite admits one process, so there it simply runs `fn`.
 */
export async function withAdvisoryLock<T>(handle: DatabaseHandle, name: string, fn: () => Promise<T>): Promise<T> {
  if (!handle.pool) return fn();
  const client = await handle.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [`credential-platform:${name}`]);
    try {
      return await fn();
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [`credential-platform:${name}`]).catch((err) => {
        broken = err as Error; // a dead session releases its locks anyway; do not reuse it
      });
    }
  } catch (err) {
    broken ??= err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

/** Applies the one set of SQL migrations (the same files on PGlite and PostgreSQL), once across processes. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgresql') {
    await withAdvisoryLock(handle, 'migrations', () => migratePg(handle.db as never, { migrationsFolder }));
  } else {
    await migratePglite(handle.db as never, { migrationsFolder });
  }
}

let expectedMigrations: number | undefined;
const appliedHandles = new WeakSet<DatabaseHandle>();

/** Whether every migration of this build is applied (cheap: answered from memory once true). */
export async function migrationsApplied(handle: DatabaseHandle): Promise<boolean> {
  if (appliedHandles.has(handle)) return true;
  expectedMigrations ??= (
    JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
  ).entries.length;
  const table = await handle.executor.executeSql(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!table.rows[0]?.present) return false;
  const { rows } = await handle.executor.executeSql(
    `select count(*)::int as applied from drizzle.__drizzle_migrations`,
  );
  const applied = Number(rows[0]?.applied ?? 0) >= expectedMigrations;
  if (applied) appliedHandles.add(handle);
  return applied;
}

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovery)
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001',
  '08003',
  '08004',
  '08006',
]);
const unavailableMessages =
  /connection terminated|timeout exceeded when trying to connect|connection timeout|client has encountered a connection error|not queryable|cannot use a pool after calling end|the database system is (starting up|shutting down)/i;

/**
 * Whether an error (or one of its causes: drizzle wraps driver errors) means the database cannot be reached
 * right now — a transient condition the caller should answer with 503 and retry later, not a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth += 1) {
    if (typeof current !== 'object') return false;
    const { code, message, errors, name } = current as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
      name?: unknown;
    };
    // Other services' network errors (fetch: OIDC provider, webhooks; the S3 client) are not the database's.
    if ((name === 'TypeError' && message === 'fetch failed') || '$metadata' in current) return false;
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    if (typeof message === 'string' && unavailableMessages.test(message)) return true;
    // AggregateError (a host name with several addresses, all refused).
    if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
