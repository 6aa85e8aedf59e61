import { schema } from '@cp/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as organizationsService from '../src/modules/organizations/organizations.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;
type User = Awaited<ReturnType<typeof buildUser>>;

/** An organization with its creator (admin) and the given others, joined through the member table directly. */
async function team(name: string, others: ('admin' | 'member')[] = ['member']) {
  const admin = await buildUser(t, { firstName: `${name}Admin` });
  const organization = await buildOrganization(t, admin.user.id, name);
  const people: User[] = [];
  for (const role of others) {
    const person = await buildUser(t);
    await organizationsService.insertMembership(db(), {
      organizationId: organization.id,
      userId: person.user.id,
      source: 'local',
      role,
    });
    people.push(person);
  }
  const as = (user: User) => ({ ...user.auth, currentidentity: organization.id });
  return { organization, admin, people, as };
}

const membersUrl = (organizationId: string, userId?: string) =>
  `/api/organizations/${organizationId}/members${userId ? `/${userId}` : ''}`;

async function roleOf(organizationId: string, userId: string) {
  const [row] = await db()
    .select({ role: schema.memberships.role })
    .from(schema.memberships)
    .where(and(eq(schema.memberships.organizationId, organizationId), eq(schema.memberships.userId, userId)));
  return row?.role ?? null;
}

describe('the member list', () => {
  it('lists members with their names, e-mail, role, source and join date, admins first, page by page', async () => {
    const { organization, admin, people, as } = await team('Listing', ['member', 'member', 'admin']);
    const response = await t.app.inject({
      url: `${membersUrl(organization.id)}?page=1&limit=2`,
      headers: as(people[0]!),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ total: 4, page: 1, limit: 2 });
    expect(body.results).toHaveLength(2);
    expect(body.results.map((m: { role: string }) => m.role)).toEqual(['admin', 'admin']);
    expect(body.results[0]).toEqual({
      user_id: admin.user.id,
      first_name: 'ListingAdmin',
      last_name: 'Lovelace',
      email: admin.user.email,
      role: 'admin',
      source: 'local',
      joined_at: expect.any(String),
    });
    const next = await t.app.inject({ url: `${membersUrl(organization.id)}?page=2&limit=2`, headers: as(admin) });
    expect(next.json().results.map((m: { role: string }) => m.role)).toEqual(['member', 'member']);
  });

  it('answers 404 to a non-member and to a CurrentIdentity naming another organization', async () => {
    const { organization, as } = await team('Private');
    const other = await team('Elsewhere');
    const outsider = await t.app.inject({ url: membersUrl(organization.id), headers: other.admin.auth });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.body).not.toContain('PrivateAdmin');
    const mixed = await t.app.inject({ url: membersUrl(organization.id), headers: other.as(other.admin) });
    expect(mixed.statusCode).toBe(404);
    // A member of both still cannot read one organization's team while acting for the other.
    const both = await buildUser(t);
    await organizationsService.insertMembership(db(), {
      organizationId: other.organization.id,
      userId: both.user.id,
      source: 'local',
      role: 'admin',
    });
    await organizationsService.insertMembership(db(), {
      organizationId: organization.id,
      userId: both.user.id,
      source: 'local',
      role: 'member',
    });
    const crossed = await t.app.inject({
      url: membersUrl(organization.id),
      headers: { ...both.auth, currentidentity: other.organization.id },
    });
    expect(crossed.statusCode).toBe(404);
    expect((await t.app.inject({ url: membersUrl(organization.id), headers: as(both) })).statusCode).toBe(200);
  });

  it("carries the user's role in each organization of GET organizations and GET organizations/{id}", async () => {
    const first = await team('RoleOne');
    const member = first.people[0]!;
    const second = await buildOrganization(t, member.user.id, 'RoleTwo');
    const list = await t.app.inject({ url: '/api/organizations', headers: member.auth });
    expect(list.json().results.map((o: { name: string; role: string }) => [o.name, o.role])).toEqual([
      ['RoleOne', 'member'],
      ['RoleTwo', 'admin'],
    ]);
    const one = await t.app.inject({ url: `/api/organizations/${second.id}`, headers: member.auth });
    expect(one.json().role).toBe('admin');
  });
});

describe('changing roles', () => {
  it('lets an admin promote a member, who can then do what admins do', async () => {
    const { organization, admin, people, as } = await team('Promote');
    const member = people[0]!;
    const before = await t.app.inject({ url: '/api/integrations/keys', headers: as(member) });
    expect(before.statusCode).toBe(403);
    expect(before.json().code).toBe('ORGANIZATION_ROLE_FORBIDDEN');
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: membersUrl(organization.id, member.user.id),
      headers: as(admin),
      payload: { role: 'admin' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ user_id: member.user.id, role: 'admin' });
    expect((await t.app.inject({ url: '/api/integrations/keys', headers: as(member) })).statusCode).toBe(200);
  });

  it('refuses members (403) and unknown people (404), and bad roles (400), changing nothing', async () => {
    const { organization, admin, people, as } = await team('Refuse', ['member', 'member']);
    const [member, other] = people as [User, User];
    const bySelf = await t.app.inject({
      method: 'PATCH',
      url: membersUrl(organization.id, member.user.id),
      headers: as(member),
      payload: { role: 'admin' },
    });
    expect(bySelf.statusCode).toBe(403);
    expect(bySelf.json().code).toBe('ORGANIZATION_ROLE_FORBIDDEN');
    const stranger = await buildUser(t);
    const unknown = await t.app.inject({
      method: 'PATCH',
      url: membersUrl(organization.id, stranger.user.id),
      headers: as(admin),
      payload: { role: 'admin' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('MEMBER_NOT_FOUND');
    for (const payload of [{ role: 'owner' }, { role: 'admin', extra: 1 }, {}]) {
      const bad = await t.app.inject({
        method: 'PATCH',
        url: membersUrl(organization.id, other.user.id),
        headers: as(admin),
        payload,
      });
      expect(bad.statusCode).toBe(400);
    }
    const malformed = await t.app.inject({
      method: 'PATCH',
      url: membersUrl(organization.id, 'not-a-uuid'),
      headers: as(admin),
      payload: { role: 'admin' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(await roleOf(organization.id, member.user.id)).toBe('member');
    expect(await roleOf(organization.id, other.user.id)).toBe('member');
    expect(await roleOf(organization.id, stranger.user.id)).toBeNull();
  });

  it('never demotes the last admin (409 ORGANIZATION_LAST_ADMIN), but lets one of two step down', async () => {
    const { organization, admin, people, as } = await team('LastAdmin', ['admin']);
    const second = people[0]!;
    const stepDown = await t.app.inject({
      method: 'PATCH',
      url: membersUrl(organization.id, second.user.id),
      headers: as(second),
      payload: { role: 'member' },
    });
    expect(stepDown.statusCode).toBe(200);
    const last = await t.app.inject({
      method: 'PATCH',
      url: membersUrl(organization.id, admin.user.id),
      headers: as(admin),
      payload: { role: 'member' },
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'ORGANIZATION_LAST_ADMIN', status: 409 });
    expect(await roleOf(organization.id, admin.user.id)).toBe('admin');
  });

  it('leaves exactly one admin when two admins demote each other at the same moment', async () => {
    // Several organizations at once, so that the demotions really interleave (on PostgreSQL, in separate
    // connections; the lock on the organization row is what keeps one admin).
    const teams = await Promise.all(['Race1', 'Race2', 'Race3', 'Race4'].map((name) => team(name, ['admin'])));
    const results = await Promise.all(
      teams.flatMap(({ organization, admin, people, as }) => {
        const other = people[0]!;
        return [
          t.app.inject({
            method: 'PATCH',
            url: membersUrl(organization.id, other.user.id),
            headers: as(admin),
            payload: { role: 'member' },
          }),
          t.app.inject({
            method: 'PATCH',
            url: membersUrl(organization.id, admin.user.id),
            headers: as(other),
            payload: { role: 'member' },
          }),
        ];
      }),
    );
    for (const [i, { organization }] of teams.entries()) {
      const pair = [results[2 * i]!, results[2 * i + 1]!];
      const statuses = pair.map((r) => r.statusCode).sort();
      // The second either lost the race (409) or, having been demoted first, lost its rights (403).
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const admins = await db()
        .select()
        .from(schema.memberships)
        .where(and(eq(schema.memberships.organizationId, organization.id), eq(schema.memberships.role, 'admin')));
      expect(admins).toHaveLength(1);
    }
  });

  it('leaves exactly one admin when two admins remove each other at the same moment', async () => {
    const teams = await Promise.all(['Remove1', 'Remove2', 'Remove3'].map((name) => team(name, ['admin'])));
    await Promise.all(
      teams.flatMap(({ organization, admin, people, as }) => [
        t.app.inject({ method: 'DELETE', url: membersUrl(organization.id, people[0]!.user.id), headers: as(admin) }),
        t.app.inject({ method: 'DELETE', url: membersUrl(organization.id, admin.user.id), headers: as(people[0]!) }),
      ]),
    );
    for (const { organization } of teams) {
      const rows = await db()
        .select()
        .from(schema.memberships)
        .where(eq(schema.memberships.organizationId, organization.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.role).toBe('admin');
    }
  });
});

describe('removing members and leaving', () => {
  it('lets an admin remove a member, whose session loses the organization at once', async () => {
    const { organization, admin, people, as } = await team('Remove');
    const member = people[0]!;
    expect((await t.app.inject({ url: '/api/schemas', headers: as(member) })).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: membersUrl(organization.id, member.user.id),
      headers: as(admin),
    });
    expect(removed.statusCode).toBe(204);
    const after = await t.app.inject({ url: '/api/schemas', headers: as(member) });
    expect(after.statusCode).toBe(403);
    expect(after.json().code).toBe('ORGANIZATION_ACCESS_DENIED');
    const list = await t.app.inject({ url: '/api/organizations', headers: member.auth });
    expect(list.json().results).toEqual([]);
    const again = await t.app.inject({
      method: 'DELETE',
      url: membersUrl(organization.id, member.user.id),
      headers: as(admin),
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a member removing someone else (403), but lets them leave', async () => {
    const { organization, admin, people, as } = await team('Leave', ['member', 'member']);
    const [member, other] = people as [User, User];
    const removeOther = await t.app.inject({
      method: 'DELETE',
      url: membersUrl(organization.id, other.user.id),
      headers: as(member),
    });
    expect(removeOther.statusCode).toBe(403);
    expect(removeOther.json().code).toBe('ORGANIZATION_ROLE_FORBIDDEN');
    const removeAdmin = await t.app.inject({
      method: 'DELETE',
      url: membersUrl(organization.id, admin.user.id),
      headers: as(member),
    });
    expect(removeAdmin.statusCode).toBe(403);
    expect(await roleOf(organization.id, other.user.id)).toBe('member');
    expect(await roleOf(organization.id, admin.user.id)).toBe('admin');
    const leave = await t.app.inject({
      method: 'DELETE',
      url: membersUrl(organization.id, member.user.id),
      headers: as(member),
    });
    expect(leave.statusCode).toBe(204);
    expect(await roleOf(organization.id, member.user.id)).toBeNull();
  });

  it('keeps the last admin: it can neither leave nor be removed (409)', async () => {
    const { organization, admin, as } = await team('Keep');
    const leave = await t.app.inject({
      method: 'DELETE',
      url: membersUrl(organization.id, admin.user.id),
      headers: as(admin),
    });
    expect(leave.statusCode).toBe(409);
    expect(leave.json().code).toBe('ORGANIZATION_LAST_ADMIN');
    expect(leave.json().detail).toContain('You are the last admin');
    expect(await roleOf(organization.id, admin.user.id)).toBe('admin');
  });
});

describe('members from the identity provider', () => {
  const issuer = 'https://issuer.test';
  const claim = (id: string) => [{ id, name: `Provider ${id}`, description: '' }];

  it('makes the first member admin and later ones members', async () => {
    const first = await buildUser(t);
    const second = await buildUser(t);
    await organizationsService.syncProviderOrganizations(db(), first.user.id, issuer, claim('prov-roles'));
    await organizationsService.syncProviderOrganizations(db(), second.user.id, issuer, claim('prov-roles'));
    const roles = (await t.app.inject({ url: '/api/organizations', headers: second.auth })).json().results;
    expect(roles).toEqual([expect.objectContaining({ name: 'Provider prov-roles', role: 'member' })]);
    const firstRoles = (await t.app.inject({ url: '/api/organizations', headers: first.auth })).json().results;
    expect(firstRoles[0].role).toBe('admin');
  });

  it('does not bring back a removed member at the next sign-in; an invitation does', async () => {
    const admin = await buildUser(t);
    const member = await buildUser(t, { email: 'provider-member@example.com' });
    await organizationsService.syncProviderOrganizations(db(), admin.user.id, issuer, claim('prov-exclusion'));
    await organizationsService.syncProviderOrganizations(db(), member.user.id, issuer, claim('prov-exclusion'));
    const organizationId = (await t.app.inject({ url: '/api/organizations', headers: admin.auth })).json().results[0]
      .id as string;
    const headers = { ...admin.auth, currentidentity: organizationId };
    const members = (await t.app.inject({ url: membersUrl(organizationId), headers })).json().results;
    expect(members.find((m: { user_id: string }) => m.user_id === member.user.id)).toMatchObject({
      source: 'provider',
      role: 'member',
    });
    const removed = await t.app.inject({ method: 'DELETE', url: membersUrl(organizationId, member.user.id), headers });
    expect(removed.statusCode).toBe(204);
    const exclusions = await db()
      .select()
      .from(schema.membershipExclusions)
      .where(eq(schema.membershipExclusions.userId, member.user.id));
    expect(exclusions).toHaveLength(1);

    // The provider still names the organization in the person's claim: they stay out.
    await organizationsService.syncProviderOrganizations(db(), member.user.id, issuer, claim('prov-exclusion'));
    expect(await roleOf(organizationId, member.user.id)).toBeNull();

    // Invited again, they join (locally) and the removal is lifted.
    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${organizationId}/invitations`,
      headers,
      payload: { email: 'Provider-Member@example.com', role: 'member' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = (invited.json().url as string).split('/').pop();
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      headers: member.auth,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await roleOf(organizationId, member.user.id)).toBe('member');
    expect(
      await db()
        .select()
        .from(schema.membershipExclusions)
        .where(eq(schema.membershipExclusions.userId, member.user.id)),
    ).toHaveLength(0);
    // The next sign-in neither removes nor duplicates the membership.
    await organizationsService.syncProviderOrganizations(db(), member.user.id, issuer, []);
    expect(await roleOf(organizationId, member.user.id)).toBe('member');
  });

  it("keeps an organization's last admin when the provider stops naming the organization", async () => {
    const admin = await buildUser(t);
    const member = await buildUser(t);
    await organizationsService.syncProviderOrganizations(db(), admin.user.id, issuer, claim('prov-last'));
    await organizationsService.syncProviderOrganizations(db(), member.user.id, issuer, claim('prov-last'));
    const organizationId = (await t.app.inject({ url: '/api/organizations', headers: admin.auth })).json().results[0]
      .id as string;
    await organizationsService.syncProviderOrganizations(db(), member.user.id, issuer, []);
    await organizationsService.syncProviderOrganizations(db(), admin.user.id, issuer, []);
    expect(await roleOf(organizationId, member.user.id)).toBeNull();
    expect(await roleOf(organizationId, admin.user.id)).toBe('admin');
  });
});
