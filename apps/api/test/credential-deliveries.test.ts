import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as deliveriesService from '../src/modules/credentials/credential-deliveries.service.ts';
import { CREDENTIAL_DELIVERY_QUEUE } from '../src/modules/credentials/credential-deliveries.worker.ts';
import { credentialMail, deliveryMessageId } from '../src/modules/credentials/credential-mail.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
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

const verifiedOrganization = (name: string) =>
  buildVerifiedOrganization(t, name, {
    name: 'Membership',
    attributes: [{ name: 'level', type: 'TEXT' }],
  });

async function createCredential(headers: Record<string, string>, schemaId: string, email: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: { name: 'Gold membership', schema_id: schemaId, claims: [{ name: 'level', value: 'gold' }] },
      recipient: { email, first_name: 'Rita', last_name: 'Recipient' },
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string };
}

const notify = (
  headers: Record<string, string>,
  schemaId: string,
  message?: string,
  extra: Record<string, unknown> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/credentials/notify/via-schema',
    headers,
    payload: { schema_id: schemaId, ...(message ? { message } : {}), ...extra },
  });

const deliveriesOf = (organizationId: string) =>
  db().select().from(schema.credentialDeliveries).where(eq(schema.credentialDeliveries.organizationId, organizationId));

/** The delivery job's own dependencies (the composition root's). */
const deliverDeps = () => t.runtime.ctx.deps.deliver;

describe('e-mail delivery via schema', () => {
  it('e-mails every credential exactly once, even when called twice at once, with the claim link and QR code', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Mail Club');
    const emails = ['one@mail-club.example', 'two@mail-club.example'];
    const created = [];
    for (const email of emails) created.push(await createCredential(headers, schemaRecord.schema.id, email));
    const revoked = await createCredential(headers, schemaRecord.schema.id, 'revoked@mail-club.example');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers,
      payload: { credentials: [revoked.id] },
    });

    const credential_ids = [...created.map((c) => c.id), revoked.id];
    const [first, second] = await Promise.all([
      notify(headers, schemaRecord.schema.id, 'Welcome to the club!', { credential_ids }),
      notify(headers, schemaRecord.schema.id, 'Welcome to the club!', { credential_ids }),
    ]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.json().queued + second.json().queued).toBe(2);
    const third = await notify(headers, schemaRecord.schema.id, undefined, { credential_ids });
    expect(third.json()).toEqual({ queued: 0 });

    // Every delivery job sent so far has finished (waitForMails): a duplicate would have sent its mail by now.
    await waitForMails(t, emails, { queue: CREDENTIAL_DELIVERY_QUEUE });
    for (const [i, email] of emails.entries()) {
      const mails = await mailsTo(t, email);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe('Mail Club sent you a credential: Gold membership');
      const claimUrl = `${t.runtime.ctx.config.publicUrl}/connect/credential/${created[i]!.id}`;
      expect(mail.text).toContain(claimUrl);
      expect(mail.text).toContain('Welcome to the club!');
      expect(mail.text).toContain('Rita Recipient');
      expect(mail.html).toContain(`href="${claimUrl}"`);
      expect(mail.html).toContain('src="cid:credential-offer-qr"');
      expect(mail.html).toContain('Claim your credential');
    }
    expect(await mailsTo(t, 'revoked@mail-club.example')).toHaveLength(0);

    for (const { id } of created) {
      const response = await t.app.inject({ url: `/api/credentials/${id}`, headers });
      expect(response.json()).toMatchObject({ status: 'ISSUED', emailed_at: expect.any(String) });
    }
    const deliveries = await db()
      .select()
      .from(schema.credentialDeliveries)
      .where(eq(schema.credentialDeliveries.organizationId, schemaRecord.schema.organizationId!));
    expect(deliveries.map((d) => d.status)).toEqual(['SENT', 'SENT']);
    expect(deliveries.every((d) => d.message === 'Welcome to the club!')).toBe(true);
    // Neither a locale nor Accept-Language: English.
    expect(deliveries.every((d) => d.locale === 'en')).toBe(true);

    // The job running again (a retry, a second worker) sends nothing more.
    for (const delivery of deliveries) {
      expect(await deliveriesService.deliver(deliverDeps(), delivery.id)).toBe('skipped');
    }
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    for (const email of emails) expect(await mailsTo(t, email)).toHaveLength(1);
  });

  it('retries a delivery left SENDING by a dead worker only once it is stale, and never after SENT', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Crash Club');
    const credential = await createCredential(headers, schemaRecord.schema.id, 'crash@crash-club.example');
    // A delivery claimed by a worker that died before sending (no job is queued for it here).
    const [delivery] = await db()
      .insert(schema.credentialDeliveries)
      .values({
        credentialId: credential.id,
        organizationId: organization.id,
        status: 'SENDING',
        sendingAt: new Date(),
      })
      .returning();
    expect(await deliveriesService.deliver(deliverDeps(), delivery!.id)).toBe('skipped');

    await db()
      .update(schema.credentialDeliveries)
      .set({ sendingAt: new Date(Date.now() - (deliveriesService.STALE_SENDING_SECONDS + 60) * 1000) })
      .where(eq(schema.credentialDeliveries.id, delivery!.id));
    const results = await Promise.all([
      deliveriesService.deliver(deliverDeps(), delivery!.id),
      deliveriesService.deliver(deliverDeps(), delivery!.id),
    ]);
    expect(results.sort()).toEqual(['sent', 'skipped']);
    expect(await deliveriesService.deliver(deliverDeps(), delivery!.id)).toBe('skipped');
    await waitForMails(t, ['crash@crash-club.example'], { queue: CREDENTIAL_DELIVERY_QUEUE });
    expect(await mailsTo(t, 'crash@crash-club.example')).toHaveLength(1);
    const [stored] = await db()
      .select()
      .from(schema.credentialDeliveries)
      .where(eq(schema.credentialDeliveries.id, delivery!.id));
    expect(stored).toMatchObject({ status: 'SENT', attempts: 1 });

    // notify does not queue it again.
    expect(
      (await notify(headers, schemaRecord.schema.id, undefined, { credential_ids: [credential.id] })).json(),
    ).toEqual({ queued: 0 });
  });

  it('puts the delivery back for a retry when SMTP fails, with the same Message-ID on the next attempt', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Flaky Club');
    const credential = await createCredential(headers, schemaRecord.schema.id, 'flaky@flaky-club.example');
    const [delivery] = await db()
      .insert(schema.credentialDeliveries)
      .values({ credentialId: credential.id, organizationId: organization.id })
      .returning();
    const sent: { messageId?: string | undefined }[] = [];
    let fail = true;
    const mailer = {
      send: async (mail: { messageId?: string }) => {
        if (fail) throw new Error('SMTP down');
        sent.push(mail);
      },
    };
    const deps = { ...deliverDeps(), mailer };
    await expect(deliveriesService.deliver(deps, delivery!.id)).rejects.toThrow('SMTP down');
    const [queued] = await db()
      .select()
      .from(schema.credentialDeliveries)
      .where(eq(schema.credentialDeliveries.id, delivery!.id));
    expect(queued).toMatchObject({ status: 'QUEUED', lastError: 'SMTP down', attempts: 1 });
    fail = false;
    expect(await deliveriesService.deliver(deps, delivery!.id)).toBe('sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.messageId).toBe(deliveryMessageId(delivery!.id, t.runtime.ctx.config.publicUrl));
  });

  it('builds the e-mail with the QR code of the offer as an inline PNG', async () => {
    const mail = await credentialMail({
      deliveryId: '00000000-0000-4000-8000-000000000001',
      locale: 'en',
      to: 'ada@example.com',
      recipientFirstName: 'Ada',
      recipientLastName: 'Lovelace',
      organizationName: 'Analytical <Engines>',
      credentialName: 'Diploma',
      message: 'Congratulations!',
      publicUrl: 'https://cp.example',
      credentialId: 'c1',
      connectionUrl: 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fcp.example%2Fx',
      offerExpiresAt: new Date('2030-01-08T00:00:00Z'),
    });
    expect(mail.messageId).toBe('<credential-delivery-00000000-0000-4000-8000-000000000001@cp.example>');
    expect(mail.html).toContain('Analytical &lt;Engines&gt;');
    expect(mail.html).toContain('https://cp.example/connect/credential/c1');
    expect(mail.text).toContain('The offer expires on January 8, 2030.');
    const [qr] = mail.attachments;
    expect(qr).toMatchObject({ cid: 'credential-offer-qr', contentType: 'image/png' });
    expect(qr!.content.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('sends the e-mail in the requested language and stores it on the delivery', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Kyoto Club');
    const { id } = await createCredential(headers, schemaRecord.schema.id, 'ja@kyoto-club.example');
    // The explicit locale wins over Accept-Language.
    const response = await notify({ ...headers, 'accept-language': 'ko' }, schemaRecord.schema.id, 'ようこそ！', {
      locale: 'ja',
      credential_ids: [id],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queued: 1 });
    const [delivery] = await deliveriesOf(organization.id);
    expect(delivery).toMatchObject({ locale: 'ja', message: 'ようこそ！' });

    await waitForMails(t, ['ja@kyoto-club.example'], { queue: CREDENTIAL_DELIVERY_QUEUE });
    const [mail] = await mailsTo(t, 'ja@kyoto-club.example');
    expect(mail!.subject).toBe('Kyoto Clubから証明書「Gold membership」が届きました');
    expect(mail!.text).toContain('Rita Recipient 様');
    expect(mail!.text).toContain('Kyoto Clubから証明書「Gold membership」が発行されました。');
    expect(mail!.text).toContain('ようこそ！');
    expect(mail!.text).toMatch(/受け取り期限は\d{4}年\d{1,2}月\d{1,2}日です。/);
    expect(mail!.html).toContain('<html lang="ja">');
    expect(mail!.html).toContain('証明書を受け取る</a>');
    expect(mail!.html).toContain('alt="証明書を受け取るためのQRコード"');
    expect(mail!.html).not.toContain('Claim your credential');
  });

  it('without a locale, takes the best match of Accept-Language, else English', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Seoul Club');
    const { id } = await createCredential(headers, schemaRecord.schema.id, 'ko@seoul-club.example');
    const response = await notify(
      { ...headers, 'accept-language': 'fr-FR,ko-KR;q=0.9,es;q=0.8' },
      schemaRecord.schema.id,
      undefined,
      { credential_ids: [id] },
    );
    expect(response.statusCode).toBe(200);
    const [delivery] = await deliveriesOf(organization.id);
    expect(delivery!.locale).toBe('ko');
    await waitForMails(t, ['ko@seoul-club.example'], { queue: CREDENTIAL_DELIVERY_QUEUE });
    const [mail] = await mailsTo(t, 'ko@seoul-club.example');
    expect(mail!.subject).toBe('Seoul Club에서 자격 증명을 보냈습니다: Gold membership');
    expect(mail!.text).toContain('Rita Recipient님, 안녕하세요.');

    const other = await verifiedOrganization('Paris Club');
    const fr = await createCredential(other.headers, other.schemaRecord.schema.id, 'fr@paris-club.example');
    await notify({ ...other.headers, 'accept-language': 'fr-FR,de;q=0.5' }, other.schemaRecord.schema.id, undefined, {
      credential_ids: [fr.id],
    });
    const [english] = await deliveriesOf(other.organization.id);
    expect(english!.locale).toBe('en');
  });

  it('refuses an unsupported locale with problem+json and queues nothing', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Babel Club');
    const { id } = await createCredential(headers, schemaRecord.schema.id, 'babel@babel-club.example');
    for (const locale of ['fr', 'ja-JP', '<script>', 7, '']) {
      const response = await notify(headers, schemaRecord.schema.id, undefined, { locale, credential_ids: [id] });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    expect(await deliveriesOf(organization.id)).toHaveLength(0);
  });

  it('keeps organizations apart: another organization cannot send via a schema that is not its own', async () => {
    const a = await verifiedOrganization('Alpha Mail');
    const b = await verifiedOrganization('Beta Mail');
    const alpha = await createCredential(a.headers, a.schemaRecord.schema.id, 'alpha@alpha-mail.example');
    const response = await notify(b.headers, a.schemaRecord.schema.id, undefined, { credential_ids: [alpha.id] });
    expect(response.statusCode).toBe(404);
    const deliveries = await db()
      .select()
      .from(schema.credentialDeliveries)
      .where(eq(schema.credentialDeliveries.organizationId, a.organization.id));
    expect(deliveries).toHaveLength(0);
    const list = await t.app.inject({ url: '/api/credentials?page=1&limit=10', headers: b.headers });
    expect(list.json().total).toBe(0);
    const unverified = await verifiedOrganization('Gamma Mail');
    await db()
      .update(schema.organizations)
      .set({ verificationStatus: 'PENDING', verifiedAt: null })
      .where(eq(schema.organizations.id, unverified.organization.id));
    expect(
      (
        await notify(unverified.headers, unverified.schemaRecord.schema.id, undefined, {
          credential_ids: [alpha.id],
        })
      ).statusCode,
    ).toBe(403);
  });
});
