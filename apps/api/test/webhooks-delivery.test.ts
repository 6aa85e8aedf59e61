import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateEs256KeyPair, signerFromPrivateJwk, signJwt } from '@cp/credentials';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueWebhookEvent } from '../src/modules/webhooks/webhooks.service.ts';
import {
  defaultWebhookWorkerSettings,
  sweepWebhookDeliveries,
  webhookWorkerSettings,
} from '../src/modules/webhooks/webhooks.worker.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimCredential, makeHolder, presentCredential } from './support/wallet.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Milliseconds instead of minutes: three attempts in all. */
const fastSchedule = () =>
  Object.assign(webhookWorkerSettings(t.runtime.ctx), { retryDelaysMs: [50, 50], timeoutMs: 2000 });
afterEach(() => {
  Object.assign(webhookWorkerSettings(t.runtime.ctx), defaultWebhookWorkerSettings());
});

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1: answers the queued statuses in turn (then the last one, or 200). */
async function startReceiver(statuses: number[] = [200], options: { hang?: boolean; location?: string } = {}) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (options.hang) return; // never answers
      const status = statuses.length > 1 ? statuses.shift()! : (statuses[0] ?? 200);
      if (options.location) response.setHeader('location', options.location);
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receivers.push(server);
  return { url: `http://127.0.0.1:${port}/hook`, origin: `http://127.0.0.1:${port}`, received };
}
const receivers: Server[] = [];
afterAll(async () => {
  for (const server of receivers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Standard Webhooks verification, written independently of the API's code. */
function verifySignature(secret: string, headers: IncomingHttpHeaders, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest();
  const signatures = String(headers['webhook-signature'])
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  return signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected));
}

const organizationWithSchema = (name: string) =>
  buildVerifiedOrganization(t, name, { name: 'Badge', attributes: [{ name: 'level', type: 'NUMBER' }] });

async function createWebhook(headers: Record<string, string>, url: string, events: string[]) {
  const response = await t.app.inject({ method: 'POST', url: '/api/webhooks', headers, payload: { url, events } });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; secret: string };
}

async function deliveries(headers: Record<string, string>, webhookId: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/webhooks/${webhookId}/deliveries`, headers });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    total: number;
    results: {
      id: string;
      event_id: string;
      event_type: string;
      status: string;
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
      delivered_at: string | null;
      next_attempt_at: string | null;
    }[];
  };
}

/** Polls the deliveries endpoint until `done` holds (no fixed sleeps). */
async function waitForDeliveries(
  headers: Record<string, string>,
  webhookId: string,
  done: (page: Awaited<ReturnType<typeof deliveries>>) => boolean,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await deliveries(headers, webhookId);
    if (done(page)) return page;
    if (Date.now() > deadline) throw new Error(`deliveries never settled: ${JSON.stringify(page.results)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const settled = (status: string) => (page: Awaited<ReturnType<typeof deliveries>>) =>
  page.total > 0 && page.results.every((d) => d.status === status);

async function createCredential(headers: Record<string, string>, schemaId: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: { name: 'Badge of Ada', schema_id: schemaId, claims: [{ name: 'level', value: '3' }] },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string };
}

describe('webhook deliveries', () => {
  it('delivers a signed test event to a real receiver (Standard Webhooks)', async () => {
    const { organization, headers } = await organizationWithSchema('Signed Co');
    const receiver = await startReceiver([204]);
    const hook = await createWebhook(headers, receiver.url, ['credential.revoked']);
    const queued = await t.app.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test`, headers });
    expect(queued.statusCode).toBe(202);

    const page = await waitForDeliveries(headers, hook.id, settled('SUCCEEDED'));
    expect(page.results).toEqual([
      expect.objectContaining({
        id: queued.json().id,
        event_type: 'verification.completed',
        status: 'SUCCEEDED',
        attempts: 1,
        last_status_code: 204,
        last_error: null,
        next_attempt_at: null,
      }),
    ]);
    expect(page.results[0]!.delivered_at).not.toBeNull();

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.path).toBe('/hook');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/\S/);
    expect(request!.headers['webhook-id']).toBe(queued.json().event_id);
    const timestamp = Number(request!.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifySignature(hook.secret, request!.headers, request!.body)).toBe(true);
    // A tampered body or another secret does not verify.
    expect(verifySignature(hook.secret, request!.headers, `${request!.body} `)).toBe(false);
    expect(verifySignature(`whsec_${Buffer.alloc(32).toString('base64')}`, request!.headers, request!.body)).toBe(
      false,
    );

    const body = JSON.parse(request!.body);
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'organization_id', 'data']);
    expect(body).toMatchObject({
      id: queued.json().event_id,
      type: 'verification.completed',
      organization_id: organization.id,
      data: { test: true },
    });
  });

  it('retries after a failing answer with the same webhook-id, then succeeds (attempts 2)', async () => {
    fastSchedule();
    const { headers } = await organizationWithSchema('Retry Co');
    const receiver = await startReceiver([500, 200]);
    const hook = await createWebhook(headers, receiver.url, ['verification.completed']);
    const queued = await t.app.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test`, headers });

    const page = await waitForDeliveries(headers, hook.id, settled('SUCCEEDED'));
    expect(page.results[0]).toMatchObject({
      id: queued.json().id,
      status: 'SUCCEEDED',
      attempts: 2,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(first!.headers['webhook-id']).toBe(queued.json().event_id);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(verifySignature(hook.secret, first!.headers, first!.body)).toBe(true);
    expect(verifySignature(hook.secret, second!.headers, second!.body)).toBe(true);
  });

  it('gives up after the last attempt (FAILED) and records a short reason', async () => {
    fastSchedule();
    const { headers } = await organizationWithSchema('Failing Co');
    const receiver = await startReceiver([503]);
    const hook = await createWebhook(headers, receiver.url, ['verification.completed']);
    await t.app.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test`, headers });

    const page = await waitForDeliveries(headers, hook.id, settled('FAILED'));
    expect(page.results[0]).toMatchObject({
      status: 'FAILED',
      attempts: 3,
      last_status_code: 503,
      last_error: 'HTTP 503',
      delivered_at: null,
      next_attempt_at: null,
    });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(page.results[0]!.last_error).not.toContain(hook.secret.slice(6));
  });

  it('does not follow redirects and gives up on a receiver that does not answer in time', async () => {
    Object.assign(webhookWorkerSettings(t.runtime.ctx), { retryDelaysMs: [], timeoutMs: 300 });
    const { headers } = await organizationWithSchema('Odd Co');
    const target = await startReceiver([200]);
    const redirecting = await startReceiver([302], { location: target.url });
    const hanging = await startReceiver([200], { hang: true });
    const redirectHook = await createWebhook(headers, redirecting.url, ['verification.completed']);
    const hangingHook = await createWebhook(headers, hanging.url, ['verification.completed']);
    await t.app.inject({ method: 'POST', url: `/api/webhooks/${redirectHook.id}/test`, headers });
    await t.app.inject({ method: 'POST', url: `/api/webhooks/${hangingHook.id}/test`, headers });

    const redirected = await waitForDeliveries(headers, redirectHook.id, settled('FAILED'));
    expect(redirected.results[0]).toMatchObject({ attempts: 1, last_status_code: 302 });
    expect(redirected.results[0]!.last_error).toContain('redirects are not followed');
    expect(target.received).toHaveLength(0);

    const timedOut = await waitForDeliveries(headers, hangingHook.id, settled('FAILED'));
    expect(timedOut.results[0]).toMatchObject({ attempts: 1, last_status_code: null });
    expect(timedOut.results[0]!.last_error).toMatch(/^Timed out/);
    expect(hanging.received).toHaveLength(1);
  });

  it('sends credential.revoked on revoke and on delete, only to enabled endpoints subscribed to it', async () => {
    fastSchedule();
    const { organization, schemaRecord, headers } = await organizationWithSchema('Revoking Co');
    const subscribed = await startReceiver([200]);
    const disabled = await startReceiver([200]);
    const otherEvent = await startReceiver([200]);
    const hook = await createWebhook(headers, subscribed.url, ['credential.revoked', 'credential.claimed']);
    const disabledHook = await createWebhook(headers, disabled.url, ['credential.revoked']);
    const otherHook = await createWebhook(headers, otherEvent.url, ['credential.claimed']);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${disabledHook.id}`,
      headers,
      payload: { enabled: false },
    });
    expect(patch.json().enabled).toBe(false);
    // Another organization's endpoint hears nothing of this one's events.
    const stranger = await organizationWithSchema('Stranger Co');
    const strangerReceiver = await startReceiver([200]);
    const strangerHook = await createWebhook(stranger.headers, strangerReceiver.url, ['credential.revoked']);

    const revokedCredential = await createCredential(headers, schemaRecord.schema.id);
    const deletedCredential = await createCredential(headers, schemaRecord.schema.id);
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers,
      payload: { credentials: [revokedCredential.id] },
    });
    expect(revoke.statusCode).toBe(200);
    // Revoking again changes nothing and announces nothing.
    await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers,
      payload: { credentials: [revokedCredential.id] },
    });
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/credentials/${deletedCredential.id}`, headers });
    expect(removed.statusCode).toBe(204);

    const page = await waitForDeliveries(headers, hook.id, (p) => p.total === 2 && settled('SUCCEEDED')(p));
    expect(page.results.map((d) => d.event_type)).toEqual(['credential.revoked', 'credential.revoked']);
    expect(subscribed.received).toHaveLength(2);
    const events = subscribed.received.map((r) => {
      expect(verifySignature(hook.secret, r.headers, r.body)).toBe(true);
      return JSON.parse(r.body);
    });
    const rows = await t.runtime.ctx.database.db.select().from(schema.credentials);
    for (const credential of [revokedCredential, deletedCredential]) {
      const row = rows.find((r) => r.id === credential.id)!;
      const event = events.find((e) => e.data.credential_id === credential.id);
      expect(event).toMatchObject({
        type: 'credential.revoked',
        organization_id: organization.id,
        data: {
          credential_id: credential.id,
          schema_id: schemaRecord.schema.id,
          revoked_at: row.revokedAt!.toISOString(),
        },
      });
    }

    expect((await deliveries(headers, disabledHook.id)).total).toBe(0);
    expect((await deliveries(headers, otherHook.id)).total).toBe(0);
    expect((await deliveries(stranger.headers, strangerHook.id)).total).toBe(0);
    expect(disabled.received).toHaveLength(0);
    expect(otherEvent.received).toHaveLength(0);
    expect(strangerReceiver.received).toHaveLength(0);
  });

  it('stops pending deliveries when their endpoint is disabled or deleted', async () => {
    // First attempt fails, the next one is an hour away: the delivery waits PENDING.
    Object.assign(webhookWorkerSettings(t.runtime.ctx), { retryDelaysMs: [3_600_000], timeoutMs: 2000 });
    const { headers } = await organizationWithSchema('Stopping Co');
    const receiver = await startReceiver([500]);
    const toDelete = await createWebhook(headers, receiver.url, ['verification.completed']);
    const toDisable = await createWebhook(headers, receiver.url, ['verification.completed']);
    const deleteDelivery = (
      await t.app.inject({ method: 'POST', url: `/api/webhooks/${toDelete.id}/test`, headers })
    ).json();
    const disableDelivery = (
      await t.app.inject({ method: 'POST', url: `/api/webhooks/${toDisable.id}/test`, headers })
    ).json();
    const waiting = (p: Awaited<ReturnType<typeof deliveries>>) =>
      p.results[0]?.attempts === 1 && p.results[0].status === 'PENDING' && p.results[0].last_status_code === 500;
    const pending = await waitForDeliveries(headers, toDelete.id, waiting);
    expect(Date.parse(pending.results[0]!.next_attempt_at!)).toBeGreaterThan(Date.now() + 3_000_000);
    await waitForDeliveries(headers, toDisable.id, waiting);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${toDelete.id}`, headers })).statusCode).toBe(
      204,
    );
    const [deletedRow] = await t.runtime.ctx.database.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.id, deleteDelivery.id));
    expect(deletedRow).toMatchObject({ status: 'FAILED', lastError: 'The endpoint was deleted.', nextAttemptAt: null });

    // Disabled: the due job finds the endpoint off and stops the delivery without sending.
    await t.app.inject({ method: 'PATCH', url: `/api/webhooks/${toDisable.id}`, headers, payload: { enabled: false } });
    await t.runtime.ctx.database.db
      .update(schema.webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(schema.webhookDeliveries.id, disableDelivery.id));
    await t.runtime.ctx.jobs.send('webhooks.delivery', { deliveryId: disableDelivery.id });
    const stopped = await waitForDeliveries(headers, toDisable.id, settled('FAILED'));
    expect(stopped.results[0]).toMatchObject({ attempts: 1, last_error: 'The endpoint is disabled.' });
    expect(receiver.received).toHaveLength(2);
  });

  it('enqueueWebhookEvent: one event id for every subscribed endpoint; a lost job is swept up later', async () => {
    fastSchedule();
    const { organization, headers } = await organizationWithSchema('Verifying Co');
    const receiverA = await startReceiver([200]);
    const receiverB = await startReceiver([200]);
    const hookA = await createWebhook(headers, receiverA.url, ['verification.completed']);
    const hookB = await createWebhook(headers, receiverB.url, ['verification.completed', 'credential.revoked']);
    await createWebhook(headers, receiverB.url, ['credential.claimed']);

    const data = { verification_id: '7d4b3c1e-8f52-4f7e-9d39-3f3f7b0b2a11', status: 'VERIFIED', score: 1.5 };
    const { eventId, deliveryIds } = await enqueueWebhookEvent(t.runtime.ctx.deps.webhooks, {
      organizationId: organization.id,
      type: 'verification.completed',
      data,
    });
    expect(eventId).toMatch(/^evt_/);
    expect(deliveryIds).toHaveLength(2);
    const a = await waitForDeliveries(headers, hookA.id, settled('SUCCEEDED'));
    const b = await waitForDeliveries(headers, hookB.id, settled('SUCCEEDED'));
    expect(a.results[0]!.event_id).toBe(eventId);
    expect(b.results[0]!.event_id).toBe(eventId);
    expect(JSON.parse(receiverA.received[0]!.body)).toMatchObject({ id: eventId, data });
    expect(receiverB.received).toHaveLength(1);
    expect(verifySignature(hookA.secret, receiverA.received[0]!.headers, receiverA.received[0]!.body)).toBe(true);
    expect(verifySignature(hookB.secret, receiverB.received[0]!.headers, receiverB.received[0]!.body)).toBe(true);

    // Only hookB subscribes to credential.revoked; an organization without endpoints stores nothing.
    const revoked = await enqueueWebhookEvent(t.runtime.ctx.deps.webhooks, {
      organizationId: organization.id,
      type: 'credential.revoked',
      data: {},
    });
    expect(revoked.deliveryIds).toHaveLength(1);
    const silent = await organizationWithSchema('Silent Co');
    const none = await enqueueWebhookEvent(t.runtime.ctx.deps.webhooks, {
      organizationId: silent.organization.id,
      type: 'verification.completed',
      data: {},
    });
    expect(none).toEqual({ eventId: null, deliveryIds: [] });
    await waitForDeliveries(headers, hookB.id, (p) => p.total === 2 && settled('SUCCEEDED')(p));

    // The queue fails: the caller is not disturbed, the delivery waits, and the sweep sends it.
    const warnings: unknown[] = [];
    const broken = {
      ...t.runtime.ctx.deps.webhooks,
      enqueue: async () => {
        throw new Error('queue down');
      },
      logger: { warn: (...args: unknown[]) => warnings.push(args) },
    };
    const lost = await enqueueWebhookEvent(broken, {
      organizationId: organization.id,
      type: 'verification.completed',
      data: { n: 2 },
    });
    expect(lost.deliveryIds).toHaveLength(2);
    expect(warnings).toHaveLength(2);
    const [waitingRow] = await t.runtime.ctx.database.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.id, lost.deliveryIds[0]!));
    expect(waitingRow).toMatchObject({ status: 'PENDING', attempts: 0 });
    const settings = webhookWorkerSettings(t.runtime.ctx);
    // Not overdue yet: the sweep leaves it alone.
    const sweepDeps = {
      ...t.runtime.ctx.deps.webhooks,
      logger: t.runtime.ctx.logger,
      settings: { ...settings, sweepGraceMs: 60_000 },
    };
    expect(await sweepWebhookDeliveries(sweepDeps)).toBe(0);
    expect(
      await sweepWebhookDeliveries({ ...sweepDeps, settings: { ...settings, sweepGraceMs: 0 } }),
    ).toBeGreaterThanOrEqual(2);
    await waitForDeliveries(headers, hookA.id, (p) => p.total === 2 && settled('SUCCEEDED')(p));
    expect(receiverA.received).toHaveLength(2);
    expect(JSON.parse(receiverA.received[1]!.body)).toMatchObject({ id: lost.eventId, data: { n: 2 } });
  });

  it('sends credential.claimed when the holder redeems the offer', async () => {
    fastSchedule();
    const { organization, schemaRecord, headers } = await organizationWithSchema('Claiming Co');
    const receiver = await startReceiver([200]);
    const hook = await createWebhook(headers, receiver.url, ['credential.claimed']);
    const credential = await createCredential(headers, schemaRecord.schema.id);

    // The wallet side of OpenID4VCI (pre-authorized code), as in issuance.test.ts.
    const get = async (url: string) => {
      const { pathname, search } = new URL(url);
      return (await t.app.inject({ method: 'GET', url: `${pathname}${search}` })).json();
    };
    const connect = await get(`${t.config.publicUrl}/api/credentials/${credential.id}/connect`);
    const offer = await get(new URL(connect.connection_url).searchParams.get('credential_offer_uri')!);
    const issuer = new URL(offer.credential_issuer);
    const metadata = await get(`${issuer.origin}/.well-known/openid-credential-issuer${issuer.pathname}`);
    const as = await get(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`);
    const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    const token = await t.app.inject({
      method: 'POST',
      url: new URL(as.token_endpoint).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
        'pre-authorized_code': code,
      }).toString(),
    });
    expect(token.statusCode).toBe(200);
    const nonce = await t.app.inject({ method: 'POST', url: new URL(metadata.nonce_endpoint).pathname });
    const { privateJwk, publicJwk } = await generateEs256KeyPair();
    const proof = await signJwt(
      await signerFromPrivateJwk(privateJwk),
      { typ: 'openid4vci-proof+jwt', jwk: publicJwk },
      { aud: offer.credential_issuer, iat: Math.floor(Date.now() / 1000), nonce: nonce.json().c_nonce },
    );
    const issued = await t.app.inject({
      method: 'POST',
      url: new URL(metadata.credential_endpoint).pathname,
      headers: { authorization: `Bearer ${token.json().access_token}` },
      payload: { credential_configuration_id: offer.credential_configuration_ids[0], proofs: { jwt: [proof] } },
    });
    expect(issued.statusCode).toBe(200);

    const page = await waitForDeliveries(headers, hook.id, settled('SUCCEEDED'));
    expect(page.results).toHaveLength(1);
    const [row] = await t.runtime.ctx.database.db
      .select()
      .from(schema.credentials)
      .where(eq(schema.credentials.id, credential.id));
    const event = JSON.parse(receiver.received[0]!.body);
    expect(event).toMatchObject({
      id: page.results[0]!.event_id,
      type: 'credential.claimed',
      organization_id: organization.id,
      data: {
        credential_id: credential.id,
        schema_id: schemaRecord.schema.id,
        claimed_at: row!.claimedAt!.toISOString(),
      },
    });
    expect(verifySignature(hook.secret, receiver.received[0]!.headers, receiver.received[0]!.body)).toBe(true);
  });
});

describe('verification.completed', () => {
  it('is sent, signed, when a wallet answers a verification: the outcome without the claims', async () => {
    const { organization, schemaRecord, headers } = await organizationWithSchema('Verifying Co');
    const receiver = await startReceiver([200]);
    const hook = await createWebhook(headers, receiver.url, ['verification.completed']);
    const credential = await createCredential(headers, schemaRecord.schema.id);
    const connect = (await t.app.inject({ url: `/api/credentials/${credential.id}/connect` })).json();
    const holder = await makeHolder();
    const sdJwt = await claimCredential(t, connect.connection_url, holder);
    const verification = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers,
      payload: {
        name: 'Level check',
        schema_id: schemaRecord.schema.id,
        type: 'MULTI',
        attributes: [{ attribute_id: schemaRecord.attributes[0]!.id, operator: 'BIGGER', value: '5' }],
      },
    });
    // The integrator starts the attempt for its customer: the event's result_url answers for crm-7.
    const individual = (
      await t.app.inject({
        method: 'POST',
        url: `/api/verifications/${verification.json().id}/individuals`,
        headers,
        payload: { customer_id: 'crm-7' },
      })
    ).json();
    const link = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
    expect((await presentCredential(t, link.connection_url, sdJwt, holder)).status).toBe(200);

    const page = await waitForDeliveries(headers, hook.id, settled('SUCCEEDED'));
    expect(page.results).toHaveLength(1);
    const event = JSON.parse(receiver.received[0]!.body);
    expect(verifySignature(hook.secret, receiver.received[0]!.headers, receiver.received[0]!.body)).toBe(true);
    expect(event).toMatchObject({
      type: 'verification.completed',
      organization_id: organization.id,
      data: {
        verification_id: verification.json().id,
        individual_id: individual.id,
        customer_id: 'crm-7',
        customer_verified: true,
        status: 'FAILED',
        failed_checks: ['RULE'],
        result_url: `${t.config.publicUrl}/api/verifications/${verification.json().id}/individuals/crm-7`,
      },
    });
    expect(receiver.received[0]!.body).not.toContain('"level"');
  });
});
