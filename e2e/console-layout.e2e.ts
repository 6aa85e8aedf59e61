import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { onConsole, sessionHeaders, signIn } from './support/journeys.ts';
import { type Product, runAdmin, startProduct } from './support/product.ts';

/**
 * What a new organization meets first, with realistic data, at the widths people use (1280 and 1024 px beside
 * the side menu, 390 px on a phone): where signing in lands, the API key and webhook tables, the verification
 * rule's condition in every language, and a deleted verification. Layout is measured in the browser.
 */

let product: Product;
let browser: Browser;
let organizationId: string;
/** The demo organization's API key (HTTP Basic). */
let authorization = '';

/** Calls the API with the demo organization's API key: GET, or POST with a body. */
async function api(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${product.consoleUrl}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, `${path}: ${response.status}`).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

const KEY_NAMES = [
  'Student information system (Banner) nightly import',
  'alumni-relations-office-zapier-integration',
  'Salesforce CRM production sync',
  'HR',
];
const WEBHOOK_URL = 'https://hooks.example-university.edu/credential-platform/events/verification-completed';

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  organizationId = runAdmin(product, ['org', 'list'])
    .stdout.split('\n')
    .find((line) => line.includes('Demo Organization'))!
    .split(' ')[0]!;
  for (const name of KEY_NAMES) {
    const created = runAdmin(product, ['api-key', 'create', '--org', organizationId, '--name', name]);
    const key = /key: (\S+)/.exec(created.stdout)?.[1];
    const secret = /secret: (\S+)/.exec(created.stdout)?.[1];
    authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  }
  // Webhooks are an admin's to register (API keys act with member rights): the demo admin's session does it.
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, product, 'demo@example.com', 'Demo-Passw0rd!');
  const response = await fetch(`${product.consoleUrl}/api/webhooks`, {
    method: 'POST',
    headers: { ...(await sessionHeaders(context, organizationId)), 'content-type': 'application/json' },
    body: JSON.stringify({
      url: WEBHOOK_URL,
      description: 'Admissions office: marks applicants as verified',
      events: ['verification.completed', 'credential.claimed', 'credential.revoked'],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** A signed-in demo user at a window width, in a language (stored as the console stores a choice). */
async function signedIn(width: number, language = 'en'): Promise<{ context: BrowserContext; page: Page }> {
  const phone = width < 600;
  const context = await browser.newContext({
    viewport: { width, height: phone ? 844 : 900 },
    isMobile: phone,
    hasTouch: phone,
  });
  await context.addInitScript((lang) => window.localStorage.setItem('lang', lang), language);
  const page = await context.newPage();
  await signIn(page, product, 'demo@example.com', 'Demo-Passw0rd!');
  // Signing in ends on the organization's credential list: a page.goto before that landing can be overtaken by it
  // (seen on a loaded machine: the integrations page replaced by the list while the test waited for its table).
  await page.waitForURL(onConsole(product, `/credentials/${organizationId}`));
  return { context, page };
}

describe('the console as a new organization first meets it', () => {
  it("lands on the organization's credential list, with a dismissible hint for the missing logo", async () => {
    const { context, page } = await signedIn(1280);
    await page.waitForURL(onConsole(product, `/credentials/${organizationId}`));
    await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
    expect(await page.getByTestId('complete-profile').count()).toBe(0);
    const hint = page.getByTestId('profile-hint');
    expect(await hint.getAttribute('data-missing')).toBe('logo');
    await snap(page, 'landing-hint-en');
    await hint.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => hint.count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
    expect(await hint.count()).toBe(0);
    await context.close();
  });

  it('keeps API key names and webhook addresses readable at 1280 px, and lists them as cards at 1024 px', async () => {
    const { context, page } = await signedIn(1280);
    await page.goto(`${product.consoleUrl}/integrations`);
    const table = page.getByTestId('integrations-table');
    await table.waitFor();
    expect(await table.evaluate((el) => el.tagName)).toBe('TABLE');
    for (const name of KEY_NAMES) {
      const cell = table.locator('[data-testid^="integration-name-"]', { hasText: name });
      const box = (await cell.boundingBox())!;
      // Never squeezed: the column keeps its minimum, and a name takes at most three lines.
      expect(box.width, name).toBeGreaterThanOrEqual(180);
      expect(box.height, name).toBeLessThanOrEqual(3 * 24);
    }
    // The tables fit: no horizontal scrolling inside their cards, none on the page.
    for (const id of ['integrations-table', 'webhooks-table']) {
      const overflow = await page
        .getByTestId(id)
        .evaluate((el) => el.scrollWidth - (el.parentElement as HTMLElement).clientWidth);
      expect(overflow, id).toBeLessThanOrEqual(0);
    }
    const address = page.locator('[data-testid^="webhook-url-"]').first();
    expect((await address.boundingBox())!.width).toBeGreaterThanOrEqual(190);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await snap(page, 'integrations-1280-en');

    await page.setViewportSize({ width: 1024, height: 900 });
    await expect.poll(() => table.evaluate((el) => el.tagName)).toBe('UL');
    expect(await page.getByTestId('webhooks-table').evaluate((el) => el.tagName)).toBe('UL');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await snap(page, 'integrations-1024-en');
    await context.close();
  });

  for (const language of ['en', 'ja', 'es', 'ko']) {
    it(`shows every rule condition whole in ${language}, at 1280 and 390 px`, async () => {
      const { context, page } = await signedIn(1280, language);
      const schemas = (await api('/schemas?page=1&limit=100')).results as { id: string; slug: string }[];
      const work = schemas.find((s) => s.slug === 'work-certificate')!;
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await page.goto(`${product.consoleUrl}/verifications/create`);
        const schemaSelect = page.getByTestId('verification-schema');
        await expect
          .poll(() => schemaSelect.locator(`option[value="${work.id}"]`).count(), { timeout: 30_000 })
          .toBe(1);
        await schemaSelect.selectOption(work.id);
        await page.getByTestId('rule-add').click();
        await page.getByTestId('rule-attribute-0').selectOption({ index: 1 });
        const operator = page.getByTestId('rule-operator-0');
        for (const value of ['EQUAL', 'NOT', 'BIGGER', 'SMALLER']) {
          await operator.selectOption(value);
          // The selected label's width against the room inside the select (its padding keeps the arrow's room).
          const fit = await operator.evaluate((select) => {
            const element = select as HTMLSelectElement;
            const style = getComputedStyle(element);
            const context2d = document.createElement('canvas').getContext('2d')!;
            context2d.font = style.font;
            const label = element.options[element.selectedIndex]!.textContent ?? '';
            const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return { label, text: context2d.measureText(label).width, room };
          });
          expect(fit.text, `${language} ${width} "${fit.label}"`).toBeLessThanOrEqual(fit.room + 0.5);
        }
        await operator.selectOption('BIGGER');
        await page.getByTestId('rule-row-0').scrollIntoViewIfNeeded();
        await snap(page, `verification-rule-${width}-${language}`);
      }
      await context.close();
    });
  }

  it('says a deleted verification no longer exists and leads back to the list, in English and Japanese', async () => {
    const schemas = (await api('/schemas?page=1&limit=100')).results as { id: string; slug: string }[];
    const verification = await api('/verifications', {
      name: 'Staff entrance',
      schema_id: schemas.find((s) => s.slug === 'work-certificate')!.id,
      type: 'MULTI',
    });
    const deleted = await fetch(`${product.consoleUrl}/api/verifications/${verification.id}`, {
      method: 'DELETE',
      headers: { authorization },
    });
    expect(deleted.status).toBe(204);
    for (const [language, title] of [
      ['en', 'This verification no longer exists'],
      ['ja', 'この検証はもう存在しません'],
    ] as const) {
      const { context, page } = await signedIn(1280, language);
      await page.goto(`${product.consoleUrl}/verifications/edit/${verification.id}`);
      const card = page.getByTestId('verification-form-error-not-found');
      await card.waitFor();
      expect(await card.textContent()).toContain(title);
      expect(await page.getByTestId('verification-form-error-retry').count()).toBe(0);
      await snap(page, `verification-gone-${language}`);
      await page.getByTestId('verification-form-error-back').click();
      await page.waitForURL(onConsole(product, '/verifications'));
      await context.close();
    }
  });
});
