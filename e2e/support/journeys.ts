import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Product } from './product.ts';

export const onConsole = (product: Product, path: string) => (url: URL) =>
  url.origin === product.consoleUrl && url.pathname.startsWith(path);

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
