/**
 * POST /api/credentials/{id}/resend: one more e-mail of the claim link (sequence = previous + 1), sent exactly
 * once by the delivery job in the sender's language; refused for claimed, revoked and deleted credentials;
 * at most one per credential per minute; an offer that can no longer be redeemed is replaced and withdrawn.
 */
import { schema } from '@cp/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as deliveriesService from '../src/modules/credentials/credential-deliveries.service.ts';
import { CREDENTIAL_DELIVERY_QUEUE } from '../src/modules/credentials/credential-deliveries.worker.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { basicAuth } from './security-fixtures.ts';
import { mailsTo, waitForMails } from './support/mailbox.ts';
import { jobsSettled } from './support/wait.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;
const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

const verifiedOrganization = (name: string) =>
  buildVerifiedOrganization(t, name, { name: 'Membership', attributes: [{ name: 'level', type: 'TEXT' }] });

async function createCredential(headers: Record<string, string>, schemaId: string, email: string, extra = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: { name: 'Gold membership', schema_id: schemaId, claims: { level: 'gold' } },
      recipient: { email, first_name: 'Rita', last_name: 'Recipient' },
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; tx_code?: string };
}

const resend = (id: string, headers: Record<string, string>, body?: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/credentials/${id}/resend`,
    headers,
    ...(body ? { payload: body } : {}),
  });

const deliveriesOf = (credentialId: string) =>
  db()
    .select()
    .from(schema.credentialDeliveries)
    .where(eq(schema.credentialDeliveries.credentialId, credentialId))
    .orderBy(schema.credentialDeliveries.sequence);

/** The credential's deliveries become older than the resend interval. */
const ageDeliveries = (credentialId: string, seconds = 61) =>
  db()
    .update(schema.credentialDeliveries)
    .set({ createdAt: new Date(Date.now() - seconds * 1000) })
    .where(eq(schema.credentialDeliveries.credentialId, credentialId));

/** The offer behind the holder page, as a wallet fetches it by reference. */
async function currentOffer(credentialId: string) {
  const page = (await t.app.inject({ url: `/api/credentials/${credentialId}/connect` })).json() as {
    status: string;
    connection_url: string | null;
  };
  if (!page.connection_url) return { page, offerId: null, code: null };
  const uri = new URL(decodeURIComponent(page.connection_url.split('credential_offer_uri=')[1]!));
  const offer = (await t.app.inject({ url: uri.pathname })).json();
  return {
    page,
    offerId: uri.pathname.split('/').pop()!,
    code: offer.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string,
  };
}

const token = (organizationId: string, code: string, extra: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/orgs/${organizationId}/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code, ...extra }).toString(),
  });

describe('resending the claim e-mail', () => {
  it('queues sequence previous + 1, sent exactly once, in the sender language, with the first message', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Resend Club');
    const email = 'rita@resend-club.example';
    const credential = await createCredential(headers, schemaRecord.schema.id, email);
    const notify = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/notify/via-schema',
      headers,
      payload: {
        schema_id: schemaRecord.schema.id,
        credential_ids: [credential.id],
        message: 'Welcome to the club!',
        locale: 'en',
      },
    });
    expect(notify.json()).toEqual({ queued: 1 });
    await waitForMails(t, email, { count: 1, queue: CREDENTIAL_DELIVERY_QUEUE });
    await ageDeliveries(credential.id);

    // No body: the language comes from Accept-Language (the console's user reads Japanese).
    const response = await resend(credential.id, { ...headers, 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.5' });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ sequence: 2, status: 'QUEUED', locale: 'ja', sent_at: null });

    const mails = await waitForMails(t, email, { count: 2, queue: CREDENTIAL_DELIVERY_QUEUE });
    // Every delivery job sent so far has finished: a duplicate would have sent its mail by now.
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    expect(await mailsTo(t, email)).toHaveLength(2);
    const japanese = mails.find((m) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(m.subject ?? ''));
    expect(japanese, 'the resent e-mail is in Japanese').toBeTruthy();
    expect(japanese!.text).toContain('Welcome to the club!');
    expect(japanese!.text).toContain(`${t.config.publicUrl}/connect/credential/${credential.id}`);

    const stored = await deliveriesOf(credential.id);
    expect(stored.map((d) => [d.sequence, d.status, d.locale, d.message])).toEqual([
      [1, 'SENT', 'en', 'Welcome to the club!'],
      [2, 'SENT', 'ja', 'Welcome to the club!'],
    ]);
    // The job running again (a retry, another worker) sends nothing more.
    expect(await deliveriesService.deliver(t.runtime.ctx.deps.deliver, stored[1]!.id)).toBe('skipped');
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    expect(await mailsTo(t, email)).toHaveLength(2);

    // The history, the latest first; a locale in the body wins over Accept-Language.
    const history = await t.app.inject({ url: `/api/credentials/${credential.id}/deliveries`, headers });
    expect(history.statusCode).toBe(200);
    expect(history.json().results.map((d: { sequence: number; status: string }) => [d.sequence, d.status])).toEqual([
      [2, 'SENT'],
      [1, 'SENT'],
    ]);
    expect(history.json().results[0].sent_at).toEqual(expect.any(String));
    await ageDeliveries(credential.id);
    const korean = await resend(credential.id, { ...headers, 'accept-language': 'ja' }, { locale: 'ko' });
    expect(korean.json()).toMatchObject({ sequence: 3, locale: 'ko' });
    await waitForMails(t, email, { count: 3, queue: CREDENTIAL_DELIVERY_QUEUE });
  });

  it('sends a never e-mailed credential its first e-mail (sequence 1), which notify via schema then skips', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('First Mail');
    const email = 'first@first-mail.example';
    const credential = await createCredential(headers, schemaRecord.schema.id, email);
    const response = await resend(credential.id, headers, {});
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ sequence: 1, locale: 'en' });
    await waitForMails(t, email, { count: 1, queue: CREDENTIAL_DELIVERY_QUEUE });
    const log = await t.app.inject({
      url: `/api/audit-events?filter.action=credential.resent&filter.target_id=${credential.id}`,
      headers,
    });
    expect(log.json().results).toEqual([
      expect.objectContaining({ action: 'credential.resent', actor: expect.objectContaining({ type: 'USER' }) }),
    ]);
    const notify = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/notify/via-schema',
      headers,
      payload: { schema_id: schemaRecord.schema.id, credential_ids: [credential.id] },
    });
    expect(notify.json()).toEqual({ queued: 0 });
    const after = (await t.app.inject({ url: `/api/credentials/${credential.id}`, headers })).json();
    expect(after).toMatchObject({ status: 'ISSUED', emailed_at: expect.any(String) });
  });

  it('allows one resend per credential per minute: 429 with Retry-After, even for requests racing', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Too Soon');
    const credential = await createCredential(headers, schemaRecord.schema.id, 'soon@too-soon.example');
    const other = await createCredential(headers, schemaRecord.schema.id, 'other@too-soon.example');
    expect((await resend(credential.id, headers)).statusCode).toBe(202);

    const again = await resend(credential.id, headers);
    expect(again.statusCode).toBe(429);
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect(again.json().code).toBe('CREDENTIAL_RESEND_TOO_SOON');
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await deliveriesOf(credential.id)).toHaveLength(1);
    // The limit is per credential: another one can be resent at once.
    expect((await resend(other.id, headers)).statusCode).toBe(202);

    // 40 seconds later, 20 seconds to wait.
    await ageDeliveries(credential.id, 40);
    const later = await resend(credential.id, headers);
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBeGreaterThanOrEqual(19);
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(21);

    // A minute later, five at once: exactly one is queued.
    await ageDeliveries(credential.id);
    const racing = await Promise.all(Array.from({ length: 5 }, () => resend(credential.id, headers)));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([202, 429, 429, 429, 429]);
    expect((await deliveriesOf(credential.id)).map((d) => d.sequence)).toEqual([1, 2]);
  });

  it('refuses claimed, revoked and deleted credentials, and those of another organization, writing nothing', async () => {
    const acme = await verifiedOrganization('Refuse Club');
    const rival = await verifiedOrganization('Rival Club');
    const schemaId = acme.schemaRecord.schema.id;
    const claimed = await createCredential(acme.headers, schemaId, 'claimed@refuse.example');
    await db()
      .update(schema.credentials)
      .set({ status: 'CLAIMED', claimedAt: new Date() })
      .where(eq(schema.credentials.id, claimed.id));
    const revoked = await createCredential(acme.headers, schemaId, 'revoked@refuse.example');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: acme.headers,
      payload: { credentials: [revoked.id] },
    });
    const deleted = await createCredential(acme.headers, schemaId, 'deleted@refuse.example');
    await t.app.inject({ method: 'DELETE', url: `/api/credentials/${deleted.id}`, headers: acme.headers });
    const open = await createCredential(acme.headers, schemaId, 'open@refuse.example');

    const cases: [string, Record<string, string>, number, string][] = [
      [claimed.id, acme.headers, 409, 'CREDENTIAL_ALREADY_CLAIMED'],
      [revoked.id, acme.headers, 409, 'CREDENTIAL_ALREADY_REVOKED'],
      [deleted.id, acme.headers, 404, 'CREDENTIAL_NOT_FOUND'],
      [open.id, rival.headers, 404, 'CREDENTIAL_NOT_FOUND'],
      ['00000000-0000-4000-8000-000000000000', acme.headers, 404, 'CREDENTIAL_NOT_FOUND'],
    ];
    for (const [id, headers, status, code] of cases) {
      const response = await resend(id, headers);
      expect({ id, status: response.statusCode, code: response.json().code }).toEqual({ id, status, code });
    }
    expect((await resend('not-a-uuid', acme.headers)).statusCode).toBe(400);
    expect((await resend(open.id, acme.headers, { locale: 'fr' })).statusCode).toBe(400);
    expect((await resend(open.id, acme.headers, { locale: 'en', extra: 1 })).statusCode).toBe(400);
    // The rival's history of that credential is not found either.
    const history = await t.app.inject({ url: `/api/credentials/${open.id}/deliveries`, headers: rival.headers });
    expect(history.statusCode).toBe(404);
    for (const { id } of [claimed, revoked, deleted, open]) expect(await deliveriesOf(id)).toEqual([]);

    // The organization's own API key may resend.
    const key = (
      await t.app.inject({
        method: 'POST',
        url: '/api/integrations/keys',
        headers: acme.headers,
        payload: { name: 'CRM' },
      })
    ).json();
    const viaKey = await resend(open.id, { authorization: basicAuth(key.key, key.secret) });
    expect(viaKey.statusCode, viaKey.body).toBe(202);
  });

  it('replaces an expired offer: the new e-mail link works, the old offer is refused at the token endpoint', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Expired Offer');
    const email = 'late@expired.example';
    const credential = await createCredential(headers, schemaRecord.schema.id, email);
    const first = await currentOffer(credential.id);
    expect(first.page.status).toBe('ISSUED');
    // A week later: the offer has expired, the credential shows EXPIRED and the holder page has no link.
    await db()
      .update(schema.credentialOffers)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(schema.credentialOffers.credentialId, credential.id));
    expect((await t.app.inject({ url: `/api/credentials/${credential.id}`, headers })).json().status).toBe('EXPIRED');
    expect((await currentOffer(credential.id)).page.connection_url).toBeNull();

    const response = await resend(credential.id, headers);
    expect(response.statusCode, response.body).toBe(202);
    const shown = (await t.app.inject({ url: `/api/credentials/${credential.id}`, headers })).json();
    expect(shown.status).toBe('ISSUED');
    expect(new Date(shown.expired_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const listed = (await t.app.inject({ url: '/api/credentials?filter.status=EXPIRED', headers })).json();
    expect(listed.total).toBe(0);

    // The e-mail's link leads to the new offer, which a wallet can redeem.
    const [mail] = await waitForMails(t, email, { count: 1, queue: CREDENTIAL_DELIVERY_QUEUE });
    expect(mail!.text).toContain(`/connect/credential/${credential.id}`);
    const second = await currentOffer(credential.id);
    expect(second.offerId).not.toBeNull();
    expect(second.offerId).not.toBe(first.offerId);
    // The old offer is withdrawn, not merely expired: even with its expiry moved back, its code is refused.
    await db()
      .update(schema.credentialOffers)
      .set({ expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(schema.credentialOffers.id, first.offerId!));
    const old = await token(organization.id, first.code!);
    expect(old.statusCode).toBe(400);
    expect(old.json().error).toBe('invalid_grant');
    const fresh = await token(organization.id, second.code!);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().access_token).toEqual(expect.any(String));
    // One live offer: the old one is withdrawn, the new one redeemed.
    const offers = await db()
      .select()
      .from(schema.credentialOffers)
      .where(eq(schema.credentialOffers.credentialId, credential.id));
    expect(offers).toHaveLength(2);
    expect(offers.find((o) => o.id === first.offerId)?.revokedAt).toBeInstanceOf(Date);
  });

  it('keeps the PIN of a PIN-protected offer it replaces, and leaves an open offer as it is', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Pin Offer');
    const credential = await createCredential(headers, schemaRecord.schema.id, 'pin@pin.example', { tx_code: true });
    expect(credential.tx_code).toMatch(/^\d{6}$/);
    const first = await currentOffer(credential.id);

    // An open offer stays: the resent e-mail points at the same one.
    expect((await resend(credential.id, headers)).statusCode).toBe(202);
    expect((await currentOffer(credential.id)).offerId).toBe(first.offerId);

    await db()
      .update(schema.credentialOffers)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.credentialOffers.credentialId, credential.id));
    await ageDeliveries(credential.id);
    expect((await resend(credential.id, headers)).statusCode).toBe(202);
    const second = await currentOffer(credential.id);
    expect(second.offerId).not.toBe(first.offerId);
    expect((await token(organization.id, second.code!)).json().error).toBe('invalid_request');
    const withPin = await token(organization.id, second.code!, { tx_code: credential.tx_code! });
    expect(withPin.statusCode, withPin.body).toBe(200);
    const withdrawn = await db()
      .select()
      .from(schema.credentialOffers)
      .where(and(eq(schema.credentialOffers.id, first.offerId!)));
    expect(withdrawn[0]?.revokedAt).toBeInstanceOf(Date);
  });
});
