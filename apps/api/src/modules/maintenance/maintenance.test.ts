import { migrateDatabase, schema } from '@cp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/harness.ts';
import { deleteExpiredRows } from './maintenance.service.ts';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
  await migrateDatabase(database.handle);
});
afterAll(async () => {
  await database?.drop();
});

describe('deleteExpiredRows', () => {
  it('removes expired rows and keeps live ones', async () => {
    const db = database.handle.db;
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 60_000);
    await db.insert(schema.oidcPayloads).values([
      { id: 'old', type: 'Session', payload: {}, expiresAt: past },
      { id: 'live', type: 'Session', payload: {}, expiresAt: future },
    ]);
    await db.insert(schema.authSessions).values([
      { state: 's', nonce: 'n', codeVerifier: 'v', redirectUrl: 'http://x/oauth/socious', expiresAt: past },
      { state: 's2', nonce: 'n2', codeVerifier: 'v2', redirectUrl: 'http://x/oauth/socious', expiresAt: future },
    ]);
    const result = await deleteExpiredRows(db);
    expect(result).toMatchObject({ providerPayloads: 1, signInAttempts: 1 });
    const left = await db.select({ id: schema.oidcPayloads.id }).from(schema.oidcPayloads);
    expect(left.map((r) => r.id)).toEqual(['live']);
    expect(await db.select().from(schema.authSessions)).toHaveLength(1);
  });
});
