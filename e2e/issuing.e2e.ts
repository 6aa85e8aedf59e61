import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { onConsole, reportOnFailure, signIn } from './support/journeys.ts';
import { type Product, runAdmin, startProduct } from './support/product.ts';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

interface MailboxMessage {
  id: string;
  to: string[];
  subject: string | null;
  html: string | null;
}
const mailbox = async (): Promise<MailboxMessage[]> =>
  (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results;

/** An API key of the demo organization: what an integrator that issues through the API has. */
function integratorKey() {
  const organizations = runAdmin(product, ['org', 'list']);
  const organizationId = organizations.stdout
    .split('\n')
    .find((line) => line.includes('Demo Organization'))
    ?.split(' ')[0];
  expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);
  const created = runAdmin(product, ['api-key', 'create', '--org', organizationId!, '--name', 'Integration']);
  const key = /key: (\S+)/.exec(created.stdout)?.[1];
  const secret = /secret: (\S+)/.exec(created.stdout)?.[1];
  return { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
}

const workClaims = (first: string, last: string) => ({
  first_name: first,
  last_name: last,
  date_of_birth: '1900-01-01',
  job_title: 'Engineer',
  location: 'Remote',
  employment_type: 'Full time',
  start_date: '2020-01-01',
  end_date: '2021-01-01',
  description: 'Created through the API',
});

describe('issuing credentials in the console, as an organization user would', () => {
  it('issues to a typed recipient and to CSV rows (bad rows reported), sends exactly them, and the e-mail leads to a claim page with a QR code', async () => {
    // An integration already issued a credential of the same schema through the API, never e-mailed: the
    // wizard's "Send" must not e-mail it.
    const integrator = integratorKey();
    const schemas = await fetch(`${product.consoleUrl}/api/schemas?page=1&limit=100`, { headers: integrator }).then(
      (r) => r.json(),
    );
    const workCertificate = schemas.results.find((s: { slug: string }) => s.slug === 'work-certificate');
    expect(workCertificate).toBeTruthy();
    const apiMade = await fetch(`${product.consoleUrl}/api/credentials/with-recipient`, {
      method: 'POST',
      headers: { ...integrator, 'content-type': 'application/json' },
      body: JSON.stringify({
        credential: {
          name: 'Work Certificate',
          schema_id: workCertificate.id,
          claims: workClaims('Ivy', 'Integrated'),
        },
        recipient: { email: 'ivy@example.com', first_name: 'Ivy', last_name: 'Integrated' },
      }),
    });
    expect(apiMade.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    reportOnFailure(page, product, 'issuing-console');
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await signIn(page, product, 'demo@example.com', 'Demo-Passw0rd!');

    // The wizard: the platform's Work Certificate schema.
    await page.goto(`${product.consoleUrl}/credentials/create`);
    const schemaCard = page.locator('[data-testid^="wizard-schema-"]', { hasText: 'Work Certificate' }).first();
    await schemaCard.click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('credential-name').fill('Employment record');

    // One recipient typed into the form.
    await page.getByTestId('recipient-add').click();
    await page.getByTestId('recipient-email').fill('grace@example.com');
    await page.getByTestId('recipient-first-name').fill('Grace');
    await page.getByTestId('recipient-last-name').fill('Hopper');
    const claims: Record<string, string> = {
      first_name: 'Grace',
      last_name: 'Hopper',
      // DATETIME attributes: a date-and-time picker.
      date_of_birth: '1906-12-09T08:00',
      job_title: 'Rear Admiral',
      location: 'Arlington',
      employment_type: 'Full time',
      start_date: '1943-12-01T09:00',
      end_date: '1986-08-14T17:00',
      description: 'COBOL',
    };
    for (const [name, value] of Object.entries(claims)) await page.getByTestId(`claim-${name}`).fill(value);
    await page.getByTestId('recipient-save').click();
    await expect.poll(() => page.locator('[data-testid^="recipient-row-"]').count()).toBe(1);

    // A CSV with one good row and one bad row (an invalid e-mail): the good row imports, the bad is reported.
    await page.getByTestId('csv-import-button').click();
    const header =
      'recipient_first_name,recipient_last_name,recipient_email,first_name,last_name,date_of_birth,job_title,location,employment_type,start_date,end_date,description';
    const csv = [
      header,
      'Katherine,Johnson,katherine@example.com,Katherine,Johnson,1918-08-26,Mathematician,Hampton,Full time,1953-06-01,1986-01-01,Orbits',
      'Bad,Row,not-an-email,Bad,Row,1900-01-01,X,Y,Z,2000-01-01,2001-01-01,W',
    ].join('\n');
    await page
      .getByTestId('csv-file-input')
      .setInputFiles({ name: 'staff.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('csv-import-submit').click();
    await expect
      .poll(() => page.getByTestId('csv-import-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('COMPLETED');
    // The bad row (row 3 counting the header) is reported; the good one was imported.
    await expect.poll(() => page.getByTestId('csv-import-errors').textContent()).toMatch(/3/);
    await snap(page, 'issuing-csv-import-en');
    await page.getByTestId('csv-import-done').click();
    // The imported recipient is listed with the typed one, read back from the API.
    await expect.poll(() => page.getByTestId('imported-recipients-0').textContent()).toContain('katherine@example.com');

    // A reload keeps everything; step 3 counts exactly the two of this run (not the API-made one).
    await page.getByTestId('wizard-next').click();
    await page.reload();
    await expect
      .poll(() => page.getByTestId('wizard-summary').textContent())
      .toBe('2 recipients will receive “Employment record” by e-mail.');
    await page.getByTestId('email-message').fill('Welcome aboard!');
    // The preview is the e-mail as sent (rendered by the API) in a sandboxed frame.
    const preview = page.frameLocator('[data-testid="email-preview-frame"]');
    await expect
      .poll(() => preview.locator('[data-role="message"]').textContent(), { timeout: 10_000 })
      .toBe('Welcome aboard!');
    expect(await preview.locator('[data-role="greeting"]').textContent()).toBe('Hello Grace Hopper,');
    await snap(page, 'issuing-step3-preview-en');
    await page.getByTestId('wizard-send').click();
    await page.waitForURL(onConsole(product, '/credentials/'), { timeout: 30_000 });
    await expect.poll(() => page.getByText('E-mails sent to 2 recipients').count(), { timeout: 10_000 }).toBe(1);

    // Exactly the two recipients got an e-mail, once each; the API-made credential got none.
    const ours = () =>
      mailbox().then((all) =>
        all.filter((m) =>
          ['grace@example.com', 'katherine@example.com', 'ivy@example.com'].some((e) => m.to.includes(e)),
        ),
      );
    await expect.poll(async () => (await ours()).length, { timeout: 30_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await ours()).map((m) => m.to[0]).sort()).toEqual(['grace@example.com', 'katherine@example.com']);
    const message = (await mailbox()).find((m) => m.to.includes('grace@example.com'))!;
    await page.goto(`${product.consoleUrl}/dev/mailbox/${message.id}`);
    // The mailbox shows the inline QR code (a cid: image served as a data URI).
    const shown = page.frameLocator('iframe[title="Message"]');
    await expect
      .poll(() => shown.locator('img[width="240"]').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await snap(page, 'issuing-mailbox-en');
    const claimLink = /href="([^"]*\/connect\/credential\/[0-9a-f-]{36})"/.exec(message.html ?? '')?.[1];
    expect(claimLink).toBeTruthy();
    const holder = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const holderPage = await holder.newPage();
    await holderPage.goto(claimLink!.replaceAll('&amp;', '&'));
    await holderPage.getByTestId('claim-qr').waitFor();
    expect(await holderPage.getByTestId('claim-offer-link').getAttribute('href')).toMatch(
      /^openid-credential-offer:\/\//,
    );
    await snap(holderPage, 'issuing-claim-page-mobile');
    await holder.close();

    // The list shows both as issued.
    await page.goto(`${product.consoleUrl}/credentials`);
    await page.getByTestId('nav-credentials').click();
    await page.getByTestId('credentials-table').waitFor();
    for (const name of ['Grace', 'Katherine']) {
      const row = page.locator('[data-testid^="credential-row-"]', { hasText: name }).first();
      await row.waitFor();
      const id = (await row.getAttribute('data-testid'))!.replace('credential-row-', '');
      await expect.poll(() => page.getByTestId(`credential-status-${id}`).textContent()).toMatch(/issued/i);
    }
    await snap(page, 'issuing-list-en');
    expect(problems).toEqual([]);
    await context.close();
  });
});
