import { schema } from '@cp/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as organizationsService from '../src/modules/organizations/organizations.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';

/**
 * The issuer policy (HAIP 1.0) of an organization: what its OpenID4VCI issuer demands of wallets. Members read it,
 * admins change it, nobody else sees it; wallet attestation cannot be required before it is checked.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;
const policyUrl = (organizationId: string) => `/api/organizations/${organizationId}/issuer-policy`;

async function team(name: string) {
  const admin = await buildUser(t);
  const organization = await buildOrganization(t, admin.user.id, name);
  const member = await buildUser(t);
  await organizationsService.insertMembership(db(), {
    organizationId: organization.id,
    userId: member.user.id,
    source: 'local',
    role: 'member',
  });
  return { organization, admin, member };
}

const put = (organizationId: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: policyUrl(organizationId), headers, payload: payload as object });

const policyEvents = (organizationId: string) =>
  db()
    .select()
    .from(schema.auditEvents)
    .where(
      and(
        eq(schema.auditEvents.organizationId, organizationId),
        eq(schema.auditEvents.action, 'organization.issuer_policy_changed'),
      ),
    );

describe('the issuer policy', () => {
  it('requires nothing by default, and every member reads it', async () => {
    const { organization, member } = await team('Default Policy');
    const response = await t.app.inject({ url: policyUrl(organization.id), headers: member.auth });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ dpop_required: false, wallet_attestation_required: false, updated_at: null });
  });

  it('is changed by an admin, once in the activity log per real change', async () => {
    const { organization, admin, member } = await team('Changing Policy');
    const on = await put(organization.id, admin.auth, { dpop_required: true, wallet_attestation_required: false });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ dpop_required: true, wallet_attestation_required: false });
    expect(Date.parse(on.json().updated_at)).not.toBeNaN();
    const read = await t.app.inject({ url: policyUrl(organization.id), headers: member.auth });
    expect(read.json()).toMatchObject({ dpop_required: true });
    // The same policy again changes nothing and records nothing.
    expect(
      (await put(organization.id, admin.auth, { dpop_required: true, wallet_attestation_required: false })).statusCode,
    ).toBe(200);
    const events = await policyEvents(organization.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorType: 'USER',
      actorUserId: admin.user.id,
      targetType: 'organization',
      targetId: organization.id,
      details: { dpop_required: true, wallet_attestation_required: false },
    });
  });

  it('refuses a member who tries to change it (403), and nothing changes', async () => {
    const { organization, member } = await team('Member Policy');
    const response = await put(organization.id, member.auth, {
      dpop_required: true,
      wallet_attestation_required: false,
    });
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().code).toBe('ORGANIZATION_ROLE_FORBIDDEN');
    const read = await t.app.inject({ url: policyUrl(organization.id), headers: member.auth });
    expect(read.json().dpop_required).toBe(false);
    expect(await policyEvents(organization.id)).toHaveLength(0);
  });

  it("cannot be read or changed by another organization's admin (404, as for an unknown organization)", async () => {
    const victim = await team('Victim Policy');
    const attacker = await team('Attacker Policy');
    const read = await t.app.inject({ url: policyUrl(victim.organization.id), headers: attacker.admin.auth });
    expect(read.statusCode, read.body).toBe(404);
    expect(read.json().code).toBe('ORGANIZATION_NOT_FOUND');
    // Acting for their own organization (CurrentIdentity) while naming the victim's in the path changes nothing.
    for (const headers of [
      attacker.admin.auth,
      { ...attacker.admin.auth, currentidentity: attacker.organization.id },
    ]) {
      const write = await put(victim.organization.id, headers, {
        dpop_required: true,
        wallet_attestation_required: false,
      });
      expect(write.statusCode, write.body).toBe(404);
    }
    const after = await t.app.inject({ url: policyUrl(victim.organization.id), headers: victim.admin.auth });
    expect(after.json()).toMatchObject({ dpop_required: false, updated_at: null });
    expect(await policyEvents(victim.organization.id)).toHaveLength(0);
  });

  it('lets an admin require wallet attestation, recorded in the activity log', async () => {
    const { organization, admin } = await team('Attestation Policy');
    const response = await put(organization.id, admin.auth, { dpop_required: true, wallet_attestation_required: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ dpop_required: true, wallet_attestation_required: true });
    const read = await t.app.inject({ url: policyUrl(organization.id), headers: admin.auth });
    expect(read.json()).toMatchObject({ dpop_required: true, wallet_attestation_required: true });
    const events = await policyEvents(organization.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.details).toEqual({ dpop_required: true, wallet_attestation_required: true });
  });

  it('refuses malformed bodies and ids with a clear 400', async () => {
    const { organization, admin } = await team('Malformed Policy');
    for (const payload of [
      {},
      { dpop_required: 'yes', wallet_attestation_required: false },
      { dpop_required: true },
      { dpop_required: true, wallet_attestation_required: false, extra: 1 },
    ]) {
      const response = await put(organization.id, admin.auth, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('REQUEST_INVALID');
    }
    const badId = await t.app.inject({ url: policyUrl('not-a-uuid'), headers: admin.auth });
    expect(badId.statusCode).toBe(400);
  });
});
