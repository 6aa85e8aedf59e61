import type { DatabaseHandle } from '@cp/db';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../src/plugins/error-handler.ts';
import { openTestDatabase } from './harness.ts';

/**
 * Statements the database refuses — on PGlite by default, on PostgreSQL with TEST_DATABASE_URL — reach the
 * API's error handler as the driver raised them (through drizzle) and answer a 4xx problem+json with a code
 * from the shared list, never a 500.
 */
let database: { handle: DatabaseHandle; drop(): Promise<void> };
let app: FastifyInstance;

/** One route per statement: the handler runs it the way a repository would, and lets the error go. */
const statements: Record<string, (db: DatabaseHandle['db']) => Promise<unknown>> = {
  duplicate: (db) => db.execute(sql`INSERT INTO refusal_parent (id, name) VALUES (1, 'again')`),
  duplicateUnique: (db) => db.execute(sql`INSERT INTO refusal_parent (id, name) VALUES (2, 'first')`),
  missingReference: (db) => db.execute(sql`INSERT INTO refusal_child (id, parent_id) VALUES (10, 999)`),
  stillReferenced: (db) => db.execute(sql`DELETE FROM refusal_parent WHERE id = 1`),
  check: (db) => db.execute(sql`INSERT INTO refusal_parent (id, name, amount) VALUES (3, 'neg', -5)`),
  tooLong: (db) => db.execute(sql`INSERT INTO refusal_parent (id, name) VALUES (4, ${'x'.repeat(40)})`),
  notNull: (db) => db.execute(sql`INSERT INTO refusal_parent (id, name) VALUES (5, NULL)`),
  // Its own table: the test database is not migrated on PostgreSQL.
  badUuid: (db) => db.execute(sql`SELECT id FROM refusal_parent WHERE ${'not-a-uuid'}::uuid IS NULL`),
  outOfRange: (db) => db.execute(sql`INSERT INTO refusal_parent (id, name, amount) VALUES (6, 'big', ${2 ** 40})`),
  // PGlite is one connection, so a real serialization failure or deadlock cannot happen there: the server
  // raises the same SQLSTATE the way PostgreSQL would report the lost race.
  serialization: (db) =>
    db.execute(sql.raw(`DO $$ BEGIN RAISE EXCEPTION 'could not serialize' USING ERRCODE = '40001'; END $$`)),
  deadlock: (db) => db.execute(sql.raw(`DO $$ BEGIN RAISE EXCEPTION 'deadlock' USING ERRCODE = '40P01'; END $$`)),
  inTransaction: (db) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO refusal_parent (id, name) VALUES (7, 'tx')`);
      await tx.execute(sql`INSERT INTO refusal_parent (id, name) VALUES (7, 'tx again')`);
    }),
  syntax: (db) => db.execute(sql.raw('SELEC 1')),
};

beforeAll(async () => {
  database = await openTestDatabase();
  for (const statement of [
    `CREATE TABLE refusal_parent (
       id integer PRIMARY KEY,
       name varchar(32) NOT NULL UNIQUE,
       amount integer CHECK (amount IS NULL OR amount >= 0))`,
    'CREATE TABLE refusal_child (id integer PRIMARY KEY, parent_id integer NOT NULL REFERENCES refusal_parent (id))',
    "INSERT INTO refusal_parent (id, name) VALUES (1, 'first')",
    'INSERT INTO refusal_child (id, parent_id) VALUES (1, 1)',
  ]) {
    await database.handle.db.execute(sql.raw(statement));
  }
  app = Fastify({ logger: false });
  registerErrorHandler(app);
  for (const [name, run] of Object.entries(statements)) {
    app.post(`/run/${name}`, async () => {
      await run(database.handle.db);
      return { ok: true };
    });
  }
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const run = (name: keyof typeof statements) => app.inject({ method: 'POST', url: `/run/${name}` });

describe('database refusals', () => {
  it.each([
    ['duplicate', 409, 'DATABASE_UNIQUE_VIOLATION'],
    ['duplicateUnique', 409, 'DATABASE_UNIQUE_VIOLATION'],
    ['missingReference', 409, 'DATABASE_REFERENCE_VIOLATION'],
    ['stillReferenced', 409, 'DATABASE_REFERENCE_VIOLATION'],
    ['check', 400, 'DATABASE_CHECK_VIOLATION'],
    ['tooLong', 400, 'DATABASE_VALUE_TOO_LONG'],
    ['notNull', 400, 'DATABASE_VALUE_INVALID'],
    ['badUuid', 400, 'DATABASE_VALUE_INVALID'],
    ['outOfRange', 400, 'DATABASE_VALUE_INVALID'],
    ['serialization', 409, 'DATABASE_TRANSACTION_CONFLICT'],
    ['deadlock', 409, 'DATABASE_TRANSACTION_CONFLICT'],
    ['inTransaction', 409, 'DATABASE_UNIQUE_VIOLATION'],
  ] as const)('%s answers %i %s as problem+json', async (name, status, code) => {
    const response = await run(name);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status, code });
  });

  it('names no table, constraint or SQL in the answer', async () => {
    const body = (await run('duplicate')).body;
    expect(body).not.toMatch(/refusal_parent|_pkey|_key|INSERT|duplicate key/i);
  });

  it('asks the client to retry a lost race', async () => {
    expect((await run('serialization')).headers['retry-after']).toBe('1');
    expect((await run('duplicate')).headers['retry-after']).toBeUndefined();
  });

  it('leaves the table as it was after a refused transaction', async () => {
    await run('inTransaction');
    const rows = await database.handle.db.execute(sql`SELECT count(*)::int AS n FROM refusal_parent WHERE id = 7`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });

  it('still answers a 500 for a fault of the server itself (bad SQL)', async () => {
    const response = await run('syntax');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'INTERNAL' });
  });
});
