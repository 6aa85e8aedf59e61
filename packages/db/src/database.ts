import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
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
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; `undefined` with no URL means in-memory (tests). */
  pgliteDir?: string | undefined;
  /** Start from an existing PGlite instance (tests restore a migrated template). */
  pglite?: PGlite;
  poolMax?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax ?? 10 });
    // A pool error (a dropped idle connection) must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgresql',
      executor: {
        async executeSql(text, values) {
          const result = await pool.query(text, values as unknown[] | undefined);
          // A multi-statement text answers an array of results; the last one carries the rows.
          const last = Array.isArray(result) ? result[result.length - 1] : result;
          return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
        },
      },
      close: () => pool.end(),
    };
  }
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const client = options.pglite ?? (options.pgliteDir ? new PGlite(options.pgliteDir) : new PGlite());
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    executor: {
      async executeSql(text, values) {
        if (!values || values.length === 0) {
          // exec() runs several statements (pg-boss's schema creation); query() allows only one.
          const results = await client.exec(text);
          return { rows: (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[] };
        }
        const result = await client.query(text, values);
        return { rows: result.rows as Record<string, unknown>[] };
      },
    },
    close: () => client.close(),
  };
}

/** Applies the one set of SQL migrations (the same files on PGlite and PostgreSQL). */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgresql') {
    await migratePg(handle.db as never, { migrationsFolder });
  } else {
    await migratePglite(handle.db as never, { migrationsFolder });
  }
}
