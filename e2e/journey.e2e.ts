import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
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

const onConsole = (path: string) => (url: URL) => url.origin === product.consoleUrl && url.pathname.startsWith(path);

async function fillAccountCenterOrganization(page: Page, name: string, description: string) {
  await page.locator('#create-organization-form').waitFor();
  await page.locator('#field-name').fill(name);
  await page.locator('#field-description').fill(description);
  await page.locator('#create-organization-submit').click();
}

describe('a new user, in real Chromium, across the account center and the console', () => {
  it('signs up, creates an organization, edits settings, reads Japanese, switches organization and logs out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));

    // Signed out: every console path leads to /intro.
    await page.goto(`${product.consoleUrl}/schemas`);
    await page.waitForURL(onConsole('/intro'));
    await expect.poll(() => page.getByTestId('intro-terms').textContent()).toMatch(/Terms of Use/);

    // Sign up at the account center (prompt=create opens its sign-up form first).
    await page.getByTestId('intro-create-account').click();
    await page.waitForURL((url) => url.origin === product.idUrl);
    await page.locator('#sign-up-form').waitFor();
    await page.locator('#field-firstName').fill('Ada');
    await page.locator('#field-lastName').fill('Lovelace');
    await page.locator('#field-username').fill('ada');
    await page.locator('#field-email').fill('ada@example.com');
    // A weak password is refused with the rule, and the other values are kept.
    await page.locator('#field-password').fill('weakpass');
    await page.locator('#sign-up-submit').click();
    await page.locator('#field-password-error').waitFor();
    expect(await page.locator('#field-email').inputValue()).toBe('ada@example.com');
    await page.locator('#field-password').fill('Analytical-Engine1!');
    await page.locator('#sign-up-submit').click();

    // The organization step, then back to the console, signed in, with the organization.
    await fillAccountCenterOrganization(page, 'Analytical Society', 'Mathematics for all');
    await page.waitForURL(onConsole('/credentials'), { timeout: 30_000 });
    await expect.poll(() => page.getByTestId('org-switcher').textContent()).toContain('Analytical Society');
    await snap(page, 'desktop-credentials-en');

    // Settings: profile edit persists.
    await page.getByTestId('nav-settings').click();
    await page.waitForURL(onConsole('/settings'));
    await page.getByTestId('settings-job-title').fill('Chief Analyst');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => page.getByTestId('notification').first().textContent()).toBeTruthy();
    await page.reload();
    await expect.poll(() => page.getByTestId('settings-job-title').inputValue()).toBe('Chief Analyst');

    // Japanese: the whole console switches, and stays after a reload.
    await page.getByTestId('settings-language').selectOption('ja');
    await expect.poll(() => page.getByTestId('nav-credentials').textContent()).toContain('証明書');
    await page.reload();
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toContain('設定');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    await snap(page, 'desktop-settings-ja');

    // A second organization, created at the account center, arrives in the switcher.
    await page.getByTestId('org-switcher').click();
    await page.getByTestId('create-organization').click();
    await page.waitForURL((url) => url.origin === product.idUrl);
    await fillAccountCenterOrganization(page, 'Difference Engine Ltd', 'Calculating machines');
    await page.waitForURL(onConsole('/credentials'), { timeout: 30_000 });
    await page.getByTestId('org-switcher').click();
    const options = page.locator('[data-testid^="org-option-"]');
    await expect.poll(() => options.count()).toBe(2);
    const target = options.filter({ hasText: 'Difference Engine Ltd' });
    const targetId = (await target.getAttribute('data-testid'))!.replace('org-option-', '');
    await target.click();
    await expect.poll(() => page.getByTestId('org-switcher').textContent()).toContain('Difference Engine Ltd');
    await page.getByTestId('nav-organization').click();
    await page.waitForURL(onConsole(`/organization/${targetId}`));

    // Log out: tokens gone, back on /intro, and the console stays closed.
    await page.getByTestId('logout').click();
    await page.waitForURL(onConsole('/intro'));
    const cookies = await context.cookies(product.consoleUrl);
    expect(cookies.filter((c) => /token/.test(c.name))).toEqual([]);
    await page.goto(`${product.consoleUrl}/settings`);
    await page.waitForURL(onConsole('/intro'));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works at a mobile width with the slide-out menu, signing in with the demo account', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${product.consoleUrl}/`);
    await page.waitForURL(onConsole('/intro'));
    await snap(page, 'mobile-intro-en');
    await page.getByTestId('intro-sign-in').click();
    await page.waitForURL((url) => url.origin === product.idUrl);
    await page.locator('#field-login').fill('demo@example.com');
    await page.locator('#field-password').fill('Demo-Passw0rd!');
    await page.locator('#sign-in-submit').click();
    await page.waitForURL(onConsole('/credentials'), { timeout: 30_000 });

    // The side menu is hidden until the top bar's button slides it out.
    await expect.poll(() => page.getByTestId('nav-schemas').isVisible()).toBe(false);
    await page.getByTestId('mobile-menu-button').click();
    await expect.poll(() => page.getByTestId('nav-schemas').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('org-switcher').textContent()).toContain('Demo Organization');
    await snap(page, 'mobile-menu-open');
    await page.getByTestId('nav-organization').click();
    await page.waitForURL(onConsole('/organization/'));
    await expect.poll(() => page.getByTestId('nav-schemas').isVisible()).toBe(false);

    await page.getByTestId('mobile-menu-button').click();
    await page.getByTestId('logout').click();
    await page.waitForURL(onConsole('/intro'));
    await context.close();
  });
});
