import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/api-keys/api-keys.service.ts';
import { seedPlatformCredentialSchemas } from '../src/modules/credential-schemas/credential-schemas.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface SchemaBody {
  id: string;
  name: string;
  description: string | null;
  slug: string;
  deleteable: boolean;
  issue_disabled: boolean;
  created: { first_name: string | null; last_name: string | null; username: string | null } | null;
  created_at: string;
  attributes: { id: string; name: string; description: string | null; type: string }[];
}

/** A member of a fresh organization, with the headers the console sends. */
async function buildMember(name = 'Acme') {
  const member = await buildUser(t);
  const organization = await buildOrganization(t, member.user.id, name);
  return { ...member, organization, headers: { ...member.auth, currentidentity: organization.id } };
}

type Member = Awaited<ReturnType<typeof buildMember>>;

const validSchema = (name = 'Membership Card') => ({
  name,
  description: 'Proves membership',
  attributes: [{ name: 'member_id', type: 'TEXT', description: 'Card number' }],
});

async function createSchema(member: Member, payload: unknown = validSchema()) {
  return t.app.inject({ method: 'POST', url: '/api/schemas', headers: member.headers, payload: payload as object });
}

async function listSchemas(member: Member, query = 'page=1&limit=100') {
  const response = await t.app.inject({ method: 'GET', url: `/api/schemas?${query}&t=1`, headers: member.headers });
  expect(response.statusCode).toBe(200);
  return response.json() as { results: SchemaBody[]; total: number; page: number; limit: number };
}

describe('credential schemas', () => {
  it('publishes a schema with one attribute of each type and reads it back', async () => {
    const alice = await buildMember();
    const types = ['TEXT', 'NUMBER', 'BOOLEAN', 'URL', 'DATETIME', 'EMAIL'];
    const created = await createSchema(alice, {
      name: '  Diploma de Ingeniería  ',
      description: 'Every type',
      attributes: types.map((type, i) => ({ name: `field_${i}`, type, ...(i === 0 ? { description: 'first' } : {}) })),
    });
    expect(created.statusCode).toBe(201);
    const body = created.json() as SchemaBody;
    expect(body).toMatchObject({
      name: 'Diploma de Ingeniería',
      description: 'Every type',
      deleteable: true,
      issue_disabled: false,
      created: { first_name: 'Ada', last_name: 'Lovelace', username: alice.user.username },
    });
    expect(body.slug).toMatch(/^diploma-de-ingenieria-[0-9a-f]{8}$/);
    expect(body.attributes.map((a) => [a.name, a.type, a.description])).toEqual(
      types.map((type, i) => [`field_${i}`, type, i === 0 ? 'first' : null]),
    );

    const read = await t.app.inject({ method: 'GET', url: `/api/schemas/${body.id}?t=2`, headers: alice.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
  });

  it("lists the organization's own schemas newest first, then the platform's, with pagination", async () => {
    const alice = await buildMember();
    const first = (await createSchema(alice, validSchema('First'))).json() as SchemaBody;
    const second = (await createSchema(alice, validSchema('Second'))).json() as SchemaBody;

    const all = await listSchemas(alice);
    expect(all.total).toBe(5);
    expect(all.results.map((s) => s.name)).toEqual([
      'Second',
      'First',
      'KYC',
      'Educational Certificate',
      'Work Certificate',
    ]);
    expect(all.results[0]?.id).toBe(second.id);
    expect(all.results[1]?.id).toBe(first.id);

    const kyc = all.results.find((s) => s.name === 'KYC');
    expect(kyc).toMatchObject({ deleteable: false, issue_disabled: true, created: null, slug: 'kyc' });
    expect(kyc?.attributes.map((a) => `${a.name}:${a.type}`)).toEqual([
      'first_name:TEXT',
      'last_name:TEXT',
      'gender:TEXT',
      'id_number:TEXT',
      'date_of_birth:DATETIME',
      'document_type:TEXT',
      'document_number:NUMBER',
      'issued_date:DATETIME',
    ]);
    const education = all.results.find((s) => s.name === 'Educational Certificate');
    expect(education).toMatchObject({ deleteable: false, issue_disabled: false });
    expect(education?.attributes).toHaveLength(10);
    expect(all.results.find((s) => s.name === 'Work Certificate')?.attributes).toHaveLength(9);

    const page2 = await listSchemas(alice, 'page=2&limit=2');
    expect(page2).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(page2.results.map((s) => s.name)).toEqual(['KYC', 'Educational Certificate']);
    const page3 = await listSchemas(alice, 'page=3&limit=2');
    expect(page3.results.map((s) => s.name)).toEqual(['Work Certificate']);
    const beyond = await listSchemas(alice, 'page=9&limit=2');
    expect(beyond).toMatchObject({ total: 5, results: [] });

    const defaults = await t.app.inject({ method: 'GET', url: '/api/schemas', headers: alice.headers });
    expect(defaults.json()).toMatchObject({ page: 1, limit: 10, total: 5 });

    for (const query of ['limit=101', 'limit=0', 'page=0', 'page=abc', 'limit=-1']) {
      const bad = await t.app.inject({ method: 'GET', url: `/api/schemas?${query}`, headers: alice.headers });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().code).toBe('REQUEST_INVALID');
    }
  });

  it('seeds the platform schemas once, however often it runs', async () => {
    expect(await seedPlatformCredentialSchemas(t.runtime.ctx.database.db)).toBe(0);
    await Promise.all([
      seedPlatformCredentialSchemas(t.runtime.ctx.database.db),
      seedPlatformCredentialSchemas(t.runtime.ctx.database.db),
    ]);
    const alice = await buildMember();
    const list = await listSchemas(alice);
    expect(list.results.map((s) => s.name)).toEqual(['KYC', 'Educational Certificate', 'Work Certificate']);
  });

  it("hides another organization's schemas: absent from lists, 404 for get and delete", async () => {
    const alice = await buildMember('Acme');
    const bob = await buildMember('Globex');
    const secret = (await createSchema(alice, validSchema('Acme Secret Badge'))).json() as SchemaBody;

    const bobList = await listSchemas(bob);
    expect(bobList.results.map((s) => s.id)).not.toContain(secret.id);
    expect(JSON.stringify(bobList)).not.toContain('Acme Secret Badge');

    const read = await t.app.inject({ method: 'GET', url: `/api/schemas/${secret.id}`, headers: bob.headers });
    expect(read.statusCode).toBe(404);
    expect(read.headers['content-type']).toContain('application/problem+json');
    expect(read.json()).toMatchObject({ status: 404, code: 'CREDENTIAL_SCHEMA_NOT_FOUND' });
    expect(read.body).not.toContain('Acme Secret Badge');

    const remove = await t.app.inject({ method: 'DELETE', url: `/api/schemas/${secret.id}`, headers: bob.headers });
    expect(remove.statusCode).toBe(404);
    const still = await t.app.inject({ method: 'GET', url: `/api/schemas/${secret.id}`, headers: alice.headers });
    expect(still.statusCode).toBe(200);

    // Naming Acme in CurrentIdentity without being a member is refused outright.
    const spoofed = await t.app.inject({
      method: 'GET',
      url: `/api/schemas/${secret.id}`,
      headers: { ...bob.auth, currentidentity: alice.organization.id },
    });
    expect(spoofed.statusCode).toBe(403);
  });

  it('needs a signed-in user and a CurrentIdentity', async () => {
    const alice = await buildMember();
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/schemas' });
    expect(anonymous.statusCode).toBe(401);
    const noIdentity = await t.app.inject({ method: 'GET', url: '/api/schemas', headers: alice.auth });
    expect(noIdentity.statusCode).toBe(400);
    expect(noIdentity.json().code).toBe('ORGANIZATION_IDENTITY_REQUIRED');
    const noIdentityPost = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers: alice.auth,
      payload: validSchema(),
    });
    expect(noIdentityPost.statusCode).toBe(400);
  });

  it("accepts the organization's API key: lists, creates (creator null), reads and deletes", async () => {
    const alice = await buildMember('Acme');
    const bob = await buildMember('Globex');
    const { row, secret } = await createApiKey(
      t.runtime.ctx.database.db,
      { organizationId: alice.organization.id, userId: alice.user.id, actor: { kind: 'user', userId: alice.user.id } },
      { name: 'ERP' },
    );
    const headers = { authorization: `Basic ${Buffer.from(`${row.keyId}:${secret}`).toString('base64')}` };

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers,
      payload: validSchema('Via key'),
    });
    expect(created.statusCode).toBe(201);
    const body = created.json() as SchemaBody;
    expect(body.created).toBeNull();
    expect(body.deleteable).toBe(true);
    const read = await t.app.inject({ method: 'GET', url: `/api/schemas/${body.id}`, headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);

    const aliceList = await listSchemas(alice);
    expect(aliceList.results.map((s) => s.id)).toContain(body.id);
    expect((await listSchemas(bob)).results.map((s) => s.id)).not.toContain(body.id);
    const list = await t.app.inject({ method: 'GET', url: '/api/schemas', headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(4);

    const bobSchema = (await createSchema(bob, validSchema('Globex only'))).json() as SchemaBody;
    const foreign = await t.app.inject({ method: 'GET', url: `/api/schemas/${bobSchema.id}`, headers });
    expect(foreign.statusCode).toBe(404);
    const spoofed = await t.app.inject({
      method: 'GET',
      url: '/api/schemas',
      headers: { ...headers, currentidentity: bob.organization.id },
    });
    expect(spoofed.statusCode).toBe(403);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/schemas/${body.id}`, headers });
    expect(removed.statusCode).toBe(204);
    const wrongSecret = await t.app.inject({
      method: 'GET',
      url: '/api/schemas',
      headers: { authorization: `Basic ${Buffer.from(`${row.keyId}:nope`).toString('base64')}` },
    });
    expect(wrongSecret.statusCode).toBe(401);
  });

  it('refuses to delete platform schemas', async () => {
    const alice = await buildMember();
    const platform = (await listSchemas(alice)).results.filter((s) => !s.deleteable);
    expect(platform).toHaveLength(3);
    for (const schema of platform) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/schemas/${schema.id}`,
        headers: alice.headers,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('CREDENTIAL_SCHEMA_NOT_DELETEABLE');
    }
    expect((await listSchemas(alice)).total).toBe(3);
  });

  it('deletes an own schema: gone from the list and from reads, the row kept for issued credentials', async () => {
    const alice = await buildMember();
    const keep = (await createSchema(alice, validSchema('Keep'))).json() as SchemaBody;
    const gone = (await createSchema(alice, validSchema('Gone'))).json() as SchemaBody;

    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/schemas/${gone.id}?t=3`,
      headers: alice.headers,
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    const list = await listSchemas(alice);
    expect(list.total).toBe(4);
    expect(list.results.map((s) => s.id)).toContain(keep.id);
    expect(list.results.map((s) => s.id)).not.toContain(gone.id);
    const read = await t.app.inject({ method: 'GET', url: `/api/schemas/${gone.id}`, headers: alice.headers });
    expect(read.statusCode).toBe(404);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/schemas/${gone.id}`, headers: alice.headers });
    expect(again.statusCode).toBe(404);

    const { getCredentialSchema } = await import('../src/modules/credential-schemas/credential-schemas.service.ts');
    const kept = await getCredentialSchema(t.runtime.ctx.database.db, {
      organizationId: alice.organization.id,
      id: gone.id,
      includeDeleted: true,
    });
    expect(kept.schema.deletedAt).not.toBeNull();
    expect(kept.attributes.map((a) => a.name)).toEqual(['member_id']);
  });

  it('refuses duplicate, invalid and reserved attribute names', async () => {
    const alice = await buildMember();
    const cases: [string, unknown[]][] = [
      [
        'duplicate',
        [
          { name: 'email', type: 'EMAIL' },
          { name: 'email', type: 'TEXT' },
        ],
      ],
      [
        'duplicate ignoring case',
        [
          { name: 'Email', type: 'EMAIL' },
          { name: 'email', type: 'TEXT' },
        ],
      ],
      ['leading digit', [{ name: '1st', type: 'TEXT' }]],
      ['space', [{ name: 'first name', type: 'TEXT' }]],
      ['dash', [{ name: 'first-name', type: 'TEXT' }]],
      ['dot', [{ name: 'a.b', type: 'TEXT' }]],
      ['empty', [{ name: '', type: 'TEXT' }]],
      ['too long', [{ name: `a${'b'.repeat(64)}`, type: 'TEXT' }]],
      ['non-ascii', [{ name: 'nombre_año', type: 'TEXT' }]],
      ...['iss', 'sub', 'iat', 'exp', 'nbf', 'cnf', 'vct', 'status', '_sd', '_sd_alg', 'jti', 'aud', 'ISS'].map(
        (name): [string, unknown[]] => [`reserved ${name}`, [{ name, type: 'TEXT' }]],
      ),
    ];
    for (const [label, attributes] of cases) {
      const response = await createSchema(alice, { name: 'Bad', attributes });
      expect(response.statusCode, label).toBe(400);
      expect(response.json().code, label).toBe('REQUEST_INVALID');
      expect(response.json().errors?.[0]?.path, label).toMatch(/^body\.attributes\.\d+/);
    }
    const longest = await createSchema(alice, {
      name: 'Ok',
      attributes: [{ name: `a${'b'.repeat(63)}`, type: 'TEXT' }],
    });
    expect(longest.statusCode).toBe(201);
    expect((await listSchemas(alice)).results.map((s) => s.name)).not.toContain('Bad');
  });

  it('refuses bad input with a clear 4xx, never a 500', async () => {
    const alice = await buildMember();
    const attribute = { name: 'a', type: 'TEXT' };
    const bodies: [string, unknown][] = [
      ['missing name', { attributes: [attribute] }],
      ['blank name', { name: '   ', attributes: [attribute] }],
      ['missing attributes', { name: 'X' }],
      ['no attributes', { name: 'X', attributes: [] }],
      [
        '51 attributes',
        { name: 'X', attributes: Array.from({ length: 51 }, (_, i) => ({ name: `a${i}`, type: 'TEXT' })) },
      ],
      ['name too long', { name: 'x'.repeat(121), attributes: [attribute] }],
      ['description too long', { name: 'X', description: 'd'.repeat(1001), attributes: [attribute] }],
      ['attribute description too long', { name: 'X', attributes: [{ ...attribute, description: 'd'.repeat(501) }] }],
      ['unknown type', { name: 'X', attributes: [{ name: 'a', type: 'DATE' }] }],
      ['lowercase type', { name: 'X', attributes: [{ name: 'a', type: 'text' }] }],
      ['missing type', { name: 'X', attributes: [{ name: 'a' }] }],
      ['name not a string', { name: 42, attributes: [attribute] }],
      ['attributes not an array', { name: 'X', attributes: { a: 'TEXT' } }],
      ['unknown field', { name: 'X', attributes: [attribute], issue_disabled: true }],
      ['unknown attribute field', { name: 'X', attributes: [{ ...attribute, required: true }] }],
      ['array body', [attribute]],
    ];
    for (const [label, payload] of bodies) {
      const response = await createSchema(alice, payload);
      expect(response.statusCode, label).toBe(400);
      expect(response.json().code, label).toBe('REQUEST_INVALID');
    }
    const edges = await createSchema(alice, {
      name: 'x'.repeat(120),
      description: 'd'.repeat(1000),
      attributes: Array.from({ length: 50 }, (_, i) => ({ name: `a${i}`, type: 'TEXT', description: 'd'.repeat(500) })),
    });
    expect(edges.statusCode).toBe(201);

    const malformedJson = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformedJson.statusCode).toBe(400);

    for (const method of ['GET', 'DELETE'] as const) {
      for (const id of ['not-a-uuid', '123', "1' or '1'='1", 'x'.repeat(150)]) {
        const response = await t.app.inject({
          method,
          url: `/api/schemas/${encodeURIComponent(id)}`,
          headers: alice.headers,
        });
        expect(response.statusCode, `${method} ${id}`).toBe(400);
        expect(response.json().code).toBe('REQUEST_INVALID');
      }
      const missing = await t.app.inject({
        method,
        url: '/api/schemas/00000000-0000-4000-8000-000000000000',
        headers: alice.headers,
      });
      expect(missing.statusCode).toBe(404);
    }
  });

  it('offers no way to edit a published schema', async () => {
    const alice = await buildMember();
    const schema = (await createSchema(alice)).json() as SchemaBody;
    for (const method of ['PUT', 'PATCH'] as const) {
      const response = await t.app.inject({
        method,
        url: `/api/schemas/${schema.id}`,
        headers: alice.headers,
        payload: { name: 'Changed' },
      });
      expect(response.statusCode).toBe(404);
    }
    const read = await t.app.inject({ method: 'GET', url: `/api/schemas/${schema.id}`, headers: alice.headers });
    expect(read.json().name).toBe('Membership Card');
  });
});
