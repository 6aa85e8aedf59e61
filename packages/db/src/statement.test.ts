import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './database.ts';
import { runStatement, runStatementAnywhere, runStatementInTransaction, statement } from './statement.ts';

const counterNext = statement<{ value: number }>(
  'statement_test_counter_next',
  `update statement_test_counter set value = value + $1::int where id = 1 returning value`,
);

const counterValue = statement<{ value: number }>('statement_test_read', 'select value from statement_test_counter');

describe('statements on the handle and inside a transaction (PGlite)', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({});
    await handle.db.execute(sql`create table statement_test_counter (id int primary key, value int not null)`);
    await handle.db.execute(sql`insert into statement_test_counter values (1, 0)`);
  });
  afterAll(() => handle.close());

  const value = async () => (await runStatement(handle.db, counterValue, []))[0]?.value;

  it('runs a statement inside the transaction, so that its write goes with a rollback', async () => {
    const before = await value();
    await expect(
      handle.db.transaction(async (tx) => {
        const [row] = await runStatementInTransaction(tx, counterNext, [5]);
        expect(row?.value).toBe((before ?? 0) + 5);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await value()).toBe(before);
    await handle.db.transaction(async (tx) => {
      await runStatementInTransaction(tx, counterNext, [2]);
    });
    expect(await value()).toBe((before ?? 0) + 2);
  });

  it('runs a statement meant for both on the handle and inside a transaction, each write where it belongs', async () => {
    const before = (await value()) ?? 0;
    const [onHandle] = await runStatementAnywhere(handle.db, counterNext, [3]);
    expect(onHandle?.value).toBe(before + 3);
    await expect(
      handle.db.transaction(async (tx) => {
        const [inside] = await runStatementAnywhere(tx, counterNext, [4]);
        expect(inside?.value).toBe(before + 7);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await value()).toBe(before + 3);
  });

  it('refuses to run a prepared statement on a transaction (it would run outside it)', async () => {
    await handle.db.transaction(async (tx) => {
      await expect(runStatement(tx, counterNext, [1])).rejects.toThrow(/needs the database handle/);
    });
  });
});
