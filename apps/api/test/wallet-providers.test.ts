import { randomUUID } from 'node:crypto';
import { makeCertificate } from '@cp/credentials/testing';
import { schema } from '@cp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';

/**
 * Trusted wallet providers (`/api/wallet-providers`), addressed like trust anchors: the caller's organization.
 * An admin adds and removes them; a member, an API key or another organization can neither read nor change
 * them; what is not a usable certificate is refused with WALLET_PROVIDER_INVALID.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function buildAdmin(name: string) {
  const admin = await buildUser(t);
  const organization = await buildOrganization(t, admin.user.id, name);
  return { organization, headers: { ...admin.auth, currentidentity: organization.id } };
}

async function buildMemberOf(organizationId: string) {
  const member = await buildUser(t);
  await t.runtime.ctx.database.db
    .insert(schema.memberships)
    .values({ organizationId, userId: member.user.id, role: 'member' });
  return { ...member.auth, currentidentity: organizationId };
}

const list = (headers: Record<string, string>) => t.app.inject({ url: '/api/wallet-providers', headers });
const create = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/wallet-providers', headers, payload: payload as object });
const remove = (headers: Record<string, string>, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/wallet-providers/${id}`, headers });

describe('wallet providers', () => {
  it('lets an admin trust a provider CA, list it and remove it, recording both in the activity log', async () => {
    const acme = await buildAdmin('Providers Acme');
    const ca = await makeCertificate({ subject: 'CN=Wallet Provider CA', ca: true });
    const created = await create(acme.headers, { name: 'Example Wallet', certificate_pem: ca.pem });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Example Wallet',
      kind: 'CA',
      subject: 'CN=Wallet Provider CA',
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const listed = await list(acme.headers);
    expect(listed.json()).toMatchObject({ total: 1, results: [{ id: created.json().id }] });
    expect((await remove(acme.headers, created.json().id)).statusCode).toBe(204);
    expect((await list(acme.headers)).json()).toEqual({ results: [], total: 0 });
    const events = await t.app.inject({
      url: '/api/audit-events?filter.action=trust_anchors.*',
      headers: acme.headers,
    });
    expect(events.json().results.map((e: { action: string }) => e.action)).toEqual([
      'wallet_provider.deleted',
      'wallet_provider.created',
    ]);
  });

  it("accepts a provider's attestation signing certificate itself (kind SIGNING)", async () => {
    const acme = await buildAdmin('Providers Signing');
    const signing = await makeCertificate({ subject: 'CN=Wallet Attestation Signer' });
    const created = await create(acme.headers, { name: 'Pinned', certificate_pem: signing.pem });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().kind).toBe('SIGNING');
  });

  it('refuses the same certificate twice (409 WALLET_PROVIDER_DUPLICATE)', async () => {
    const acme = await buildAdmin('Providers Duplicate');
    const ca = await makeCertificate({ subject: 'CN=Twice CA', ca: true });
    expect((await create(acme.headers, { name: 'One', certificate_pem: ca.pem })).statusCode).toBe(201);
    const again = await create(acme.headers, { name: 'Two', certificate_pem: ca.pem });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('WALLET_PROVIDER_DUPLICATE');
  });

  it('refuses what is not a certificate, an expired one, a CA that may not sign certificates, a leaf that may not sign', async () => {
    const acme = await buildAdmin('Providers Invalid');
    const expired = await makeCertificate({
      subject: 'CN=Expired CA',
      ca: true,
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const noCertSign = await makeCertificate({ subject: 'CN=No CertSign CA', ca: true, keyUsage: 1 << 1 });
    const noSigning = await makeCertificate({ subject: 'CN=No digitalSignature', keyUsage: 1 << 5 });
    const garbage = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    for (const pem of [garbage, expired.pem, noCertSign.pem, noSigning.pem]) {
      const answer = await create(acme.headers, { name: 'Bad', certificate_pem: pem });
      expect(answer.statusCode, answer.body).toBe(422);
      expect(answer.json().code).toBe('WALLET_PROVIDER_INVALID');
    }
    expect((await list(acme.headers)).json().total).toBe(0);
  });

  it('refuses malformed and oversized bodies with a clear 400', async () => {
    const acme = await buildAdmin('Providers Malformed');
    const ca = await makeCertificate({ subject: 'CN=Body CA', ca: true });
    for (const payload of [
      { name: '', certificate_pem: ca.pem },
      { name: 'x', certificate_pem: 'not a pem' },
      { name: 'x', certificate_pem: `${ca.pem}\n${'A'.repeat(25_000)}` },
      { name: 'x'.repeat(200), certificate_pem: ca.pem },
      { name: 'x', certificate_pem: ca.pem, extra: true },
    ]) {
      const answer = await create(acme.headers, payload);
      expect(answer.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    expect((await remove(acme.headers, 'not-a-uuid')).statusCode).toBe(400);
  });

  it("neither lists nor deletes another organization's provider (404)", async () => {
    const acme = await buildAdmin('Providers Owner');
    const intruder = await buildAdmin('Providers Intruder');
    const ca = await makeCertificate({ subject: 'CN=Owner CA', ca: true });
    const created = (await create(acme.headers, { name: 'Owner wallet', certificate_pem: ca.pem })).json();
    expect((await list(intruder.headers)).json()).toEqual({ results: [], total: 0 });
    const removed = await remove(intruder.headers, created.id);
    expect(removed.statusCode).toBe(404);
    expect(removed.json().code).toBe('WALLET_PROVIDER_NOT_FOUND');
    expect((await remove(acme.headers, randomUUID())).statusCode).toBe(404);
    // The intruder may trust the same certificate for itself: it is scoped, not global.
    expect((await create(intruder.headers, { name: 'Mine too', certificate_pem: ca.pem })).statusCode).toBe(201);
    expect((await list(acme.headers)).json().total).toBe(1);
  });

  it('refuses a member (403 ORGANIZATION_ROLE_FORBIDDEN) on every route, changing nothing', async () => {
    const acme = await buildAdmin('Providers Roles');
    const member = await buildMemberOf(acme.organization.id);
    const ca = await makeCertificate({ subject: 'CN=Roles CA', ca: true });
    const created = (await create(acme.headers, { name: 'Kept', certificate_pem: ca.pem })).json();
    const other = await makeCertificate({ subject: 'CN=Member CA', ca: true });
    for (const answer of [
      await list(member),
      await create(member, { name: 'Member adds', certificate_pem: other.pem }),
      await remove(member, created.id),
    ]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json().code).toBe('ORGANIZATION_ROLE_FORBIDDEN');
    }
    expect((await list(acme.headers)).json()).toMatchObject({ total: 1, results: [{ id: created.id }] });
  });

  it('documents the routes in the OpenAPI description', async () => {
    const spec = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/wallet-providers', '/api/wallet-providers/{id}']),
    );
  });
});
