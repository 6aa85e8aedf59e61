import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { onConsole, signUpWithOrganization } from './support/journeys.ts';
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

interface MailboxMessage {
  id: string;
  to: string[];
  subject: string | null;
  text: string | null;
}
const mailbox = async (): Promise<MailboxMessage[]> =>
  (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results;

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), computed here as an authenticator app does. */
function totp(secretBase32: string, timestampMs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secretBase32) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timestampMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const person = {
  firstName: 'Radia',
  lastName: 'Perlman',
  username: 'radia',
  email: 'radia@example.com',
  password: 'Spanning-Tree1!',
};
const NEW_PASSWORD = 'Link-State-Routing2!';

async function logOut(page: Page) {
  await page.getByTestId('logout').click();
  // The console's sign-out, then the account center's (it submits itself), then back to /intro with the state
  // the console sent (RP-Initiated Logout 1.0 §3): only then has the provider's session ended.
  await page.waitForURL((url) => onConsole(product, '/intro')(url) && url.searchParams.has('state'), {
    timeout: 30_000,
  });
}

/** Intro → "Sign in": the account center must ask for the password (its session ended with the log-out). */
async function startSignIn(page: Page) {
  await page.getByTestId('intro-sign-in').click();
  await page.waitForURL((url) => url.origin === product.idUrl);
  await page.locator('#sign-in-form').waitFor();
}

async function submitPassword(page: Page, password: string) {
  await page.locator('#field-login').fill(person.email);
  await page.locator('#field-password').fill(password);
  await page.locator('#sign-in-submit').click();
}

describe('account security, as a person would go through it', () => {
  it('resets a forgotten password from the mailbox, turns on two-step sign-in, and logs out for real', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await signUpWithOrganization(page, product, person, { name: 'Routing Lab', description: 'Networks' });

    // 1. Log out, then "Sign in" asks for the password again (the account-center session ended too).
    await logOut(page);
    await startSignIn(page);

    // 2. Forgot password: the development mailbox receives the link.
    await page.locator('#forgot-password-link').click();
    await page.locator('#forgot-password-form').waitFor();
    await page.locator('#field-email').fill(person.email);
    await page.locator('#forgot-password-submit').click();
    await expect.poll(() => page.locator('#forgot-password-sent').textContent()).toContain(person.email);
    await expect
      .poll(async () => (await mailbox()).filter((m) => m.to.includes(person.email)).length, { timeout: 20_000 })
      .toBe(1);
    const mail = (await mailbox()).find((m) => m.to.includes(person.email))!;
    expect(mail.subject).toBe('Reset your password');
    const link = /https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail.text ?? '')![0];
    await page.goto(link);
    await page.locator('#field-newPassword').fill(NEW_PASSWORD);
    await page.locator('#field-confirmPassword').fill(NEW_PASSWORD);
    await page.locator('#reset-password-submit').click();
    await expect.poll(() => page.locator('#message-title').textContent()).toBe('Your password has been changed');
    // The link works once.
    await page.goto(link);
    await expect.poll(() => page.locator('#message-title').textContent()).toBe('This link is invalid or has expired');

    // The old password no longer signs in; the new one does.
    await page.goto(`${product.consoleUrl}/intro`);
    await startSignIn(page);
    await submitPassword(page, person.password);
    await expect.poll(() => page.locator('.alert-error').textContent()).toContain('Incorrect');
    await submitPassword(page, NEW_PASSWORD);
    await page.waitForURL(onConsole(product, '/credentials'), { timeout: 30_000 });

    // 3. Two-step sign-in: set up from the account page with a code computed here.
    await page.goto(`${product.idUrl}/account`);
    await page.locator('#turn-on-two-factor-link').click();
    await page.locator('#totp-qr').waitFor();
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.locator('#field-code').fill(totp(secret, Date.now()));
    await page.locator('#two-factor-setup-submit').click();
    await expect.poll(() => page.locator('#recovery-codes li').count()).toBe(10);
    await page.locator('#recovery-codes-done').click();
    await expect.poll(() => page.locator('#two-factor-status').getAttribute('data-enabled')).toBe('true');

    // The organization cannot require it from this (one-step) console session: the switch says why.
    await page.goto(`${product.consoleUrl}/organization`);
    const toggle = page.getByTestId('require-two-factor-switch').locator('input');
    await toggle.click();
    await page.getByTestId('two-factor-own-session-required').waitFor();
    expect(await toggle.isChecked()).toBe(false);

    // 4. Log out and sign in with both steps; then the organization can require it.
    await logOut(page);
    await startSignIn(page);
    await submitPassword(page, NEW_PASSWORD);
    await page.locator('#two-factor-form').waitFor();
    // The set-up used this time step's code; each step is accepted once, so the app's next code.
    await page.locator('#field-code').fill(totp(secret, Date.now() + 30_000));
    await page.locator('#two-factor-submit').click();
    await page.waitForURL(onConsole(product, '/credentials'), { timeout: 30_000 });
    await page.goto(`${product.consoleUrl}/organization`);
    await page.getByTestId('require-two-factor-switch').locator('input').click();
    await expect.poll(() => page.getByTestId('require-two-factor-switch').locator('input').isChecked()).toBe(true);
    await snap(page, 'account-security-organization-two-factor');

    // 5. After log out, "Sign in" asks for the password again, then the code.
    await logOut(page);
    await startSignIn(page);
    await submitPassword(page, NEW_PASSWORD);
    await page.locator('#two-factor-form').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
