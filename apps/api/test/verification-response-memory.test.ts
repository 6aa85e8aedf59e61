import type { Verification } from '@cp/contracts';
import { schema } from '@cp/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseMemory } from '../src/modules/verifications/response-memory.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimCredential, type Holder, makeHolder, preparePresentation, presentCredential } from './support/wallet.ts';

/**
 * A response to an attempt this process created takes the attempt, and its organization's trust anchors and
 * webhook subscription, from memory instead of a statement (response-memory.ts, issue 16). What an attacker (or
 * an operator acting meanwhile) would use against that: the copy must never decide an outcome the database no
 * longer supports. Each case below changes the database after the copy was made, then answers.
 */

let t: TestApp;
let org: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let credential: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await buildVerifiedOrganization(t, 'Memory Verifiers', {
    name: 'Pass',
    attributes: [{ name: 'level', type: 'NUMBER' }],
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: org.headers,
    payload: {
      credential: { name: 'Pass', schema_id: org.schemaRecord.schema.id, claims: { level: '3' } },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  holder = await makeHolder();
  credential = await claimCredential(t, connect.connection_url, holder);
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;

async function createVerification(type: 'MULTI' | 'SINGLE' = 'MULTI'): Promise<Verification> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: org.headers,
    payload: { name: `Door ${type}`, schema_id: org.schemaRecord.schema.id, type },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function startAttempt(verificationId: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const individual = created.json() as { id: string };
  const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
  return { id: individual.id, url: connect.connection_url as string };
}

const stored = async (id: string) =>
  (
    await db()
      .select({ status: schema.verificationIndividuals.status, checks: schema.verificationIndividuals.checks })
      .from(schema.verificationIndividuals)
      .where(eq(schema.verificationIndividuals.id, id))
  )[0];

const revision = async () =>
  (
    await db()
      .select({ revision: schema.organizations.verifierRevision })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, org.organization.id))
  )[0]!.revision;

/**
 * Answers one attempt so the organization's verifier side is read and kept, then starts the next one (in memory)
 * and has the wallet fetch its request: `answer()` posts the response, after whatever the test changes.
 */
async function warmAttempt(verification: Verification) {
  const first = await startAttempt(verification.id);
  expect((await presentCredential(t, first.url, credential, holder)).status).toBe(200);
  const next = await startAttempt(verification.id);
  expect(responseMemory.recall(next.id)).toBeDefined();
  return { ...next, answer: await preparePresentation(t, next.url, credential, holder) };
}

describe('responses answered from memory', () => {
  it('verifies an attempt made here without reading it again, and forgets it once answered', async () => {
    const verification = await createVerification();
    const attempt = await warmAttempt(verification);
    const response = await attempt.answer();
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((await stored(attempt.id))?.status).toBe('VERIFIED');
    expect(responseMemory.recall(attempt.id)).toBeUndefined();
    // The same response again (a replay): read from the database, already answered.
    const replay = await attempt.answer();
    expect(replay.status).toBe(400);
    expect(replay.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/already/),
    });
  });

  it('refuses an attempt answered meanwhile by another process, and keeps that outcome', async () => {
    const verification = await createVerification();
    const attempt = await warmAttempt(verification);
    // Another process answered it (FAILED): this process's copy still says CREATED.
    await db()
      .update(schema.verificationIndividuals)
      .set({ status: 'FAILED', checks: [{ code: 'NONCE', passed: false }], verifiedAt: new Date() })
      .where(eq(schema.verificationIndividuals.id, attempt.id));
    const response = await attempt.answer();
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/already/),
    });
    expect(await stored(attempt.id)).toEqual({ status: 'FAILED', checks: [{ code: 'NONCE', passed: false }] });
  });

  it('refuses an attempt whose verification was deleted after the attempt was made (404, nothing stored)', async () => {
    const verification = await createVerification();
    const attempt = await warmAttempt(verification);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/verifications/${verification.id}`,
      headers: org.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const response = await attempt.answer();
    expect(response.status).toBe(404);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
    expect((await stored(attempt.id))?.status).not.toMatch(/VERIFIED|FAILED/);
  });

  it('records the verification.completed event of an endpoint created after the organization was read', async () => {
    const verification = await createVerification();
    const attempt = await warmAttempt(verification);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: org.headers,
      payload: { url: 'https://hooks.example.com/in', events: ['verification.completed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    expect((await attempt.answer()).status).toBe(200);
    expect((await stored(attempt.id))?.status).toBe('VERIFIED');
    const events = await db()
      .select({ payload: schema.webhookDeliveries.payload, type: schema.webhookDeliveries.eventType })
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.webhookId, hook.json().id));
    expect(events).toEqual([
      { type: 'verification.completed', payload: expect.objectContaining({ data: expect.anything() }) },
    ]);
    expect(JSON.stringify(events[0]!.payload)).toContain(attempt.id);
    // With that endpoint, responses are read from the database (the event is stored with the outcome).
    const next = await startAttempt(verification.id);
    expect((await presentCredential(t, next.url, credential, holder)).status).toBe(200);
    const all = await db()
      .select({ id: schema.webhookDeliveries.id })
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.webhookId, hook.json().id));
    expect(all).toHaveLength(2);
    await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${hook.json().id}`, headers: org.headers });
  });

  it('claims the link of a verification made single-use after the attempt was made: its use is taken once', async () => {
    const verification = await createVerification('MULTI');
    const attempt = await warmAttempt(verification);
    const other = await startAttempt(verification.id);
    const answerOther = await preparePresentation(t, other.url, credential, holder);
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/verifications/${verification.id}`,
      headers: org.headers,
      payload: { name: 'Door SINGLE', schema_id: org.schemaRecord.schema.id, type: 'SINGLE' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await attempt.answer()).status).toBe(200);
    expect((await stored(attempt.id))?.status).toBe('VERIFIED');
    const [row] = await db()
      .select({ completedAt: schema.verifications.completedAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.id, verification.id));
    expect(row?.completedAt).not.toBeNull();
    // The other attempt, made before the change too, finds the link used.
    expect((await answerOther()).status).toBe(200);
    const second = await stored(other.id);
    expect(second?.status).toBe('FAILED');
    expect((second!.checks as { code: string; passed: boolean }[]).filter((c) => !c.passed)).toEqual([
      expect.objectContaining({ code: 'SINGLE_USE' }),
    ]);
  });
});

describe("the organization's verifier revision (migration 0025)", () => {
  it('moves with every change of trust anchors and webhook endpoints, not with their bookkeeping', async () => {
    const start = await revision();
    const [anchor] = await db()
      .insert(schema.trustAnchors)
      .values({ organizationId: org.organization.id, kind: 'TRUSTED_LIST', name: 'List', listUrl: 'https://l.example' })
      .returning();
    const added = await revision();
    expect(added).toBeGreaterThan(start);
    // A refresh that finds the same certificates: bookkeeping only.
    await db()
      .update(schema.trustAnchors)
      .set({ listFetchedAt: new Date(), listError: 'timeout' })
      .where(eq(schema.trustAnchors.id, anchor!.id));
    expect(await revision()).toBe(added);
    await db()
      .update(schema.trustAnchors)
      .set({ listCertificates: ['MIIB'] })
      .where(eq(schema.trustAnchors.id, anchor!.id));
    const changed = await revision();
    expect(changed).toBeGreaterThan(added);
    await db().delete(schema.trustAnchors).where(eq(schema.trustAnchors.id, anchor!.id));
    const removed = await revision();
    expect(removed).toBeGreaterThan(changed);

    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: org.headers,
      payload: { url: 'https://hooks.example.com/rev', events: ['credential.revoked'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const hooked = await revision();
    expect(hooked).toBeGreaterThan(removed);
    await db()
      .update(schema.webhooks)
      .set({ events: ['credential.revoked', 'verification.completed'] })
      .where(eq(schema.webhooks.id, hook.json().id));
    const subscribed = await revision();
    expect(subscribed).toBeGreaterThan(hooked);
    await db().update(schema.webhooks).set({ description: 'renamed' }).where(eq(schema.webhooks.id, hook.json().id));
    expect(await revision()).toBe(subscribed);
    await db().update(schema.webhooks).set({ enabled: false }).where(eq(schema.webhooks.id, hook.json().id));
    const disabled = await revision();
    expect(disabled).toBeGreaterThan(subscribed);
    await db().update(schema.webhooks).set({ deletedAt: sql`now()` }).where(eq(schema.webhooks.id, hook.json().id));
    expect(await revision()).toBeGreaterThan(disabled);
  });
});
