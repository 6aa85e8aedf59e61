import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, launchBrowser, snap } from './support/browser.ts';
import { reportOnFailure, signIn } from './support/journeys.ts';
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

/** Screenshots go to e2e/artifacts and to /tmp/shots-ops (looked at by hand). */
const shots = '/tmp/shots-ops';
async function shot(page: Page, name: string) {
  // Dialogs and menus fade in (225 ms): the picture is taken once they are still.
  await page.waitForTimeout(400);
  await snap(page, name);
  mkdirSync(shots, { recursive: true });
  copyFileSync(path.join(artifacts, `${name}.png`), path.join(shots, `${name}.png`));
}

interface MailboxMessage {
  id: string;
  to: string[];
  subject: string | null;
  text: string | null;
}
const mailbox = async (): Promise<MailboxMessage[]> =>
  (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results;

const TIME_ZONE = 'Asia/Tokyo';

describe('operator tools on the credential list', () => {
  it('filters and sorts the list, exports the CSV it shows, resends the claim e-mail and copies the link', async () => {
    // An integration creates the credentials (CREATED: never offered nor e-mailed) and revokes one.
    const orgLine = runAdmin(product, ['org', 'list'])
      .stdout.trim()
      .split('\n')
      .find((line) => line.endsWith(' Demo Organization'))!;
    const organizationId = orgLine.split(' ')[0]!;
    const created = runAdmin(product, ['api-key', 'create', '--org', organizationId, '--name', 'Operator e2e']);
    expect(created.status, created.stderr).toBe(0);
    const key = /key: (\S+)/.exec(created.stdout)![1]!;
    const secret = /secret: (\S+)/.exec(created.stdout)![1]!;
    const api = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${product.consoleUrl}/api${url}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const schema = await api('POST', '/schemas', {
      name: 'Pilot licence',
      attributes: [{ name: 'rating', type: 'TEXT' }],
    });
    const people = [
      ['Ada', 'Lovelace', 'ada'],
      ['Grace', 'Hopper', 'grace'],
      ['Katherine', 'Johnson', 'katherine'],
      ['Mary', 'Jackson', 'mary'],
      ['Dorothy', 'Vaughan', 'dorothy'],
      ['山田', '花子', 'hanako'],
    ] as const;
    const ids: Record<string, string> = {};
    for (const [first, last, mailbox] of people) {
      const credential = await api('POST', '/credentials/with-recipient', {
        credential: { name: `Licence of ${first}`, schema_id: schema.id, claims: { rating: 'IFR' } },
        recipient: { email: `${mailbox}@flight.example`, first_name: first, last_name: last },
      });
      ids[first] = credential.id;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await api('PATCH', '/credentials/revoke', { credentials: [ids.Mary] });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: TIME_ZONE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.consoleUrl });
    const page = await context.newPage();
    reportOnFailure(page, product, 'operator-tools-console');
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await signIn(page, product, 'demo@example.com', 'Demo-Passw0rd!');
    await page.goto(`${product.consoleUrl}/credentials/${organizationId}?lang=en`);
    await page.getByTestId('credentials-table').waitFor();
    const rowIds = async () =>
      (await page
        .locator('[data-testid^="credential-row-"]')
        .evaluateAll((rows) =>
          rows.map((row) => row.getAttribute('data-testid')!.replace('credential-row-', '')),
        )) as string[];

    // Status Created, today in the user's time zone, oldest first.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Created', exact: true }).click();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(new Date());
    await page.getByTestId('credentials-filter-from').fill(today);
    await page.getByTestId('credentials-filter-to').fill(today);
    await page.getByTestId('credentials-sort-created_at').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'created_at');
    const expected = ['Ada', 'Grace', 'Katherine', 'Dorothy', '山田'].map((name) => ids[name]!);
    await expect.poll(rowIds, { timeout: 15_000 }).toEqual(expected);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      status: 'CREATED',
      from: today,
      to: today,
      sort: 'created_at',
    });
    expect(await page.getByTestId('credentials-sort-created_at').getAttribute('aria-sort')).toBe('ascending');
    expect(await page.getByTestId('credentials-summary').textContent()).toBe('5 credentials');
    await shot(page, 'operator-list-1280-en');

    // Export: the file holds the rows shown, in the same order, with the times in the user's zone.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('credentials-export').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`credentials-${today}.csv`);
    const file = readFileSync((await download.path())!);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parse(file.toString('utf8').slice(1)) as string[][];
    expect(header![0]).toBe('id');
    expect(records.map((r) => r[0])).toEqual(expected);
    expect(records.map((r) => r[6])).toEqual(['CREATED', 'CREATED', 'CREATED', 'CREATED', 'CREATED']);
    expect(records[4]!.slice(3, 5)).toEqual(['山田', '花子']);
    expect(records[0]![7]).toMatch(/\+09:00$/);

    // The detail: resend the claim e-mail; it arrives in the development mailbox; the history says so.
    await page.getByTestId(`credential-row-${ids.Grace}`).click();
    await page.getByTestId('credential-detail').waitFor();
    await page.getByTestId('credential-detail-resend').click();
    await expect
      .poll(async () => (await mailbox()).filter((m) => m.to.includes('grace@flight.example')).length, {
        timeout: 30_000,
      })
      .toBe(1);
    const mail = (await mailbox()).find((m) => m.to.includes('grace@flight.example'))!;
    expect(mail.text).toContain(`${product.consoleUrl}/connect/credential/${ids.Grace}`);
    await expect
      .poll(() => page.getByTestId('credential-email-1').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('SENT');
    // Once a minute: a second click is explained, not sent.
    await page.getByTestId('credential-detail-resend').click();
    await expect.poll(() => page.getByText('less than a minute ago').count()).toBeGreaterThan(0);
    expect((await mailbox()).filter((m) => m.to.includes('grace@flight.example'))).toHaveLength(1);

    // Copy the claim link.
    await page.getByTestId('credential-detail-copy-link').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${product.consoleUrl}/connect/credential/${ids.Grace}`,
    );
    await shot(page, 'operator-detail-1280-en');
    await page.getByTestId('credential-detail-close').click();
    await page.getByTestId('credential-detail').waitFor({ state: 'detached' });

    // Grace was offered by the e-mail: no longer CREATED, so no longer in the filtered list.
    await expect.poll(rowIds).toEqual(expected.filter((id) => id !== ids.Grace));

    // Phones: cards with the status and the link at hand, nothing scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.locator('table').count()).toBe(0);
    await page.getByTestId(`credential-row-${ids.Ada}`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.getByTestId(`credential-copy-${ids.Ada}`).isVisible()).toBe(true);
    expect(await page.getByTestId(`credential-status-${ids.Ada}`).isVisible()).toBe(true);
    await page.getByTestId('credentials-summary').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    await shot(page, 'operator-list-390-en');

    // Japanese, with every status.
    await page.goto(`${product.consoleUrl}/credentials/${organizationId}?lang=ja`);
    await page.getByTestId(`credential-row-${ids.Mary}`).waitFor();
    await expect.poll(() => page.getByTestId('credentials-summary').textContent()).toBe('6 件');
    await page.evaluate(() => window.scrollBy(0, 420));
    await shot(page, 'operator-list-390-ja');
    await page.getByTestId(`credential-row-${ids.Grace}`).click();
    await page.getByTestId('credential-email-1').waitFor();
    await shot(page, 'operator-detail-390-ja');
    await page.getByTestId('credential-detail-close').click();
    await page.getByTestId('credential-detail').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('credentials-sort-status').waitFor();
    await page.getByTestId('credentials-sort-status').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'status');
    await expect.poll(async () => (await rowIds()).at(-1)).toBe(ids.Mary);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'operator-list-1280-ja');
    expect(problems).toEqual([]);
    await context.close();
  });
});
