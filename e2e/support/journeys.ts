import type { BrowserContext, Page, Request } from 'playwright-core';
import { expect, onTestFailed } from 'vitest';
import { snap } from './browser.ts';
import type { Product } from './product.ts';

/**
 * Call in a test: should it fail, says where `page` stood and why it may have stopped there. It prints the
 * product's output, the page's address and text, the page's requests still without an answer (with how long
 * they have waited), whether the API answers its health endpoint within 5 s (a hung API or a stuck page), and
 * keeps a screenshot as e2e/artifacts/<name>-failed.png.
 */
export function reportOnFailure(page: Page, product: Product, name: string) {
  const pending = new Map<Request, number>();
  page.on('request', (request) => pending.set(request, Date.now()));
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  onTestFailed(async () => {
    const say = (line: string) => process.stderr.write(`${line}\n`);
    say(`product output:\n${product.output().slice(-6000)}`);
    const text = await page
      .locator('body')
      .innerText({ timeout: 5000 })
      .catch(() => '');
    say(`${name} at ${page.url()}: ${text.slice(0, 2000)}`);
    const now = Date.now();
    const waiting = [...pending].map(([request, since]) => `${request.method()} ${request.url()} (${now - since} ms)`);
    say(`${name}'s requests without an answer: ${waiting.join('; ') || 'none'}`);
    const started = Date.now();
    const health = await fetch(`${product.consoleUrl}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
      (response) => `answered ${response.status}`,
      (err: Error) => `did not answer (${err.name})`,
    );
    say(`the API's health endpoint ${health} after ${Date.now() - started} ms`);
    await snap(page, `${name}-failed`).catch(() => {});
  });
}

export const onConsole = (product: Product, path: string) => (url: URL) =>
  url.origin === product.consoleUrl && url.pathname.startsWith(path);

/**
 * After the wizard's "send": waits until the console leaves the wizard for the credential list. A send that takes
 * longer than 30 s is said with the product's output; one that takes more than 90 s fails the journey. (The
 * journeys once failed here now and then: their click on Send had landed while the e-mail preview arrived and
 * moved the button, see sendFromWizard.)
 */
export async function waitOffWizard(page: Page, product: Product, name: string) {
  const started = Date.now();
  await page.waitForURL((url) => onConsole(product, '/credentials/')(url) && !url.pathname.endsWith('/create'), {
    timeout: 90_000,
  });
  const seconds = (Date.now() - started) / 1000;
  if (seconds > 30) {
    process.stderr.write(
      `${name}: the wizard took ${seconds.toFixed(1)} s to leave its page after "send"\n` +
        `product output:\n${product.output().slice(-6000)}\n`,
    );
  }
}

/**
 * The wizard's last step: types the message, waits until the e-mail preview shows it, then sends. The preview
 * replaces its placeholder when the API's rendering arrives, which moves the Send button; a click made in that
 * instant can miss the button (the send flake of earlier runs: the page stayed on the wizard, no request made).
 */
export async function sendFromWizard(page: Page, message: string) {
  await page.getByTestId('email-message').fill(message);
  const preview = page.frameLocator('[data-testid="email-preview-frame"]');
  await expect
    .poll(
      () =>
        preview
          .locator('[data-role="message"]')
          .textContent({ timeout: 5000 })
          .catch(() => null),
      {
        timeout: 30_000,
      },
    )
    .toBe(message);
  await page.getByTestId('wizard-send').click();
}

/** A new person: signs up at the account center, creates an organization, lands in the console. */
export async function signUpWithOrganization(
  page: Page,
  product: Product,
  person: { firstName: string; lastName: string; username: string; email: string; password: string },
  organization: { name: string; description: string },
) {
  await page.goto(`${product.consoleUrl}/intro`);
  await page.getByTestId('intro-create-account').click();
  await page.waitForURL((url) => url.origin === product.idUrl);
  await page.locator('#sign-up-form').waitFor();
  await page.locator('#field-firstName').fill(person.firstName);
  await page.locator('#field-lastName').fill(person.lastName);
  await page.locator('#field-username').fill(person.username);
  await page.locator('#field-email').fill(person.email);
  await page.locator('#field-password').fill(person.password);
  await page.locator('#sign-up-submit').click();
  await page.locator('#create-organization-form').waitFor();
  await page.locator('#field-name').fill(organization.name);
  await page.locator('#field-description').fill(organization.description);
  await page.locator('#create-organization-submit').click();
  await page.waitForURL(onConsole(product, '/credentials'), { timeout: 30_000 });
  await expect.poll(() => page.getByTestId('org-switcher').textContent()).toContain(organization.name);
}

/** An existing account signs in through the account center. */
export async function signIn(page: Page, product: Product, login: string, password: string) {
  await page.goto(`${product.consoleUrl}/intro`);
  await page.getByTestId('intro-sign-in').click();
  await page.waitForURL((url) => url.origin === product.idUrl);
  await page.locator('#field-login').fill(login);
  await page.locator('#field-password').fill(password);
  await page.locator('#sign-in-submit').click();
  await page.waitForURL(onConsole(product, '/credentials'), { timeout: 30_000 });
}

/**
 * The signed-in console user's own API headers, read from the session cookies the console keeps (spec §7): for
 * what only a signed-in admin may call (API keys act with member rights).
 */
export async function sessionHeaders(context: BrowserContext, organizationId: string) {
  const cookies = await context.cookies();
  const token = cookies.find((c) => c.name === 'access_token')?.value;
  const type = cookies.find((c) => c.name === 'token_type')?.value ?? 'Bearer';
  expect(token, 'a signed-in console session').toBeTruthy();
  return {
    authorization: `${decodeURIComponent(type)} ${decodeURIComponent(token!)}`,
    currentidentity: organizationId,
  };
}
