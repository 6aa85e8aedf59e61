import { WEBHOOK_ENDPOINTS_MAX } from '@cp/contracts';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../src/modules/webhooks/webhooks.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const basic = (key: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
});

/** A member with an organization, and the headers the console sends for it. */
async function buildMember(name = 'Acme') {
  const member = await buildUser(t);
  const organization = await buildOrganization(t, member.user.id, name);
  return { ...member, organization, headers: { ...member.auth, currentidentity: organization.id } };
}

async function buildApiKeyHeaders(headers: Record<string, string>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/integrations/keys',
    headers,
    payload: { name: 'ERP' },
  });
  expect(response.statusCode).toBe(201);
  const { key, secret } = response.json();
  return basic(key, secret);
}

async function createWebhook(headers: Record<string, string>, payload: object = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers,
    // A closed local port: test deliveries fail fast, nothing leaves the machine.
    payload: { url: 'http://127.0.0.1:9/cp', events: ['credential.revoked'], ...payload },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as {
    id: string;
    url: string;
    description: string | null;
    events: string[];
    enabled: boolean;
    created_at: string;
    secret_last_four: string;
    secret: string;
  };
}

describe('webhook endpoints', () => {
  it('creates an endpoint whose secret is shown once and stored encrypted, never in plain text', async () => {
    const alice = await buildMember();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: alice.headers,
      payload: {
        url: '  https://hooks.example.com/cp?x=1  ',
        description: '  ERP sync ',
        events: ['credential.revoked', 'verification.completed', 'credential.revoked'],
      },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/cp?x=1',
      description: 'ERP sync',
      events: ['credential.revoked', 'verification.completed'],
      enabled: true,
    });
    expect(Object.keys(created).sort()).toEqual(
      ['created_at', 'description', 'enabled', 'events', 'id', 'secret', 'secret_last_four', 'url'].sort(),
    );
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(created.secret_last_four).toBe(created.secret.slice(-4));

    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks?t=1', headers: alice.headers });
    expect(list.statusCode).toBe(200);
    const { secret, ...shown } = created;
    expect(list.json()).toEqual({ results: [shown], total: 1, page: 1, limit: expect.any(Number) });
    expect(list.body).not.toContain(secret);

    const [row] = await t.runtime.ctx.database.db
      .select()
      .from(schema.webhooks)
      .where(eq(schema.webhooks.id, created.id));
    expect(row).toBeDefined();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice('whsec_'.length));
    expect(row!.organizationId).toBe(alice.organization.id);
    expect(row!.createdByUserId).toBe(alice.user.id);
    // Recoverable to sign with, under the master key, and only for this endpoint's row.
    expect(t.runtime.ctx.secretBox.open(row!.secretCiphertext, webhookSecretName(created.id))).toBe(secret);
    expect(() => t.runtime.ctx.secretBox.open(row!.secretCiphertext, webhookSecretName(alice.user.id))).toThrow();
  });

  it('rejects a bad URL, an unknown event, no events and unknown fields with 400', async () => {
    const alice = await buildMember();
    const bad = async (payload: object) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/webhooks', headers: alice.headers, payload });
      expect(response.statusCode).toBe(400);
      return response.json();
    };
    for (const url of ['not a url', 'ftp://hooks.example.com/x', 'https://user:pw@hooks.example.com/x', '']) {
      const problem = await bad({ url, events: ['credential.revoked'] });
      expect(problem).toMatchObject({ status: 400, code: 'REQUEST_INVALID' });
      expect(problem.errors.map((e: { path: string }) => e.path)).toContain('body.url');
    }
    expect((await bad({ url: 'https://hooks.example.com', events: ['credential.exploded'] })).errors[0].path).toMatch(
      /^body\.events/,
    );
    await bad({ url: 'https://hooks.example.com', events: [] });
    await bad({ url: 'https://hooks.example.com' });
    await bad({ url: 'https://hooks.example.com', events: ['credential.revoked'], secret: 'whsec_mine' });
    await bad({ url: `https://hooks.example.com/${'a'.repeat(2000)}`, events: ['credential.revoked'] });

    const created = await createWebhook(alice.headers);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${created.id}`,
      headers: alice.headers,
      payload: { url: 'javascript:alert(1)' },
    });
    expect(patch.statusCode).toBe(400);
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: alice.headers });
    expect(list.json().total).toBe(1);
  });

  it('updates, pages newest first, and deletes (soft) an endpoint', async () => {
    const alice = await buildMember();
    const first = await createWebhook(alice.headers, { url: 'https://a.example.com/1' });
    const second = await createWebhook(alice.headers, { url: 'https://a.example.com/2' });
    const third = await createWebhook(alice.headers, { url: 'https://a.example.com/3' });

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${second.id}`,
      headers: alice.headers,
      payload: {
        url: 'https://b.example.com/hook',
        description: 'Billing',
        events: ['credential.claimed', 'credential.revoked'],
        enabled: false,
      },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toEqual({
      id: second.id,
      url: 'https://b.example.com/hook',
      description: 'Billing',
      events: ['credential.claimed', 'credential.revoked'],
      enabled: false,
      created_at: second.created_at,
      secret_last_four: second.secret_last_four,
    });
    // An empty patch changes nothing; an empty description clears it.
    const same = await t.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${second.id}`,
      headers: alice.headers,
      payload: {},
    });
    expect(same.json()).toEqual(patched.json());
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${second.id}`,
      headers: alice.headers,
      payload: { description: '' },
    });
    expect(cleared.json().description).toBeNull();

    const page1 = await t.app.inject({ method: 'GET', url: '/api/webhooks?page=1&limit=2', headers: alice.headers });
    expect(page1.json()).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page1.json().results.map((w: { id: string }) => w.id)).toEqual([third.id, second.id]);
    const page2 = await t.app.inject({ method: 'GET', url: '/api/webhooks?page=2&limit=2', headers: alice.headers });
    expect(page2.json().results.map((w: { id: string }) => w.id)).toEqual([first.id]);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${first.id}?t=1`,
      headers: alice.headers,
    });
    expect(deleted.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: alice.headers });
    expect(after.json().results.map((w: { id: string }) => w.id)).toEqual([third.id, second.id]);
    for (const request of [
      { method: 'DELETE' as const, url: `/api/webhooks/${first.id}` },
      { method: 'PATCH' as const, url: `/api/webhooks/${first.id}`, payload: { enabled: true } },
      { method: 'GET' as const, url: `/api/webhooks/${first.id}/deliveries` },
      { method: 'POST' as const, url: `/api/webhooks/${first.id}/test` },
    ]) {
      const response = await t.app.inject({ ...request, headers: alice.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('WEBHOOK_NOT_FOUND');
    }
    const [row] = await t.runtime.ctx.database.db
      .select()
      .from(schema.webhooks)
      .where(eq(schema.webhooks.id, first.id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
  });

  it(`allows at most ${WEBHOOK_ENDPOINTS_MAX} endpoints per organization (409), deleted ones not counted`, async () => {
    const alice = await buildMember();
    const created = [];
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) {
      created.push(await createWebhook(alice.headers, { url: `https://hooks.example.com/${i}` }));
    }
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: alice.headers,
      payload: { url: 'https://hooks.example.com/over', events: ['credential.revoked'] },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ status: 409, code: 'WEBHOOK_LIMIT_REACHED' });
    expect(over.json().detail).toContain(String(WEBHOOK_ENDPOINTS_MAX));

    // Another organization has its own allowance.
    const bob = await buildMember('Bobco');
    await createWebhook(bob.headers);

    await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${created[0]!.id}`, headers: alice.headers });
    await createWebhook(alice.headers, { url: 'https://hooks.example.com/again' });
  });

  it("isolates organizations: another organization's member sees nothing and gets 404", async () => {
    const alice = await buildMember('Alice Inc');
    const bob = await buildMember('Bob Inc');
    const aliceHook = await createWebhook(alice.headers);
    const queued = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${aliceHook.id}/test`,
      headers: alice.headers,
    });
    expect(queued.statusCode).toBe(202);

    for (const headers of [bob.headers]) {
      const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject({ results: [], total: 0 });
      for (const request of [
        { method: 'PATCH' as const, url: `/api/webhooks/${aliceHook.id}`, payload: { enabled: false } },
        { method: 'GET' as const, url: `/api/webhooks/${aliceHook.id}/deliveries` },
        { method: 'POST' as const, url: `/api/webhooks/${aliceHook.id}/test` },
        { method: 'DELETE' as const, url: `/api/webhooks/${aliceHook.id}` },
      ]) {
        const response = await t.app.inject({ ...request, headers });
        expect(response.statusCode).toBe(404);
        expect(response.json().code).toBe('WEBHOOK_NOT_FOUND');
      }
    }
    // Bob naming Alice's organization is refused outright (not a member).
    const named = await t.app.inject({
      method: 'GET',
      url: '/api/webhooks',
      headers: { ...bob.auth, currentidentity: alice.organization.id },
    });
    expect(named.statusCode).toBe(403);
    // Alice's endpoint is untouched.
    const aliceList = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: alice.headers });
    expect(aliceList.json().results).toEqual([expect.objectContaining({ id: aliceHook.id, enabled: true })]);
    const deliveries = await t.app.inject({
      method: 'GET',
      url: `/api/webhooks/${aliceHook.id}/deliveries`,
      headers: alice.headers,
    });
    expect(deliveries.json().total).toBe(1);
  });

  it('refuses API keys (they act with member rights; webhooks are for admins); unauthenticated calls get 401', async () => {
    const alice = await buildMember();
    const key = await buildApiKeyHeaders(alice.headers);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: key,
      payload: { url: 'https://erp.example/hook', events: ['credential.claimed'] },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ORGANIZATION_ROLE_FORBIDDEN');
    expect((await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: key })).statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: alice.headers });
    expect(list.json().results).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/webhooks' })).statusCode).toBe(401);
    const noIdentity = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: alice.auth });
    expect(noIdentity.statusCode).toBe(400);
    expect(noIdentity.json().code).toBe('ORGANIZATION_IDENTITY_REQUIRED');
  });

  it('queues a test delivery (202) of type verification.completed; a disabled endpoint answers 409', async () => {
    const alice = await buildMember();
    const hook = await createWebhook(alice.headers, { events: ['credential.claimed'] });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${hook.id}/test`,
      headers: alice.headers,
    });
    expect(response.statusCode).toBe(202);
    const delivery = response.json();
    expect(delivery).toMatchObject({
      webhook_id: hook.id,
      event_type: 'verification.completed',
      status: 'PENDING',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      delivered_at: null,
    });
    expect(delivery.event_id).toMatch(/^evt_[A-Za-z0-9_-]{32}$/);
    const [row] = await t.runtime.ctx.database.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.id, delivery.id));
    expect(row!.payload).toMatchObject({
      id: delivery.event_id,
      type: 'verification.completed',
      organization_id: alice.organization.id,
      data: { test: true },
    });

    await t.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${hook.id}`,
      headers: alice.headers,
      payload: { enabled: false },
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${hook.id}/test`,
      headers: alice.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('WEBHOOK_DISABLED');
  });
});
