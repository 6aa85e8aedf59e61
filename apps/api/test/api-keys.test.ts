import { createHash } from 'node:crypto';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../src/cli/commands/index.ts';
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
async function buildMember(app: TestApp, name = 'Acme') {
  const member = await buildUser(app);
  const organization = await buildOrganization(app, member.user.id, name);
  return { ...member, organization, headers: { ...member.auth, currentidentity: organization.id } };
}

async function buildApiKey(app: TestApp, headers: Record<string, string>, name = 'ERP') {
  const response = await app.app.inject({ method: 'POST', url: '/api/integrations/keys', headers, payload: { name } });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; key: string; secret: string; last_four: string; name: string };
}

describe('integration API keys', () => {
  it('creates a key whose secret appears only in the creation answer and is stored hashed', async () => {
    const alice = await buildMember(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/keys',
      headers: alice.headers,
      payload: { name: '  Billing system  ' },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      name: 'Billing system',
      base_url: `${t.config.publicUrl}/api`,
      last_used_at: null,
    });
    expect(body.key).toMatch(/^ck_[0-9A-Za-z]{24}$/);
    expect(body.secret.length).toBeGreaterThanOrEqual(40);
    expect(body.last_four).toBe(body.secret.slice(-4));
    expect(Object.keys(body).sort()).toEqual(
      ['base_url', 'created_at', 'id', 'key', 'last_four', 'last_used_at', 'name', 'secret'].sort(),
    );

    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys?t=1', headers: alice.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([
      {
        id: body.id,
        name: 'Billing system',
        base_url: body.base_url,
        key: body.key,
        last_four: body.last_four,
        created_at: body.created_at,
        last_used_at: null,
      },
    ]);
    expect(list.body).not.toContain(body.secret);

    const [row] = await t.runtime.ctx.database.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, body.id));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(body.secret);
    expect(row!.secretHash).toBe(createHash('sha256').update(body.secret).digest('hex'));
    expect(row!.organizationId).toBe(alice.organization.id);
    expect(row!.createdByUserId).toBe(alice.user.id);
  });

  it("pages the organization's keys, newest first, without another organization's keys", async () => {
    const alice = await buildMember(t);
    const bob = await buildMember(t, 'Globex');
    for (const name of ['one', 'two', 'three']) await buildApiKey(t, alice.headers, name);
    const bobs = await buildApiKey(t, bob.headers, 'bob key');

    const first = await t.app.inject({
      method: 'GET',
      url: '/api/integrations/keys?page=1&limit=2',
      headers: alice.headers,
    });
    expect(first.json()).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.json().results.map((k: { name: string }) => k.name)).toEqual(['three', 'two']);
    const second = await t.app.inject({
      method: 'GET',
      url: '/api/integrations/keys?page=2&limit=2',
      headers: alice.headers,
    });
    expect(second.json().results.map((k: { name: string }) => k.name)).toEqual(['one']);
    expect(first.body + second.body).not.toContain(bobs.key);

    const defaults = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.headers });
    expect(defaults.json()).toMatchObject({ total: 3, page: 1, limit: 10 });
  });

  it('renames and deletes a key', async () => {
    const alice = await buildMember(t);
    const key = await buildApiKey(t, alice.headers);
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/integrations/keys/${key.id}`,
      headers: alice.headers,
      payload: { name: 'Warehouse' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: key.id, name: 'Warehouse', key: key.key, last_four: key.last_four });
    expect(renamed.json().secret).toBeUndefined();

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/integrations/keys/${key.id}?t=1`,
      headers: alice.headers,
    });
    expect(deleted.statusCode).toBe(204);
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.headers });
    expect(list.json()).toMatchObject({ results: [], total: 0 });
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/integrations/keys/${key.id}`,
      headers: alice.headers,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('API_KEY_NOT_FOUND');
  });

  it("answers 404 to another organization's member on rename and delete, changing nothing", async () => {
    const alice = await buildMember(t);
    const bob = await buildMember(t, 'Globex');
    const key = await buildApiKey(t, alice.headers, 'Alice ERP');
    for (const request of [
      { method: 'PUT' as const, payload: { name: 'Hijacked' } },
      { method: 'DELETE' as const, payload: undefined },
    ]) {
      const response = await t.app.inject({
        method: request.method,
        url: `/api/integrations/keys/${key.id}`,
        headers: bob.headers,
        ...(request.payload ? { payload: request.payload } : {}),
      });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().code).toBe('API_KEY_NOT_FOUND');
      expect(response.body).not.toContain('Alice ERP');
    }
    // Bob cannot name Alice's organization either.
    const crossed = await t.app.inject({
      method: 'GET',
      url: '/api/integrations/keys',
      headers: { ...bob.auth, currentidentity: alice.organization.id },
    });
    expect(crossed.statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.headers });
    expect(list.json().results).toMatchObject([{ id: key.id, name: 'Alice ERP' }]);
    expect(await whoami(basic(key.key, key.secret))).toMatchObject({ statusCode: 200 });
  });

  it("authenticates with HTTP Basic key:secret and acts for the key's organization", async () => {
    const alice = await buildMember(t);
    const bob = await buildMember(t, 'Globex');
    const key = await buildApiKey(t, alice.headers);
    const response = await whoami(basic(key.key, key.secret));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ organization_id: alice.organization.id, actor: 'api_key' });

    const sameOrg = await whoami({ ...basic(key.key, key.secret), currentidentity: alice.organization.id });
    expect(sameOrg.statusCode).toBe(200);
    const otherOrg = await whoami({ ...basic(key.key, key.secret), currentidentity: bob.organization.id });
    expect(otherOrg.statusCode).toBe(403);
    expect(otherOrg.json().code).toBe('ORGANIZATION_ACCESS_DENIED');

    const asUser = await whoami(alice.headers);
    expect(asUser.json()).toEqual({ organization_id: alice.organization.id, actor: 'user' });

    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.headers });
    expect(list.json().results[0].last_used_at).not.toBeNull();
  });

  it('refuses a wrong secret, an unknown key and a deleted key at once', async () => {
    const alice = await buildMember(t);
    const key = await buildApiKey(t, alice.headers);
    for (const headers of [
      basic(key.key, `${key.secret.slice(0, -1)}x`),
      basic(key.key, ''),
      basic('ck_000000000000000000000000', key.secret),
      basic('not a key', key.secret),
      { authorization: `Basic ${Buffer.from(key.key).toString('base64')}` },
    ]) {
      const response = await whoami(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('AUTH_TOKEN_INVALID');
      expect(response.headers['www-authenticate']).toBe('Basic realm="api"');
    }

    expect((await whoami(basic(key.key, key.secret))).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/integrations/keys/${key.id}`, headers: alice.headers });
    const afterDelete = await whoami(basic(key.key, key.secret));
    expect(afterDelete.statusCode).toBe(401);
    expect(afterDelete.json().code).toBe('AUTH_TOKEN_INVALID');
  });

  it('does not let an API key call user-only endpoints or manage keys', async () => {
    const alice = await buildMember(t);
    const key = await buildApiKey(t, alice.headers);
    const auth = basic(key.key, key.secret);
    const calls = [
      { method: 'GET' as const, url: '/api/users' },
      { method: 'GET' as const, url: '/api/organizations' },
      { method: 'GET' as const, url: '/api/integrations/keys' },
      { method: 'POST' as const, url: '/api/integrations/keys', payload: { name: 'escalated' } },
      { method: 'PUT' as const, url: `/api/integrations/keys/${key.id}`, payload: { name: 'renamed' } },
      { method: 'DELETE' as const, url: `/api/integrations/keys/${key.id}` },
    ];
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers: auth });
      expect([401, 403]).toContain(response.statusCode);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.headers });
    expect(list.json().results).toMatchObject([{ id: key.id, name: 'ERP' }]);
  });

  it('rejects bad input with 400', async () => {
    const alice = await buildMember(t);
    const key = await buildApiKey(t, alice.headers);
    const bad = [
      { method: 'POST' as const, url: '/api/integrations/keys', payload: {} },
      { method: 'POST' as const, url: '/api/integrations/keys', payload: { name: '   ' } },
      { method: 'POST' as const, url: '/api/integrations/keys', payload: { name: 'x'.repeat(101) } },
      { method: 'POST' as const, url: '/api/integrations/keys', payload: { name: 42 } },
      { method: 'POST' as const, url: '/api/integrations/keys', payload: { name: 'ok', secret: 'mine' } },
      { method: 'PUT' as const, url: `/api/integrations/keys/${key.id}`, payload: { name: 'ok', key: 'ck_x' } },
      { method: 'PUT' as const, url: `/api/integrations/keys/${key.id}`, payload: {} },
      { method: 'PUT' as const, url: '/api/integrations/keys/not-a-uuid', payload: { name: 'ok' } },
      { method: 'DELETE' as const, url: '/api/integrations/keys/123' },
      { method: 'GET' as const, url: '/api/integrations/keys?page=0' },
      { method: 'GET' as const, url: '/api/integrations/keys?limit=1000' },
    ];
    for (const call of bad) {
      const response = await t.app.inject({ ...call, headers: alice.headers });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(400);
      expect(response.json().code).toBe('REQUEST_INVALID');
    }
    const missingIdentity = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.auth });
    expect(missingIdentity.statusCode).toBe(400);
    expect(missingIdentity.json().code).toBe('ORGANIZATION_IDENTITY_REQUIRED');
    const signedOut = await t.app.inject({ method: 'GET', url: '/api/integrations/keys' });
    expect(signedOut.statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.headers });
    expect(list.json()).toMatchObject({ total: 1, results: [{ name: 'ERP' }] });
  });

  it('documents the API-key scheme and which endpoints accept it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc.components.securitySchemes.apiKey.description).toContain('curl -u');
    expect(doc.paths['/api/integrations/whoami'].get.security).toContainEqual({ apiKey: [] });
    expect(doc.paths['/api/integrations/keys'].get.security).not.toContainEqual({ apiKey: [] });
  });

  it('creates a key from the admin CLI, printing exactly the key id and the secret', async () => {
    const alice = await buildMember(t);
    const command = adminCommands['api-key create']!;
    const deps = {
      db: t.runtime.ctx.database.db,
      config: t.config,
      secretBox: t.runtime.ctx.secretBox,
      jobs: t.runtime.ctx.jobs,
    };
    const output = await command.run(deps, { org: alice.organization.id, name: 'Nightly import' });
    const lines = output.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^key: ck_[0-9A-Za-z]{24}$/);
    expect(lines[1]).toMatch(/^secret: \S{40,}$/);
    const key = lines[0]!.slice('key: '.length);
    const secret = lines[1]!.slice('secret: '.length);
    const response = await whoami(basic(key, secret));
    expect(response.json()).toEqual({ organization_id: alice.organization.id, actor: 'api_key' });
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: alice.headers });
    expect(list.json().results).toMatchObject([{ key, name: 'Nightly import' }]);

    await expect(command.run(deps, { org: 'nope', name: 'x' })).rejects.toMatchObject({ code: 'REQUEST_INVALID' });
    await expect(command.run(deps, { org: '00000000-0000-4000-8000-000000000000', name: 'x' })).rejects.toMatchObject({
      code: 'ORGANIZATION_NOT_FOUND',
    });
  });
});

describe('per-key rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ env: { API_KEY_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 problem+json once a key has used its allowance, leaving other keys alone', async () => {
    const alice = await buildMember(limited);
    const first = await buildApiKey(limited, alice.headers, 'first');
    const second = await buildApiKey(limited, alice.headers, 'second');
    const call = (key: { key: string; secret: string }) =>
      limited.app.inject({ method: 'GET', url: '/api/integrations/whoami', headers: basic(key.key, key.secret) });
    for (let i = 0; i < 3; i += 1) expect((await call(first)).statusCode).toBe(200);
    const over = await call(first);
    expect(over.statusCode).toBe(429);
    expect(over.headers['content-type']).toContain('application/problem+json');
    expect(over.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(second)).statusCode).toBe(200);
    // Wrong secrets are refused as invalid, not counted against the key's allowance.
    const wrong = await limited.app.inject({
      method: 'GET',
      url: '/api/integrations/whoami',
      headers: basic(second.key, 'cs_wrong'),
    });
    expect(wrong.statusCode).toBe(401);
  });
});

function whoami(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/integrations/whoami', headers });
}
