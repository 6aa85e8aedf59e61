import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredRoute, routeTable } from '../src/app.ts';
import { startTestApp, type TestApp } from './harness.ts';
import {
  buildPopulatedOrganization,
  multipart,
  type PopulatedOrganization,
  pathFor,
  publicReason,
  type Sample,
  sampleFor,
} from './security-fixtures.ts';

/**
 * Roles, generated from the route table like the isolation test: every route that is not public is called by a
 * member of the SAME organization (role `member`) and by the organization's API key (member rights). On the admin
 * routes below both are refused (403 ORGANIZATION_ROLE_FORBIDDEN, or 401 where API keys are not accepted at all)
 * and nothing changes; on every other route the member is let through. A new route is member-level for this test
 * unless listed here, and must declare its role (`config: { role }`): an undeclared organization route is
 * admin-only at run time, so forgetting either fails here.
 */
const ADMIN_ROUTES: { match: (method: string, url: string) => boolean; reason: string }[] = [
  { match: (m, u) => m === 'PUT' && u === '/api/organizations/:id', reason: 'the organization profile' },
  {
    match: (m, u) => m === 'PUT' && u === '/api/organizations/:id/issuer-policy',
    reason: 'the issuer policy (what wallets must prove)',
  },
  { match: (_, u) => u.startsWith('/api/organizations/:id/invitations'), reason: 'invitations' },
  { match: (m, u) => m === 'PATCH' && u === '/api/organizations/:id/members/:userId', reason: 'changing roles' },
  {
    match: (m, u) => m === 'DELETE' && u === '/api/organizations/:id/members/:userId',
    reason: 'removing someone else (the fixture targets the admin; leaving oneself is tested below)',
  },
  { match: (_, u) => u.startsWith('/api/integrations/keys'), reason: 'API keys' },
  { match: (_, u) => u.startsWith('/api/webhooks'), reason: 'webhooks' },
  { match: (_, u) => u.startsWith('/api/trust-anchors'), reason: 'trust anchors and trusted lists' },
  { match: (_, u) => u.startsWith('/api/wallet-providers'), reason: 'trusted wallet providers' },
  { match: (m, u) => m === 'POST' && u === '/api/kyb/:orgId', reason: 'applying for KYB' },
  {
    match: (m, u) => m === 'POST' && u === '/api/media/upload',
    reason: 'KYB documents and logos (the fixture uploads a KYB document; avatars are tested below)',
  },
  { match: (_, u) => u === '/api/verifications/:id/link-secret', reason: 'a verification link secret' },
  { match: (_, u) => u === '/api/audit-events', reason: "the activity log (who did what, with members' names)" },
];

/**
 * Member routes that still refuse this particular caller for a reason other than the role, with the reason (the
 * answer must then not be ORGANIZATION_ROLE_FORBIDDEN either).
 */
const REFUSED_FOR_OTHER_REASONS: Record<string, { status: number; code: string; reason: string }> = {
  'GET /api/kyb-reviews': { status: 403, code: 'KYB_REVIEW_FORBIDDEN', reason: 'platform administrators only' },
  'POST /api/kyb-reviews/:id/approve': { status: 403, code: 'KYB_REVIEW_FORBIDDEN', reason: 'platform administrators' },
  'POST /api/kyb-reviews/:id/reject': { status: 403, code: 'KYB_REVIEW_FORBIDDEN', reason: 'platform administrators' },
  'POST /api/invitations/:token/accept': {
    status: 403,
    code: 'INVITATION_EMAIL_MISMATCH',
    reason: 'only the invited address may accept',
  },
};

const isAdminRoute = (route: RegisteredRoute) => ADMIN_ROUTES.some((r) => r.match(route.method, route.url));

let t: TestApp;
let a: PopulatedOrganization;

beforeAll(async () => {
  t = await startTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '100000', API_KEY_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  a = await buildPopulatedOrganization(t, 'Alpha');
  await t.runtime.ctx.jobs.stop();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const checkedRoutes = () => routeTable(t.app).filter((r) => !publicReason(r));

async function call(route: RegisteredRoute, headers: Record<string, string>, override?: Sample, path?: string) {
  const body: Sample = override ?? sampleFor(a, route) ?? {};
  return t.app.inject({
    method: route.method as 'GET',
    url: `${path ?? (pathFor(a, route.url) as string)}${body.query ?? ''}`,
    headers: { ...headers, ...(body.multipart ? { 'content-type': body.multipart.contentType } : {}) },
    ...(body.multipart ? { payload: body.multipart.payload } : {}),
    ...(body.payload !== undefined ? { payload: body.payload as string } : {}),
  });
}

/** The organization's rows that an admin route refused to a member must leave as they were. */
async function snapshot() {
  const db = t.runtime.ctx.database.db;
  const id = a.ids.organization;
  const rows = async (query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as { rows: unknown[] };
  const tables = [
    'memberships',
    'membership_exclusions',
    'organization_invitations',
    'api_keys',
    'webhooks',
    'trust_anchors',
    'wallet_providers',
    'kyb_applications',
    'media',
  ];
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    out[table] = (
      await rows(sql`select * from ${sql.identifier(table)} where organization_id = ${id} order by 1`)
    ).rows;
  }
  out.organization = (await rows(sql`select * from organizations where id = ${id}`)).rows;
  out.linkSecrets = (
    await rows(sql`select id, link_secret_ciphertext from verifications where organization_id = ${id} order by 1`)
  ).rows;
  return JSON.parse(JSON.stringify(out));
}

describe('roles over the whole route table', () => {
  it('has every non-public route declare its role (config.role), and knows the admin routes it lists', () => {
    const undeclared = checkedRoutes()
      .filter((r) => !['admin', 'member', 'user'].includes(String(r.config?.role)))
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared, 'routes without config.role: decide admin, member or user').toEqual([]);
    for (const rule of ADMIN_ROUTES) {
      expect(
        checkedRoutes().some((r) => rule.match(r.method, r.url)),
        `no route for ${rule.reason}`,
      ).toBe(true);
    }
  });

  it('refuses a member and the API key on every admin route (403 ORGANIZATION_ROLE_FORBIDDEN), changing nothing', async () => {
    // The callers are real members of A: the member reads A's profile, the key answers whoami for A.
    const profile = await t.app.inject({
      url: `/api/organizations/${a.ids.organization}`,
      headers: a.colleague.headers,
    });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().role).toBe('member');
    const whoami = await t.app.inject({ url: '/api/integrations/whoami', headers: a.apiKeyAuth });
    expect(whoami.json().organization_id).toBe(a.ids.organization);

    const before = await snapshot();
    const routes = checkedRoutes().filter(isAdminRoute);
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of routes) {
      const asMember = await call(route, a.colleague.headers);
      const where = `${route.method} ${route.url}`;
      if (asMember.statusCode !== 403 || asMember.json().code !== 'ORGANIZATION_ROLE_FORBIDDEN') {
        failures.push(`${where} as a member: ${asMember.statusCode} ${asMember.body.slice(0, 160)}`);
      }
      const asKey = await call(route, a.apiKeyAuth);
      const keyRefused =
        asKey.statusCode === 401 || (asKey.statusCode === 403 && asKey.json().code === 'ORGANIZATION_ROLE_FORBIDDEN');
      if (!keyRefused) failures.push(`${where} as the API key: ${asKey.statusCode} ${asKey.body.slice(0, 160)}`);
      for (const secret of Object.values(a.secrets)) {
        if (asMember.body.includes(secret) || asKey.body.includes(secret)) failures.push(`${where} shows a secret`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('lets a member call every other route (reads first, then changes, deletions last)', async () => {
    const order = (r: RegisteredRoute) => (r.method === 'GET' ? 0 : r.method === 'DELETE' ? 2 : 1);
    const routes = checkedRoutes()
      .filter((r) => !isAdminRoute(r))
      .sort((x, y) => order(x) - order(y));
    expect(routes.length).toBeGreaterThan(25);
    // The two deletion routes of credentials get a credential each (the fixture's is deleted by the first).
    const another = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/with-recipient',
      headers: a.colleague.headers,
      payload: {
        credential: { name: 'Second', schema_id: a.ids.schema, claims: { full_name: 'Second', age: '2' } },
        recipient: { email: 'second@example.com', first_name: 'Sec', last_name: 'Ond' },
      },
    });
    expect(another.statusCode, another.body).toBe(201);
    // Resending needs a credential not e-mailed in the last minute (the fixture's was, by its Send).
    const unsent = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/with-recipient',
      headers: a.colleague.headers,
      payload: {
        credential: { name: 'Third', schema_id: a.ids.schema, claims: { full_name: 'Third', age: '3' } },
        recipient: { email: 'third@example.com', first_name: 'Thi', last_name: 'Rd' },
      },
    });
    expect(unsent.statusCode, unsent.body).toBe(201);
    const overrides: Record<string, Sample> = {
      'POST /api/credentials/delete': { payload: { credentials: [another.json().id] } },
      'POST /api/credentials/:id/resend': { payload: { locale: 'en' } },
    };
    const paths: Record<string, string> = {
      'POST /api/credentials/:id/resend': `/api/credentials/${unsent.json().id}/resend`,
    };
    const failures: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const response = await call(route, a.colleague.headers, overrides[key], paths[key]);
      const expected = REFUSED_FOR_OTHER_REASONS[key];
      const code = response.statusCode >= 400 ? response.json().code : null;
      if (expected) {
        if (response.statusCode !== expected.status || code !== expected.code) {
          failures.push(`${key}: ${response.statusCode} ${response.body.slice(0, 160)} (expected ${expected.code})`);
        }
      } else if (response.statusCode >= 400) {
        failures.push(`${key}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets a member upload an avatar but not a logo', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = (purpose: string) => {
      const form = multipart([
        { name: 'purpose', value: purpose },
        { name: 'file', value: png, filename: 'me.png', type: 'image/png' },
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/media/upload',
        headers: { ...a.colleague.headers, 'content-type': form.contentType },
        payload: form.payload,
      });
    };
    expect((await upload('avatar')).statusCode).toBe(201);
    const logo = await upload('logo');
    expect(logo.statusCode).toBe(403);
    expect(logo.json().code).toBe('ORGANIZATION_ROLE_FORBIDDEN');
  });
});
