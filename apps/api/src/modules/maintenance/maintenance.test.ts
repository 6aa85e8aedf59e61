import { migrateDatabase, schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/harness.ts';
import { compactCounters, deleteExpiredRows } from './maintenance.service.ts';

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

  it('removes expired nonces and keeps live ones', async () => {
    const db = database.handle.db;
    await db.insert(schema.nonces).values([
      { nonceHash: 'expired', purpose: 'oid4vci:x', expiresAt: new Date(Date.now() - 1000) },
      { nonceHash: 'live', purpose: 'oid4vci:x', expiresAt: new Date(Date.now() + 60_000) },
    ]);
    const result = await deleteExpiredRows(db);
    expect(result.nonces).toBe(1);
    expect((await db.select().from(schema.nonces)).map((r) => r.nonceHash)).toEqual(['live']);
  });

  it("removes the authorization code flow's requests of the day before, with their e-mail codes", async () => {
    const db = database.handle.db;
    const [organization] = await db.insert(schema.organizations).values({ name: 'Issuer' }).returning();
    const request = (hash: string, createdAt: Date) => ({
      organizationId: organization!.id,
      requestUriHash: hash,
      clientId: 'wallet',
      redirectUri: 'https://wallet.example/cb',
      codeChallenge: 'c'.repeat(43),
      credentialConfigurationId: 'membership',
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 60_000),
    });
    const [old] = await db
      .insert(schema.authorizationRequests)
      .values([
        request('old', new Date(Date.now() - 2 * 86_400_000)),
        request('recent', new Date(Date.now() - 3600_000)),
      ])
      .returning();
    await db.insert(schema.emailOneTimeCodes).values({
      authorizationRequestId: old!.id,
      organizationId: organization!.id,
      email: 'a@example.com',
      codeHash: 'h',
      expiresAt: new Date(Date.now() - 86_400_000),
    });
    const result = await deleteExpiredRows(db);
    expect(result.authorizationRequests).toBe(1);
    const left = await db.select().from(schema.authorizationRequests);
    expect(left.map((r) => r.requestUriHash)).toEqual(['recent']);
    expect(await db.select().from(schema.emailOneTimeCodes)).toHaveLength(0);
  });
});

describe('compactCounters', () => {
  it("merges an organization's piled-up count deltas and drops the rows of deleted organizations", async () => {
    const db = database.handle.db;
    const [kept] = await db.insert(schema.organizations).values({ name: 'Busy' }).returning();
    const [gone] = await db.insert(schema.organizations).values({ name: 'Gone' }).returning();
    const delta = (organizationId: string, status: string, value: number) => ({
      organizationId,
      schemaId: null,
      status,
      expiryHour: null,
      delta: value,
    });
    await db
      .insert(schema.credentialCounts)
      .values([
        ...Array.from({ length: 150 }, () => delta(kept!.id, 'CREATED', 1)),
        ...Array.from({ length: 30 }, () => delta(kept!.id, 'CREATED', -1)),
        delta(kept!.id, 'CLAIMED', 2),
        delta(gone!.id, 'CREATED', 1),
        delta(gone!.id, 'CREATED', -1),
      ]);
    await db.delete(schema.organizations).where(eq(schema.organizations.id, gone!.id));
    const result = await compactCounters(db);
    expect(result).toEqual({ orphanCounterRows: 2, compactedOrganizations: 1 });
    const rows = await db
      .select({ status: schema.credentialCounts.status, delta: schema.credentialCounts.delta })
      .from(schema.credentialCounts)
      .where(eq(schema.credentialCounts.organizationId, kept!.id));
    expect(rows.sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { status: 'CLAIMED', delta: 2 },
      { status: 'CREATED', delta: 120 },
    ]);
    expect(await compactCounters(db)).toEqual({ orphanCounterRows: 0, compactedOrganizations: 0 });
  });
});
