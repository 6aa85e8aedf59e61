import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, launchBrowser, snap } from './support/browser.ts';
import { onConsole, signIn } from './support/journeys.ts';
import { type Product, startProduct } from './support/product.ts';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The console's own API calls, made from the signed-in page (its session cookie, its organization). */
async function api(page: Page, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  return page.evaluate(
    async ({ method, url, body, headers }) => {
      const token = decodeURIComponent(/(?:^|; )access_token=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const organizations = await fetch('/api/organizations', { headers: { authorization: `Bearer ${token}` } });
      const organizationId = (await organizations.json()).results[0].id as string;
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          currentidentity: organizationId,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
    { method, url, body, headers },
  );
}

/** Screenshots for review, also kept under /tmp/shots-audit. */
async function shot(page: Page, name: string) {
  await snap(page, name);
  mkdirSync('/tmp/shots-audit', { recursive: true });
  copyFileSync(path.join(artifacts, `${name}.png`), path.join('/tmp/shots-audit', `${name}.png`));
}

describe('the activity log, as an organization reads it', () => {
  it('shows who did what, with filters kept in the URL, in English and Japanese, on desktop and phone', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await signIn(page, product, 'demo@example.com', 'Demo-Passw0rd!');

    // A morning's work: a schema, an API key that issues, a revocation, a verification, a webhook.
    const schema = await api(page, 'POST', '/api/schemas', {
      name: 'Work Certificate',
      attributes: [
        { name: 'role', type: 'TEXT' },
        { name: 'years', type: 'NUMBER' },
      ],
    });
    const key = await api(page, 'POST', '/api/integrations/keys', { name: 'HR system' });
    const basic = `Basic ${btoa(`${key.key}:${key.secret}`)}`;
    const issue = (first_name: string, last_name: string, headers: Record<string, string> = {}) =>
      api(
        page,
        'POST',
        '/api/credentials/with-recipient',
        {
          credential: { name: 'Work Certificate', schema_id: schema.id, claims: { role: 'Engineer', years: '4' } },
          recipient: { email: `${first_name.toLowerCase()}@example.com`, first_name, last_name },
        },
        headers,
      );
    await issue('Kim', 'Lee');
    const ana = await issue('Ana', 'Ruiz', { authorization: basic });
    await api(page, 'PATCH', '/api/credentials/revoke', { credentials: [ana.id] });
    const years = schema.attributes.find((a: { name: string }) => a.name === 'years');
    await api(page, 'POST', '/api/verifications', {
      name: 'Senior engineers',
      schema_id: schema.id,
      type: 'MULTI',
      attributes: [{ attribute_id: years.id, operator: 'BIGGER', value: '3' }],
    });
    await api(page, 'POST', '/api/webhooks', { url: 'https://hooks.example.com/hr', events: ['credential.claimed'] });

    // A CSV import by the key: two events (started by the key, completed by the platform), whatever its size.
    const imported = await page.evaluate(
      async ({ basic, schemaId }) => {
        const form = new FormData();
        form.set('schema_id', schemaId);
        const csv =
          'recipient_first_name,recipient_last_name,recipient_email,role,years\nMin,Park,min@example.com,Designer,2\nBad,Row,not-an-email,x,y\n';
        form.set('file', new Blob([csv], { type: 'text/csv' }), 'staff.csv');
        const response = await fetch('/api/credentials/import', {
          method: 'POST',
          headers: { authorization: basic },
          body: form,
        });
        return response.status;
      },
      { basic, schemaId: schema.id },
    );
    expect(imported).toBe(202);
    await expect
      .poll(async () => (await api(page, 'GET', '/api/audit-events?filter.action=credential_import.completed')).total, {
        timeout: 30_000,
      })
      .toBe(1);

    await page.getByTestId('nav-activity').click();
    await page.waitForURL(onConsole(product, '/activity'));
    const table = page.getByTestId('activity-table');
    await table.waitFor();
    await expect.poll(() => table.locator('[data-testid^="activity-row-"]').count()).toBe(9);
    const text = await table.textContent();
    expect(text).toContain('revoked the credential Work Certificate of Ana Ruiz');
    expect(text).toContain('issued the credential Work Certificate to Ana Ruiz');
    expect(text).toContain('HR system');
    expect(text).toContain('API key');
    expect(text).toContain('finished importing Work Certificate: 1 credential created, 1 row with errors');
    await shot(page, 'activity-1280-en');

    // Filters land in the URL and survive a reload.
    await page.getByLabel('Activity type').click();
    await page.getByRole('option', { name: 'Credentials' }).click();
    await page.waitForURL((url) => url.searchParams.get('category') === 'credentials');
    await expect.poll(() => table.locator('[data-testid^="activity-row-"]').count()).toBe(5);
    await page.reload();
    await page.getByTestId('activity-table').waitFor();
    await expect.poll(() => page.locator('[data-testid^="activity-row-"]').count()).toBe(5);
    await shot(page, 'activity-1280-en-filtered');

    await page.goto(`${product.consoleUrl}/activity?lang=ja`);
    await page.getByTestId('activity-table').waitFor();
    expect(await page.getByTestId('activity-table').textContent()).toContain(
      'Ana Ruiz さんの証明書 Work Certificate を失効しました',
    );
    await shot(page, 'activity-1280-ja');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('activity-table').waitFor();
    await shot(page, 'activity-390-ja');
    await page.goto(`${product.consoleUrl}/activity?lang=en`);
    await page.getByTestId('activity-table').waitFor();
    await shot(page, 'activity-390-en');
    expect(problems).toEqual([]);
    await context.close();
  });
});
