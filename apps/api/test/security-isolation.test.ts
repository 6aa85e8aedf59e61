import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../src/app.ts';
import { startTestApp, type TestApp } from './harness.ts';
import {
  buildPopulatedOrganization,
  type PopulatedOrganization,
  pathFor,
  publicReason,
  sampleFor,
} from './security-fixtures.ts';

/**
 * Organization isolation, generated from the route table: every route not listed as public (PUBLIC_ROUTES)
 * is called with organization A's real ids by organization B's member, B's API key, and with
 * `CurrentIdentity: A` by both; none may succeed on A's data or show any of A's ids or names.
 * A new route is covered as soon as it is registered (or the test fails naming what it cannot call).
 */

let t: TestApp;
let a: PopulatedOrganization;
let b: PopulatedOrganization;

beforeAll(async () => {
  t = await startTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '100000', API_KEY_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  a = await buildPopulatedOrganization(t, 'Alpha');
  b = await buildPopulatedOrganization(t, 'Bravo');
  // No background job may change A's rows between the snapshots (jobs are still queued, not run).
  await t.runtime.ctx.jobs.stop();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A's rows that no call of another organization may change. */
async function snapshotOfA() {
  const db = t.runtime.ctx.database.db;
  const tables = [
    'credential_schemas',
    'credential_schema_attributes',
    'verifications',
    'verification_individuals',
    'webhooks',
    'trust_anchors',
    'wallet_providers',
    'api_keys',
    'kyb_applications',
    'media',
    'memberships',
    'audit_events',
    'membership_exclusions',
    'organization_invitations',
  ];
  const snapshot: Record<string, unknown> = {};
  for (const table of tables) {
    const where =
      table === 'credential_schema_attributes'
        ? sql`schema_id in (select id from credential_schemas where organization_id = ${a.ids.organization})`
        : sql`organization_id = ${a.ids.organization}`;
    const result = await db.execute(sql`select * from ${sql.identifier(table)} where ${where} order by 1`);
    snapshot[table] = (result as unknown as { rows: unknown[] }).rows;
  }
  const org = await db.execute(
    sql`select id, name, description, logo_media_id, brand_color, verification_status from organizations where id = ${a.ids.organization}`,
  );
  snapshot.organization = (org as unknown as { rows: unknown[] }).rows;
  const credential = await db.execute(
    sql`select id, status, organization_id, deleted_at is null as alive from credentials where id = ${a.ids.credential}`,
  );
  snapshot.credential = (credential as unknown as { rows: unknown[] }).rows;
  return JSON.parse(JSON.stringify(snapshot));
}

describe('organization isolation over the whole route table', () => {
  it('lists every route as either public (with a reason) or checked', () => {
    const routes = routeTable(t.app);
    expect(routes.length).toBeGreaterThan(40);
    const unreachable = routes
      .filter((r) => !publicReason(r))
      .filter((r) => typeof pathFor(a, r.url) !== 'string' || sampleFor(a, r) === null)
      .map((r) => `${r.method} ${r.url}`);
    expect(unreachable, 'routes this test cannot call yet: add their ids/bodies or list them as public').toEqual([]);
  });

  it("refuses every non-public route on another organization's data, for members and API keys alike", async () => {
    // The callers are real: B's key and B's member are accepted for B.
    for (const headers of [b.headers, b.apiKeyAuth]) {
      const whoami = await t.app.inject({ url: '/api/integrations/whoami', headers });
      expect(whoami.statusCode, whoami.body).toBe(200);
      expect(whoami.json().organization_id).toBe(b.ids.organization);
    }
    const before = await snapshotOfA();
    const markers = [...Object.values(a.ids), ...a.names];
    const routes = routeTable(t.app).filter((r) => !publicReason(r));
    const failures: string[] = [];
    const callers = [
      { name: "B's member as B", headers: b.headers, mustRefuseIds: true },
      { name: "B's API key", headers: b.apiKeyAuth, mustRefuseIds: true },
      {
        name: "B's member with CurrentIdentity A",
        headers: { ...b.member.auth, currentidentity: a.ids.organization },
        mustRefuse: true,
      },
      {
        name: "B's API key with CurrentIdentity A",
        headers: { ...b.apiKeyAuth, currentidentity: a.ids.organization },
        mustRefuse: true,
      },
    ];
    for (const route of routes) {
      const url = pathFor(a, route.url) as string;
      const hasIds = url !== route.url;
      const body = sampleFor(a, route) ?? {};
      for (const caller of callers) {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: `${url}${body.query ?? ''}`,
          headers: {
            ...caller.headers,
            ...(body.multipart ? { 'content-type': body.multipart.contentType } : {}),
          },
          ...(body.multipart ? { payload: body.multipart.payload } : {}),
          ...(body.payload !== undefined ? { payload: body.payload as string } : {}),
        });
        const where = `${route.method} ${route.url} as ${caller.name}: ${response.statusCode}`;
        const leaked = markers.filter((m) => response.body.includes(m));
        if (leaked.length > 0) failures.push(`${where} shows ${leaked.join(', ')}`);
        if (response.statusCode >= 500) failures.push(`${where} (server error)`);
        const refused = [401, 403, 404].includes(response.statusCode);
        if ((caller.mustRefuse || (caller.mustRefuseIds && hasIds)) && !refused) {
          failures.push(`${where} was not refused: ${response.body.slice(0, 200)}`);
        }
        if (response.statusCode === 400)
          failures.push(`${where}: the sample request is invalid, fix the test (${response.body.slice(0, 200)})`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshotOfA()).toEqual(before);
  });

  it("lets A's member read A's activity with the query the other callers were refused or shown nothing for", async () => {
    const sample = sampleFor(a, { method: 'GET', url: '/api/audit-events', schema: undefined, config: undefined });
    const response = await t.app.inject({ url: `/api/audit-events${sample?.query ?? ''}`, headers: a.headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().results).toEqual([
      expect.objectContaining({
        action: 'credential.issued',
        target: expect.objectContaining({ id: a.ids.credential }),
      }),
    ]);
    // B's admin sees B's log only; B's API key may not read a log at all (admins only).
    const other = await t.app.inject({ url: `/api/audit-events${sample?.query ?? ''}`, headers: b.headers });
    expect(other.json()).toMatchObject({ results: [], total: 0 });
    const key = await t.app.inject({ url: `/api/audit-events${sample?.query ?? ''}`, headers: b.apiKeyAuth });
    expect(key.statusCode).toBe(401);
  });

  it("lets A's member read each of those objects (the ids above are real)", async () => {
    const routes = routeTable(t.app).filter((r) => !publicReason(r) && r.method === 'GET' && r.url.includes(':'));
    expect(routes.length).toBeGreaterThan(8);
    const failures: string[] = [];
    for (const route of routes) {
      if (route.url.startsWith('/api/kyb-reviews')) continue; // platform administrators only
      const response = await t.app.inject({ method: 'GET', url: pathFor(a, route.url) as string, headers: a.headers });
      if (response.statusCode !== 200)
        failures.push(`${route.url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});
