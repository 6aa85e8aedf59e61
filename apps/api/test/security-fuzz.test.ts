import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RegisteredRoute, routeTable } from '../src/app.ts';
import { startTestApp, type TestApp } from './harness.ts';
import {
  buildPopulatedOrganization,
  multipart,
  type PopulatedOrganization,
  pathFor,
  sampleFor,
} from './security-fixtures.ts';

/**
 * Property-based fuzzing from the zod contracts: every route with a zod body gets arbitrary JSON, broken
 * JSON and mutations of a valid body; every GET route with a zod querystring gets arbitrary query strings.
 * No answer may be a 5xx, every refusal is problem+json, and a refused request stores nothing.
 */

const RUNS = 40;
/** The tables a request could write to; a refused request must leave all of them as they were. */
const TABLES = [
  'users',
  'organizations',
  'memberships',
  'credential_schemas',
  'credential_schema_attributes',
  'credentials',
  'credential_offers',
  'credential_imports',
  'verifications',
  'verification_individuals',
  'webhooks',
  'api_keys',
  'kyb_applications',
  'media',
  'auth_sessions',
  'refresh_tokens',
];

let t: TestApp;
let org: PopulatedOrganization;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000000',
      RATE_LIMIT_HOLDER_PER_MINUTE: '1000000',
      RATE_LIMIT_ISSUER_PER_MINUTE: '1000000',
      RATE_LIMIT_VERIFIER_PER_MINUTE: '1000000',
    },
  });
  org = await buildPopulatedOrganization(t, 'Fuzz');
  // Background jobs (mail deliveries, imports) started by accepted requests would write rows at any moment;
  // with the workers stopped, jobs are still queued but the row counts only move with the requests.
  await t.runtime.ctx.jobs.stop();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function rowCounts(): Promise<Record<string, number>> {
  const columns = sql.join(
    TABLES.map((table) => sql`(select count(*) from ${sql.identifier(table)})::int as ${sql.identifier(table)}`),
    sql`, `,
  );
  const result = (await t.runtime.ctx.database.db.execute(sql`select ${columns}`)) as unknown as {
    rows: Record<string, number>[];
  };
  return result.rows[0]!;
}

const isZod = (value: unknown): value is { safeParse: (v: unknown) => { success: boolean } } =>
  typeof (value as { safeParse?: unknown } | undefined)?.safeParse === 'function';

/** Valid starting points for the public JSON routes (the member's routes take theirs from the fixtures). */
function validBody(route: RegisteredRoute): unknown {
  const key = `${route.method} ${route.url}`;
  const extra: Record<string, unknown> = {
    'POST /api/verifications/individuals': { verification_id: org.ids.verification },
    'POST /api/auth/refresh': { refresh_token: 'not-a-token' },
    'POST /api/auth/logout': { refresh_token: 'not-a-token' },
    'POST /api/errors': { message: 'boom' },
    'POST /api/admin/run': { command: 'help', args: {} },
  };
  if (key in extra) return extra[key];
  return sampleFor(org, route)?.payload ?? {};
}

/** Every path of a JSON value, so a mutation can hit nested fields too. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

function mutate(base: unknown, path: (string | number)[], action: 'set' | 'delete' | 'extra', replacement: unknown) {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  if (path.length === 0) return action === 'delete' ? undefined : replacement;
  let parent: Record<string | number, unknown> = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (action === 'delete') delete parent[last];
  else if (action === 'extra' && typeof parent === 'object') parent[`${String(last)}_extra`] = replacement;
  else parent[last] = replacement;
  return copy;
}

/** Arbitrary bodies: the valid body itself, any JSON, text that is not JSON, and mutations of the valid body. */
function bodies(valid: unknown): fc.Arbitrary<{ raw: string }> {
  const paths = pathsOf(valid);
  return fc.oneof(
    fc.constant({ raw: JSON.stringify(valid) ?? '' }),
    fc.jsonValue({ maxDepth: 3 }).map((v) => ({ raw: JSON.stringify(v) ?? 'null' })),
    fc.string({ maxLength: 80 }).map((raw) => ({ raw })),
    fc
      .tuple(
        fc.constantFrom(...paths),
        fc.constantFrom('set' as const, 'delete' as const, 'extra' as const),
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.string({ maxLength: 300 }),
          fc.constantFrom(
            '',
            ' ',
            '\u0000',
            '../../etc/passwd',
            "' or 1=1 --",
            '<script>x</script>',
            -1,
            1e308,
            2 ** 53,
          ),
          fc.uuid(),
        ),
      )
      .map(([path, action, replacement]) => ({ raw: JSON.stringify(mutate(valid, path, action, replacement)) ?? '' })),
  );
}

let failures: string[] = [];

function check(route: string, response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  if (response.statusCode >= 500) failures.push(`${route}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  if (response.statusCode >= 400 && !String(response.headers['content-type']).startsWith('application/problem+json')) {
    failures.push(`${route}: ${response.statusCode} is not problem+json (${response.headers['content-type']})`);
  }
}

describe('fuzzing requests from the zod contracts', () => {
  beforeEach(() => {
    failures = [];
  });
  const routes = () =>
    routeTable(t.app).filter((r) => !r.url.startsWith('/api/docs') && r.method !== 'HEAD' && r.method !== 'OPTIONS');

  it('answers arbitrary JSON bodies with a 4xx problem (never a 5xx) and stores nothing it refused', async () => {
    // The protocol endpoints outside /api answer OAuth errors instead of problem+json: fuzzed below.
    const targets = routes().filter((r) => isZod(r.schema?.body) && r.url.startsWith('/api/'));
    expect(targets.length).toBeGreaterThan(20);
    const accepted = new Set<string>();
    for (const route of targets) {
      const url = pathFor(org, route.url);
      expect(typeof url, `no fixture id for ${route.url}`).toBe('string');
      const name = `${route.method} ${route.url}`;
      await fc.assert(
        fc.asyncProperty(bodies(validBody(route)), async ({ raw }) => {
          const before = await rowCounts();
          const response = await t.app.inject({
            method: route.method as 'POST',
            url: url as string,
            // Sign-in calls go without the member's session (a logout would end it for the next routes).
            headers: { ...(route.url.startsWith('/api/auth') ? {} : org.headers), 'content-type': 'application/json' },
            payload: raw,
          });
          check(`${name} with ${raw.slice(0, 120)}`, response);
          if (response.statusCode < 300) accepted.add(name);
          if (response.statusCode >= 400) {
            const after = await rowCounts();
            const changed = TABLES.filter((table) => after[table] !== before[table]);
            if (changed.length > 0) {
              failures.push(`${name} refused ${raw.slice(0, 120)} (${response.statusCode}) but wrote to ${changed}`);
            }
          }
        }),
        { numRuns: RUNS },
      );
    }
    expect(failures).toEqual([]);
    // The mutations start from valid bodies: many routes accepted some of them (the handlers were reached).
    expect(accepted.size).toBeGreaterThan(8);
  });

  it('answers arbitrary query strings on every GET route with a 4xx problem or a page, never a 5xx', async () => {
    const targets = routes().filter((r) => r.method === 'GET' && r.url.startsWith('/api/'));
    const keysOf = (route: RegisteredRoute) => {
      const shape = (route.schema?.querystring as { shape?: Record<string, unknown> } | undefined)?.shape;
      return shape ? Object.keys(shape) : ['page'];
    };
    for (const route of targets) {
      const url = pathFor(org, route.url);
      if (typeof url !== 'string') continue;
      const query = fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...keysOf(route)), fc.string({ maxLength: 12 })),
          fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.integer().map(String),
            fc.double().map(String),
            fc.constantFrom('', '-1', '0', '1e9', 'NaN', 'true', '[]', '%', '\u0000', 'a\u0000b', org.ids.schema),
          ),
        ),
        { maxLength: 4 },
      );
      await fc.assert(
        fc.asyncProperty(query, async (pairs) => {
          const search = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
          const response = await t.app.inject({ method: 'GET', url: `${url}?${search}`, headers: org.headers });
          check(`GET ${route.url}?${search}`, response);
        }),
        { numRuns: 20 },
      );
    }
    expect(failures).toEqual([]);
  });

  it('refuses NUL characters (which PostgreSQL text cannot hold) and deep nesting with a 400, not a 500', async () => {
    const before = await rowCounts();
    const cases = [
      {
        method: 'POST' as const,
        url: '/api/webhooks',
        payload: { url: 'https://x.example/h', description: 'a\u0000b', events: ['credential.claimed'] },
      },
      { method: 'PUT' as const, url: `/api/webhooks/${org.ids.webhook}`, payload: { description: '\u0000' } },
      {
        method: 'POST' as const,
        url: '/api/schemas',
        payload: { name: 'N\u0000', attributes: [{ name: 'x', type: 'TEXT' }] },
      },
      { method: 'PUT' as const, url: '/api/users', payload: { job_title: '\u0000' } },
      { method: 'GET' as const, url: '/api/credentials?filter.search=%00' },
      { method: 'GET' as const, url: `/api/verifications/${org.ids.verification}/individuals/a%00b` },
    ];
    for (const c of cases) {
      const response = await t.app.inject({ ...c, headers: org.headers });
      expect(response.statusCode, `${c.method} ${c.url}: ${response.body}`).toBe(400);
      expect(response.json().code).toBe('REQUEST_INVALID');
    }
    for (const field of ['name', 'description']) {
      const form = multipart([
        { name: 'schema_id', value: org.ids.schema },
        { name: field, value: 'a\u0000b' },
        {
          name: 'file',
          value: 'recipient_first_name,recipient_last_name,recipient_email,full_name,age\nA,B,c@example.com,D,1\n',
          filename: 'r.csv',
          type: 'text/csv',
        },
      ]);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/credentials/import',
        headers: { ...org.headers, 'content-type': form.contentType },
        payload: form.payload,
      });
      expect(response.statusCode, `import ${field}: ${response.body}`).toBe(400);
    }
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: deep,
    });
    expect(nested.statusCode).toBe(400);
    expect(await rowCounts()).toEqual(before);
  });

  it('answers arbitrary bodies on the issuer and verifier endpoints with an OAuth error, never a server error', async () => {
    const endpoints = [
      `/orgs/${org.ids.organization}/token`,
      `/orgs/${org.ids.organization}/nonce`,
      `/orgs/${org.ids.organization}/credential`,
      `/oid4vp/responses/${org.ids.attempt}`,
      `/oid4vp/requests/${org.ids.attempt}`,
    ];
    const problems: string[] = [];
    for (const endpoint of endpoints) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.jsonValue({ maxDepth: 3 }).map((v) => ({ type: 'application/json', raw: JSON.stringify(v) ?? 'null' })),
            fc
              .dictionary(
                fc.constantFrom('grant_type', 'pre-authorized_code', 'tx_code', 'response', 'vp_token', 'state', 'x'),
                fc.string({ maxLength: 60 }),
              )
              .map((form) => ({
                type: 'application/x-www-form-urlencoded',
                raw: new URLSearchParams(form).toString(),
              })),
          ),
          fc.option(fc.stringMatching(/^[\w.~+/-]{1,60}$/), { nil: undefined }),
          async ({ type, raw }, token) => {
            const response = await t.app.inject({
              method: 'POST',
              url: endpoint,
              headers: { 'content-type': type, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
              payload: raw,
            });
            if (response.statusCode >= 500) problems.push(`${endpoint} ${raw.slice(0, 100)}: ${response.body}`);
            // Refusals are OAuth errors (RFC 6749 §5.2): JSON with a string `error`, never problem+json.
            if (response.statusCode >= 400) {
              const body = response.headers['content-type']?.toString().startsWith('application/json')
                ? (response.json() as { error?: unknown })
                : undefined;
              if (typeof body?.error !== 'string') {
                problems.push(`${endpoint} ${raw.slice(0, 100)}: not an OAuth error: ${response.body.slice(0, 200)}`);
              }
            }
          },
        ),
        { numRuns: RUNS },
      );
    }
    expect(problems).toEqual([]);
  });
});
