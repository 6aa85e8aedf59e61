import { schema } from '@cp/db';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notifyPaging } from '../src/modules/credentials/credential-deliveries.service.ts';
import { CREDENTIAL_DELIVERY_QUEUE } from '../src/modules/credentials/credential-deliveries.worker.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { type CaughtMail, mailsTo, waitForMails } from './support/mailbox.ts';
import { jobsSettled, waitFor } from './support/wait.ts';

/**
 * "Send" sends exactly what the screen says: only the credentials named by id or by import, each once, and
 * the preview is the e-mail that goes out.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  notifyPaging.importPageSize = 1000;
});

const db = () => t.runtime.ctx.database.db;
type Headers = Record<string, string>;

const verifiedOrganization = (name: string) =>
  buildVerifiedOrganization(t, name, { name: 'Membership', attributes: [{ name: 'level', type: 'TEXT' }] });

async function createCredential(headers: Headers, schemaId: string, email: string, first = 'Rita', last = 'Recipient') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: { name: 'Gold membership', schema_id: schemaId, claims: [{ name: 'level', value: 'gold' }] },
      recipient: { email, first_name: first, last_name: last },
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string };
}

const notify = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/credentials/notify/via-schema', headers, payload });

const deliveriesOfCredentials = (ids: string[]) =>
  db().select().from(schema.credentialDeliveries).where(inArray(schema.credentialDeliveries.credentialId, ids));

function csvUpload(headers: Headers, schemaId: string, rows: string[]) {
  const boundary = '----cp-notify-boundary';
  const csv = ['recipient_first_name,recipient_last_name,recipient_email,level', ...rows].join('\n');
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="schema_id"\r\n\r\n${schemaId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n` +
      `--${boundary}--\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/credentials/import',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}
async function importCsv(headers: Headers, schemaId: string, rows: string[]) {
  const started = await csvUpload(headers, schemaId, rows);
  expect(started.statusCode).toBe(202);
  const id = started.json().id as string;
  return waitFor('the import to complete', async () => {
    const body = (await t.app.inject({ url: `/api/credentials/import/${id}`, headers })).json();
    return body.status === 'COMPLETED' ? (body as { id: string; succeeded_count: number }) : undefined;
  });
}

describe('notify via schema: exactly the named credentials', () => {
  it('e-mails exactly the ids given; an API-created credential of the same schema is not mailed', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Exact Club');
    const schemaId = schemaRecord.schema.id;
    // Created earlier through the API (an integration), never e-mailed.
    const earlier = await createCredential(headers, schemaId, 'api@exact-club.example');
    const chosen = [
      await createCredential(headers, schemaId, 'one@exact-club.example'),
      await createCredential(headers, schemaId, 'two@exact-club.example'),
    ];
    const response = await notify(headers, { schema_id: schemaId, credential_ids: chosen.map((c) => c.id) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queued: 2 });
    await waitForMails(t, ['one@exact-club.example', 'two@exact-club.example']);
    // Every e-mail job sent so far has run: whatever a stray one would have sent, it has sent.
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    expect(await mailsTo(t, 'api@exact-club.example')).toHaveLength(0);
    expect(await deliveriesOfCredentials([earlier.id])).toHaveLength(0);
    const deliveries = await deliveriesOfCredentials(chosen.map((c) => c.id));
    expect(deliveries.map((d) => [d.sequence, d.status])).toEqual([
      [1, 'SENT'],
      [1, 'SENT'],
    ]);
    // Again: nothing more (each credential's first e-mail goes once).
    expect((await notify(headers, { schema_id: schemaId, credential_ids: chosen.map((c) => c.id) })).json()).toEqual({
      queued: 0,
    });
  });

  it('is a 400 with a clear message without credential_ids or import_id, and queues nothing', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Nothing Named');
    await createCredential(headers, schemaRecord.schema.id, 'nobody@nothing-named.example');
    for (const payload of [
      { schema_id: schemaRecord.schema.id },
      { schema_id: schemaRecord.schema.id, message: 'Hello' },
      { schema_id: schemaRecord.schema.id, credential_ids: [] },
    ]) {
      const response = await notify(headers, payload);
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().detail).toMatch(/credential_ids|import_id/);
    }
    const tooMany = Array.from({ length: 1001 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect((await notify(headers, { schema_id: schemaRecord.schema.id, credential_ids: tooMany })).statusCode).toBe(
      400,
    );
    expect((await notify(headers, { schema_id: schemaRecord.schema.id, credential_ids: ['nope'] })).statusCode).toBe(
      400,
    );
    const rows = await db()
      .select()
      .from(schema.credentialDeliveries)
      .where(eq(schema.credentialDeliveries.organizationId, organization.id));
    expect(rows).toHaveLength(0);
  });

  it('ignores the ids of another organization: never mailed, not counted', async () => {
    const victim = await verifiedOrganization('Victim Org');
    const attacker = await verifiedOrganization('Attacker Org');
    const theirs = await createCredential(victim.headers, victim.schemaRecord.schema.id, 'victim@victim.example');
    const mine = await createCredential(attacker.headers, attacker.schemaRecord.schema.id, 'mine@attacker.example');
    // With the attacker's own schema, naming the victim's credential among its own.
    const response = await notify(attacker.headers, {
      schema_id: attacker.schemaRecord.schema.id,
      credential_ids: [theirs.id, mine.id],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queued: 1 });
    // With the victim's schema id: not found.
    const foreignSchema = await notify(attacker.headers, {
      schema_id: victim.schemaRecord.schema.id,
      credential_ids: [theirs.id],
    });
    expect(foreignSchema.statusCode).toBe(404);
    await waitForMails(t, ['mine@attacker.example']);
    // Every e-mail job sent so far has run: whatever a stray one would have sent, it has sent.
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    expect(await mailsTo(t, 'victim@victim.example')).toHaveLength(0);
    expect(await deliveriesOfCredentials([theirs.id])).toHaveLength(0);
    // And the victim can still send its own, once.
    expect(
      (await notify(victim.headers, { schema_id: victim.schemaRecord.schema.id, credential_ids: [theirs.id] })).json(),
    ).toEqual({ queued: 1 });
  });

  it('counts only what can still be sent: not claimed, revoked, deleted, of another schema or already e-mailed', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Counting Club');
    const schemaId = schemaRecord.schema.id;
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers,
      payload: { name: 'Other', attributes: [{ name: 'level', type: 'TEXT' }] },
    });
    expect(other.statusCode, other.body).toBe(201);
    const ok = await createCredential(headers, schemaId, 'ok@counting.example');
    const revoked = await createCredential(headers, schemaId, 'revoked@counting.example');
    const deleted = await createCredential(headers, schemaId, 'deleted@counting.example');
    const claimed = await createCredential(headers, schemaId, 'claimed@counting.example');
    const otherSchema = await createCredential(headers, other.json().id, 'other@counting.example');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers,
      payload: { credentials: [revoked.id] },
    });
    await t.app.inject({ method: 'DELETE', url: `/api/credentials/${deleted.id}`, headers });
    await db()
      .update(schema.credentials)
      .set({ status: 'CLAIMED', claimedAt: new Date() })
      .where(eq(schema.credentials.id, claimed.id));
    const all = [ok, revoked, deleted, claimed, otherSchema].map((c) => c.id);
    const first = await notify(headers, { schema_id: schemaId, credential_ids: [...all, ok.id] });
    expect(first.json()).toEqual({ queued: 1 });
    expect((await notify(headers, { schema_id: schemaId, credential_ids: all })).json()).toEqual({ queued: 0 });
    await waitForMails(t, ['ok@counting.example']);
    // Every e-mail job sent so far has run: whatever a stray one would have sent, it has sent.
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    for (const email of ['revoked', 'deleted', 'claimed', 'other']) {
      expect(await mailsTo(t, `${email}@counting.example`)).toHaveLength(0);
    }
  });

  it('e-mails every successful row of an import (read page by page), never another credential of the schema', async () => {
    notifyPaging.importPageSize = 2; // 5 good rows: three pages
    const { headers, schemaRecord } = await verifiedOrganization('Import Mail');
    const schemaId = schemaRecord.schema.id;
    const typed = await createCredential(headers, schemaId, 'typed@import-mail.example');
    const rows = [
      'Ann,One,ann@import-mail.example,gold',
      'Ben,Two,not-an-email,gold',
      'Cid,Three,cid@import-mail.example,gold',
      'Dee,Four,dee@import-mail.example,gold',
      'Eve,Five,eve@import-mail.example,gold',
      'Fay,Six,fay@import-mail.example,gold',
    ];
    const imported = await importCsv(headers, schemaId, rows);
    expect(imported.succeeded_count).toBe(5);
    // The wizard lists the import's recipients through the credential list.
    const list = await t.app.inject({
      url: `/api/credentials?page=1&limit=100&filter.import_id=${imported.id}`,
      headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(5);
    // In the file's row order.
    expect(list.json().results.map((r: { recipient: { email: string } }) => r.recipient.email)).toEqual(
      ['ann', 'cid', 'dee', 'eve', 'fay'].map((n) => `${n}@import-mail.example`),
    );
    const second = await t.app.inject({
      url: `/api/credentials?page=2&limit=2&filter.import_id=${imported.id}`,
      headers,
    });
    expect(second.json()).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(second.json().results.map((r: { recipient: { first_name: string } }) => r.recipient.first_name)).toEqual([
      'Dee',
      'Eve',
    ]);

    const response = await notify(headers, { schema_id: schemaId, import_id: imported.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queued: 5 });
    const emails = ['ann', 'cid', 'dee', 'eve', 'fay'].map((n) => `${n}@import-mail.example`);
    await waitForMails(t, emails);
    // Every e-mail job sent so far has run: whatever a stray one would have sent, it has sent.
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    for (const email of emails) expect(await mailsTo(t, email)).toHaveLength(1);
    expect(await mailsTo(t, 'typed@import-mail.example')).toHaveLength(0);
    // Ids and the import together: the typed recipient now, the import's rows not again.
    const both = await notify(headers, { schema_id: schemaId, import_id: imported.id, credential_ids: [typed.id] });
    expect(both.json()).toEqual({ queued: 1 });
  });

  it("answers 404 for another organization's import and 400 for an import of another schema", async () => {
    const a = await verifiedOrganization('Import Owner');
    const b = await verifiedOrganization('Import Thief');
    const imported = await importCsv(a.headers, a.schemaRecord.schema.id, ['Gus,Owner,gus@import-owner.example,x']);
    const foreign = await notify(b.headers, { schema_id: b.schemaRecord.schema.id, import_id: imported.id });
    expect(foreign.statusCode).toBe(404);
    const list = await t.app.inject({
      url: `/api/credentials?page=1&limit=10&filter.import_id=${imported.id}`,
      headers: b.headers,
    });
    expect(list.json().total).toBe(0);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers: a.headers,
      payload: { name: 'Another', attributes: [{ name: 'level', type: 'TEXT' }] },
    });
    const wrongSchema = await notify(a.headers, { schema_id: other.json().id, import_id: imported.id });
    expect(wrongSchema.statusCode).toBe(400);
    expect(await deliveriesOfCredentials([(list.json().results[0]?.id as string) ?? imported.id])).toHaveLength(0);
    // Every e-mail job sent so far has run: whatever a stray one would have sent, it has sent.
    await jobsSettled(t, CREDENTIAL_DELIVERY_QUEUE);
    expect(await mailsTo(t, 'gus@import-owner.example')).toHaveLength(0);
  });
});

/** A tiny valid PNG (1×1, red). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

async function withLogoAndColour(headers: Headers, organizationId: string, colour: string) {
  const boundary = '----cp-logo';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nlogo\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  await db()
    .update(schema.organizations)
    .set({ logoMediaId: uploaded.json().id, brandColor: colour })
    .where(eq(schema.organizations.id, organizationId));
}

const part = (html: string, role: string) => new RegExp(`data-role="${role}"[^>]*>([^<]*)<`).exec(html)?.[1];
const buttonStyle = (html: string) => /data-role="claim" style="([^"]*)"/.exec(html)?.[1];
const logoBytes = (html: string) => /<img src="data:image\/png;base64,([^"]+)"[^>]*data-role="logo"/.exec(html)?.[1];

describe('the preview is the e-mail', () => {
  for (const locale of ['en', 'ja', 'es', 'ko'] as const) {
    it(`preview and sent e-mail agree in ${locale}: subject, greeting, expiry, button colour, logo`, async () => {
      const name = `Preview ${locale} Club`;
      const { headers, schemaRecord, organization } = await verifiedOrganization(name);
      await withLogoAndColour(headers, organization.id, '#FFD500');
      const email = `rita-${locale}@preview.example`;
      const credential = await createCredential(headers, schemaRecord.schema.id, email, '花子', '山田');
      const preview = await t.app.inject({
        method: 'POST',
        url: '/api/credentials/mail-preview',
        headers,
        payload: {
          schema_id: schemaRecord.schema.id,
          name: 'Gold membership',
          message: 'Welcome!',
          locale,
          recipient: { first_name: '花子', last_name: '山田' },
        },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const shown = preview.json() as { subject: string; html: string; text: string };
      expect(shown.html).not.toContain('cid:');

      const sent = await notify(headers, {
        schema_id: schemaRecord.schema.id,
        credential_ids: [credential.id],
        message: 'Welcome!',
        locale,
      });
      expect(sent.json()).toEqual({ queued: 1 });
      await waitForMails(t, [email]);
      const [caught] = await mailsTo(t, email);
      const mail = (await t.app.inject({ url: `/dev/mailbox/messages/${caught!.id}` })).json() as CaughtMail;

      expect(mail.subject).toBe(shown.subject);
      expect(part(mail.html!, 'greeting')).toBe(part(shown.html, 'greeting'));
      expect(part(mail.html!, 'greeting')).toMatch(locale === 'ja' ? /山田 花子 様/ : /花子/);
      expect(part(mail.html!, 'expiry')).toBe(part(shown.html, 'expiry'));
      expect(part(mail.html!, 'message')).toBe('Welcome!');
      expect(part(shown.html, 'message')).toBe('Welcome!');
      expect(buttonStyle(mail.html!)).toBe(buttonStyle(shown.html));
      expect(buttonStyle(mail.html!)).toContain('background:#ffd500;color:#000000');
      expect(mail.text!.split('\n')[0]).toBe(shown.text.split('\n')[0]);
      // The logo: inline (cid) in the e-mail, the same bytes as the preview's data URI.
      expect(mail.html).toMatch(/<img src="cid:organization-logo"[^>]*data-role="logo"/);
      const inline = mail.inline_images?.find((i) => i.cid === 'organization-logo');
      expect(inline?.base64).toBe(PNG.toString('base64'));
      expect(logoBytes(shown.html)).toBe(PNG.toString('base64'));
    });
  }

  it('greets a placeholder without a recipient, and answers 404 for a schema or credential of another organization', async () => {
    const a = await verifiedOrganization('Preview Owner');
    const b = await verifiedOrganization('Preview Other');
    const placeholder = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/mail-preview',
      headers: a.headers,
      payload: { schema_id: a.schemaRecord.schema.id, locale: 'ja' },
    });
    expect(placeholder.statusCode).toBe(200);
    expect(placeholder.json().subject).toBe('Preview Ownerから証明書「Membership」が届きました');
    expect(placeholder.json().text.split('\n')[0]).toBe('受取人 様');
    // No logo and no colour: the product's teal, white text.
    expect(buttonStyle(placeholder.json().html)).toContain('background:#004a46;color:#ffffff');
    expect(placeholder.json().html).not.toContain('data-role="logo"');

    const theirs = await createCredential(a.headers, a.schemaRecord.schema.id, 'x@preview-owner.example');
    const foreignSchema = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/mail-preview',
      headers: b.headers,
      payload: { schema_id: a.schemaRecord.schema.id },
    });
    expect(foreignSchema.statusCode).toBe(404);
    const foreignCredential = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/mail-preview',
      headers: b.headers,
      payload: { schema_id: b.schemaRecord.schema.id, credential_id: theirs.id },
    });
    expect(foreignCredential.statusCode).toBe(404);
    expect(foreignCredential.body).not.toContain('Rita');
    const named = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/mail-preview',
      headers: a.headers,
      payload: { schema_id: a.schemaRecord.schema.id, credential_id: theirs.id, locale: 'en' },
    });
    expect(named.json().text.split('\n')[0]).toBe('Hello Rita Recipient,');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/mail-preview',
      headers: a.headers,
      payload: { schema_id: a.schemaRecord.schema.id, message: 'x'.repeat(2001) },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the development mailbox', () => {
  it('shows a Japanese subject and body as sent, and the inline QR code, under a tight CSP', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('京都クラブ');
    const credential = await createCredential(headers, schemaRecord.schema.id, 'hanako@kyoto.example', '花子', '山田');
    await notify(headers, { schema_id: schemaRecord.schema.id, credential_ids: [credential.id], locale: 'ja' });
    await waitForMails(t, ['hanako@kyoto.example']);
    const [caught] = await mailsTo(t, 'hanako@kyoto.example');
    expect(caught!.subject).toBe('京都クラブから証明書「Gold membership」が届きました');
    expect(caught!.text).toContain('山田 花子 様');
    // The list leaves the image bytes out.
    expect(caught!.inline_images).toBeUndefined();

    const html = await t.app.inject({ url: `/dev/mailbox/messages/${caught!.id}/html` });
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['content-security-policy']).toBe(
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
    );
    expect(html.body).toContain('山田 花子 様');
    expect(html.body).not.toContain('cid:credential-offer-qr');
    const qr = /<img src="data:image\/png;base64,([^"]+)" width="240"/.exec(html.body)?.[1];
    expect(Buffer.from(qr!, 'base64').subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));

    const page = await t.app.inject({ url: `/dev/mailbox/${caught!.id}` });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<h2>京都クラブから証明書「Gold membership」が届きました</h2>');
    const list = await t.app.inject({ url: '/dev/mailbox' });
    expect(list.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(list.body).toContain('京都クラブから証明書');
  });

  it('shows a text-only message (the KYB decision) in UTF-8', async () => {
    await t.runtime.mailer.send({ to: 'kyb@text-only.example', subject: '조직 인증 완료', text: '안녕하세요 <b>' });
    await waitForMails(t, ['kyb@text-only.example']);
    const [caught] = await mailsTo(t, 'kyb@text-only.example');
    expect(caught!.subject).toBe('조직 인증 완료');
    const html = await t.app.inject({ url: `/dev/mailbox/messages/${caught!.id}/html` });
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('<pre>안녕하세요 &lt;b&gt;</pre>');
  });
});
