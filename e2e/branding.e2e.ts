import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { signIn } from './support/journeys.ts';
import { logoPng } from './support/png.ts';
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

/** The demo organization's id and an API key for it (what an integrator would have). */
function integrator() {
  const organizationId = runAdmin(product, ['org', 'list'])
    .stdout.split('\n')
    .find((line) => line.includes('Demo Organization'))
    ?.split(' ')[0];
  expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);
  const created = runAdmin(product, ['api-key', 'create', '--org', organizationId!, '--name', 'Branding']);
  const key = /key: (\S+)/.exec(created.stdout)?.[1];
  const secret = /secret: (\S+)/.exec(created.stdout)?.[1];
  const authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  return async (path: string, body?: unknown) => {
    const response = await fetch(`${product.consoleUrl}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.ok, `${path}: ${response.status}`).toBe(true);
    return response.json();
  };
}

/** The band's colours as the browser paints them, and whether its logo image really loaded. */
async function band(page: Page, testId: string) {
  const element = page.getByTestId(`${testId}-band`);
  await element.waitFor();
  // The logo arrives after the band is painted (an image request of its own): give it time to load, then report
  // whether it did (a logo that never loads still fails the test's check below).
  await page
    .waitForFunction(
      (selector) => {
        const image = document.querySelector(selector);
        return image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0;
      },
      `[data-testid="${testId}-band"] img`,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  return element.evaluate((node) => {
    const style = getComputedStyle(node);
    const image = node.querySelector('img');
    return {
      text: node.textContent ?? '',
      background: style.backgroundColor,
      color: style.color,
      logoLoaded: Boolean(image?.complete && image.naturalWidth > 0),
      logoSrc: image?.getAttribute('src') ?? null,
    };
  });
}

describe("the organization's brand on what holders see", () => {
  it('sets a logo and a colour in the profile; the claim and verification pages show them, with labels', async () => {
    const problems: string[] = [];
    const staff = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const console = await staff.newPage();
    console.on('pageerror', (err) => problems.push(`console: ${err.message}`));
    await signIn(console, product, 'demo@example.com', 'Demo-Passw0rd!');

    // 1. The profile: a logo, then a light yellow that white text would not read on.
    await console.getByTestId('nav-organization').click();
    await console.getByTestId('organization-brand-color').waitFor();
    await console
      .getByTestId('logo-upload-input')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() });
    await console.getByTestId('organization-logo').waitFor({ timeout: 15_000 });
    await console.getByTestId('organization-brand-color').fill('#FFCC00');
    const contrast = console.getByTestId('organization-brand-color-contrast');
    await expect.poll(() => contrast.getAttribute('data-level')).toBe('dark');
    expect(await contrast.textContent()).toContain('near-black');
    expect((await band(console, 'organization-brand-color-preview-header')).color).toBe('rgb(17, 17, 17)');
    await console.getByTestId('organization-brand-color-save').click();
    await expect
      .poll(() => console.getByTestId('organization-brand-color-save').isDisabled(), { timeout: 15_000 })
      .toBe(true);
    await snap(console, 'branding-profile-en');
    await console.reload();
    await expect.poll(() => console.getByTestId('organization-brand-color').inputValue()).toBe('#ffcc00');

    // 2. A credential for a holder, and a verification asking for some of its claims.
    const call = integrator();
    const schemas = await call('/schemas?page=1&limit=100');
    const work = schemas.results.find((s: { slug: string }) => s.slug === 'work-certificate');
    const credential = await call('/credentials/with-recipient', {
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
    const verification = await call('/verifications', {
      name: 'Proof of employment',
      schema_id: work.id,
      type: 'MULTI',
      attributes: [],
      requested_attribute_ids: work.attributes
        .filter((a: { name: string }) => a.name === 'job_title' || a.name === 'start_date')
        .map((a: { id: string }) => a.id),
    });

    // 3. The claim page on a phone: "Issued by" the organization, its logo and colour, the claims by label.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const holder = await phone.newPage();
    holder.on('pageerror', (err) => problems.push(`holder: ${err.message}`));
    await holder.goto(credential.connect_url);
    await holder.getByTestId('claim-qr').waitFor();
    const claimBand = await band(holder, 'claim-issuer');
    expect(claimBand.text).toContain('Issued by');
    expect(claimBand.text).toContain('Demo Organization');
    expect(claimBand.text).toContain('Verified organization');
    expect(claimBand.background).toBe('rgb(255, 204, 0)');
    expect(claimBand.color).toBe('rgb(17, 17, 17)');
    expect(claimBand.logoLoaded).toBe(true);
    expect(claimBand.logoSrc).toMatch(new RegExp(`^${product.consoleUrl}/api/media/`));
    const labels = await holder.getByTestId('claim-labels').textContent();
    expect(labels).toContain('Job title');
    expect(labels).not.toContain('job_title');
    const walletButton = holder.getByTestId('claim-open-wallet');
    expect(await walletButton.evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(255, 204, 0)');
    // On a phone the wallet opens in the same tab.
    expect(await walletButton.getAttribute('target')).toBeNull();
    await snap(holder, 'branding-claim-mobile-en');

    // 4. On a desktop, "Open in wallet" opens a new tab and the claim page stays.
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const claimPage = await desktop.newPage();
    claimPage.on('pageerror', (err) => problems.push(`desktop: ${err.message}`));
    await claimPage.goto(`${credential.connect_url}?lang=ja`);
    await claimPage.getByTestId('claim-qr').waitFor();
    expect((await band(claimPage, 'claim-issuer')).text).toContain('発行者');
    expect(await claimPage.getByTestId('claim-labels').textContent()).toContain('職位');
    const [walletTab] = await Promise.all([
      desktop.waitForEvent('page'),
      claimPage.getByTestId('claim-open-wallet').click(),
    ]);
    await walletTab.waitForURL((url) => url.origin === product.walletUrl);
    expect(new URL(claimPage.url()).pathname).toBe(`/connect/credential/${credential.id}`);
    expect(await claimPage.getByTestId('claim-status').getAttribute('data-status')).toBe('ISSUED');
    await walletTab.close();

    // 5. The verification link: who asks, in its colours, and what it asks for by label.
    await holder.goto(`${product.consoleUrl}/connect/redirect/${verification.id}`);
    await holder.waitForURL((url) => url.pathname.startsWith('/connect/verification/'));
    await holder.getByTestId('verification-qr').waitFor();
    const verificationBand = await band(holder, 'verification-verifier');
    expect(verificationBand.text).toContain('Requested by');
    expect(verificationBand.text).toContain('Demo Organization');
    expect(verificationBand.background).toBe('rgb(255, 204, 0)');
    expect(verificationBand.logoLoaded).toBe(true);
    const asked = await holder.getByTestId('verification-claims').textContent();
    expect(asked).toContain('Job title');
    expect(asked).toContain('Start date');
    expect(asked).not.toContain('start_date');
    expect(await holder.getByText('Demo Organization asks you to share').count()).toBe(1);
    await snap(holder, 'branding-verification-mobile-en');

    expect(problems).toEqual([]);
    await Promise.all([staff.close(), phone.close(), desktop.close()]);
  });
});
