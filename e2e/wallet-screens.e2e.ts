import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { type Product, runAdmin, startProduct } from './support/product.ts';

/**
 * Every wallet screen at a phone width, in English and in Korean, with real data: a credential issued by
 * the demo organization (through its API key) and a verification request it made. The screenshots land in
 * e2e/artifacts/wallet-<screen>-<language>.png.
 */

let product: Product;
let browser: Browser;
let api: (path: string, body?: unknown) => Promise<Record<string, unknown>>;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const organizationId = runAdmin(product, ['org', 'list'])
    .stdout.split('\n')
    .find((line) => line.includes('Demo Organization'))
    ?.split(' ')[0];
  const created = runAdmin(product, ['api-key', 'create', '--org', organizationId!, '--name', 'Screens']);
  const key = /key: (\S+)/.exec(created.stdout)?.[1];
  const secret = /secret: (\S+)/.exec(created.stdout)?.[1];
  const authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  api = async (path, body) => {
    const response = await fetch(`${product.consoleUrl}/api${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    expect(response.status, `${path}: ${response.status}`).toBeLessThan(300);
    return (await response.json()) as Record<string, unknown>;
  };
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const PASSCODE = 'screens-passcode-1';

async function offerLink() {
  const schemas = (await api('/schemas?page=1&limit=100')).results as { id: string; name: string }[];
  const work = schemas.find((s) => s.name === 'Work Certificate')!;
  const credential = await api('/credentials/with-recipient', {
    credential: {
      name: 'Employment record',
      schema_id: work.id,
      claims: {
        first_name: 'Grace',
        last_name: 'Hopper',
        date_of_birth: '1906-12-09',
        job_title: 'Rear Admiral',
        location: 'Arlington',
        employment_type: 'Full time',
        start_date: '1943-12-01',
        end_date: '1986-08-14',
        description: 'COBOL',
      },
    },
    recipient: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
  });
  const connect = await api(`/credentials/${credential.id}/connect`);
  return { offer: connect.connection_url as string, schemaId: work.id };
}

async function requestLink(schemaId: string) {
  const verification = await api('/verifications', { name: 'Staff entrance', schema_id: schemaId, type: 'MULTI' });
  const individual = await api('/verifications/individuals', { verification_id: verification.id });
  const connect = await api(`/verifications/${individual.id}/connect`);
  return connect.connection_url as string;
}

async function shoot(page: Page, screen: string, language: string) {
  // Let transitions settle (chips and dialogs fade in).
  await page.waitForTimeout(400);
  await snap(page, `wallet-${screen}-${language}`);
}

describe('wallet screens at a phone width', () => {
  for (const language of ['en', 'ko'] as const) {
    it(`every screen in ${language}`, async () => {
      const problems: string[] = [];
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: language === 'ko' ? 'ko-KR' : 'en-US',
      });
      const page = await context.newPage();
      page.on('pageerror', (err) => problems.push(err.message));
      const { offer, schemaId } = await offerLink();

      await page.goto(`${product.walletUrl}/receive?offer=${encodeURIComponent(offer)}`);
      await page.getByTestId('wallet-onboarding').waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
      await shoot(page, 'onboarding', language);
      await page.getByTestId('wallet-passcode').fill(PASSCODE);
      await page.getByTestId('wallet-passcode-confirm').fill(PASSCODE);
      await page.getByTestId('wallet-create').click();
      await page.getByTestId('offer-review').waitFor({ timeout: 30_000 });
      await shoot(page, 'receive-review', language);
      await page.getByTestId('offer-accept').click();
      await page.getByTestId('credential-received').waitFor({ timeout: 30_000 });
      await shoot(page, 'receive-done', language);

      // A reload within the idle time (5 minutes by default) opens without the passcode.
      await page.goto(`${product.walletUrl}/`);
      const card = page.getByTestId('credential-card').first();
      await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('valid');
      expect(await page.getByTestId('wallet-unlock').count()).toBe(0);
      await shoot(page, 'credentials', language);
      // "Lock now" in the top bar: the passcode again, also after a reload.
      await page.getByTestId('lock-now').click();
      await page.getByTestId('wallet-unlock').waitFor({ timeout: 30_000 });
      await page.reload();
      await page.getByTestId('wallet-unlock').waitFor({ timeout: 30_000 });
      await shoot(page, 'unlock', language);
      await page.getByTestId('wallet-passcode').fill(PASSCODE);
      await page.getByTestId('wallet-unlock').click();
      await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('valid');
      await card.click();
      await page.getByTestId('credential-detail').waitFor();
      await shoot(page, 'credential-detail', language);

      // A request link opened in the same browser within the idle time goes straight to the consent screen.
      const request = await requestLink(schemaId);
      await page.goto(`${product.walletUrl}/present?request=${encodeURIComponent(request)}`);
      await page.getByTestId('present-consent').waitFor({ timeout: 30_000 });
      await shoot(page, 'present-consent', language);
      await page.getByTestId('present-share').click();
      await expect
        .poll(() => page.getByTestId('present-outcome').getAttribute('data-outcome'), { timeout: 30_000 })
        .toBe('shared');
      await shoot(page, 'present-outcome', language);

      for (const [screen, path] of [
        ['history', '/history'],
        ['scan', '/scan'],
        ['settings', '/settings'],
      ] as const) {
        await page.evaluate((to) => {
          window.history.pushState({}, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        await page.waitForURL((url) => url.pathname === path);
        if (screen === 'history') await expect.poll(() => page.getByTestId('history-item').count()).toBe(1);
        await shoot(page, screen, language);
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
