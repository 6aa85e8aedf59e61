import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('organizations', () => {
  it('lists only the organizations the user belongs to', async () => {
    const alice = await buildUser(t);
    const bob = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id, 'Acme');
    await buildOrganization(t, bob.user.id, 'Globex');
    const response = await t.app.inject({ method: 'GET', url: '/api/organizations?t=1', headers: alice.auth });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.results.map((o: { id: string }) => o.id)).toEqual([acme.id]);
    expect(body.results[0]).toMatchObject({ name: 'Acme', verified: false, verification_status: 'UNDEFINED' });
  });

  it("answers 404 for another organization's profile and refuses to change it", async () => {
    const alice = await buildUser(t);
    const bob = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id, 'Acme');
    const globex = await buildOrganization(t, bob.user.id, 'Globex');

    const read = await t.app.inject({ method: 'GET', url: `/api/organizations/${acme.id}`, headers: bob.auth });
    expect(read.statusCode).toBe(404);
    expect(read.headers['content-type']).toContain('application/problem+json');
    expect(read.json()).toMatchObject({ status: 404, code: 'ORGANIZATION_NOT_FOUND' });
    expect(read.body).not.toContain('Acme');

    const write = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${acme.id}`,
      headers: { ...bob.auth, currentidentity: globex.id },
      payload: { name: 'Hijacked' },
    });
    expect(write.statusCode).toBe(404);
    const still = await t.app.inject({ method: 'GET', url: `/api/organizations/${acme.id}`, headers: alice.auth });
    expect(still.json().name).toBe('Acme');
  });

  it('refuses a CurrentIdentity of an organization the user is not in', async () => {
    const alice = await buildUser(t);
    const bob = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id, 'Acme');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { ...bob.auth, currentidentity: acme.id },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('ORGANIZATION_ACCESS_DENIED');
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { ...bob.auth, currentidentity: 'not-an-id' },
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('lets a member update the profile, validating the input', async () => {
    const alice = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id, 'Acme');
    const headers = { ...alice.auth, currentidentity: acme.id };
    const ok = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${acme.id}`,
      headers,
      payload: { name: 'Acme Corp', description: 'We issue diplomas.' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Acme Corp', description: 'We issue diplomas.' });

    const tooLong = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${acme.id}`,
      headers,
      payload: { description: 'x'.repeat(161) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors[0].path).toBe('body.description');

    const unknownField = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${acme.id}`,
      headers,
      payload: { name: 'X', verified: true },
    });
    expect(unknownField.statusCode).toBe(400);
  });

  it('creates a console organization with the creator as member', async () => {
    const carol = await buildUser(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/organizations',
      headers: carol.auth,
      payload: { name: 'Initech', description: 'Reports' },
    });
    expect(created.statusCode).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: '/api/organizations', headers: carol.auth });
    expect(list.json().results.map((o: { name: string }) => o.name)).toEqual(['Initech']);
  });

  it('answers 4xx problem+json for malformed ids, wrong types and oversize bodies', async () => {
    const alice = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/organizations/123', headers: alice.auth });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('REQUEST_INVALID');
    const wrongType = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${acme.id}`,
      headers: alice.auth,
      payload: { name: 42 },
    });
    expect(wrongType.statusCode).toBe(400);
    const badJson = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${acme.id}`,
      headers: { ...alice.auth, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.headers['content-type']).toContain('application/problem+json');
    const huge = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${acme.id}`,
      headers: { ...alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('REQUEST_BODY_TOO_LARGE');
  });
});
