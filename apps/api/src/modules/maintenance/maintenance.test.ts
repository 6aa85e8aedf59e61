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

  it('removes verification attempts no wallet answered within a day, and keeps answered ones', async () => {
    const db = database.handle.db;
    const [organization] = await db.insert(schema.organizations).values({ name: 'Org' }).returning();
    const [credentialSchema] = await db
      .insert(schema.credentialSchemas)
      .values({ organizationId: organization!.id, name: 'S', slug: 's-00000000' })
      .returning();
    const [verification] = await db
      .insert(schema.verifications)
      .values({
        organizationId: organization!.id,
        presentId: 'VP-TEST0001',
        name: 'V',
        schemaId: credentialSchema!.id,
        type: 'MULTI',
      })
      .returning();
    const attempt = (status: string, ageMs: number) => ({
      verificationId: verification!.id,
      organizationId: organization!.id,
      customerId: status,
      status,
      nonce: 'n',
      state: 's',
      responseKeyCiphertext: 'x',
      responseKeyPublic: { kty: 'EC' },
      request: {},
      createdAt: new Date(Date.now() - ageMs),
    });
    await db
      .insert(schema.verificationIndividuals)
      .values([
        attempt('CREATED', 2 * 86_400_000),
        attempt('REQUESTED', 2 * 86_400_000),
        attempt('VERIFIED', 30 * 86_400_000),
        attempt('CREATED', 60_000),
      ]);
    const result = await deleteExpiredRows(db);
    expect(result.abandonedVerificationAttempts).toBe(2);
    const left = await db
      .select({ status: schema.verificationIndividuals.status })
      .from(schema.verificationIndividuals);
    expect(left.map((r) => r.status).sort()).toEqual(['CREATED', 'VERIFIED']);
  });
});
