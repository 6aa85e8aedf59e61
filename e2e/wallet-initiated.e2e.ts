import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { type Product, runAdmin, startProduct } from './support/product.ts';

/**
 * Wallet-initiated issuance in real Chromium (OpenID4VCI 1.0 §5): the demo organization issues a credential to an
 * address; the holder, with no offer link, opens the wallet, names the issuer, chooses the credential, goes to the
 * issuer's page (which names the wallet's origin as the app the credentials go to), proves the address with the
 * e-mailed one-time code, and comes back to the wallet, which redeems the code (PAR, PKCE, DPoP) and stores it.
 */

let product: Product;
let browser: Browser;
let organizationId: string;
let api: (path: string, body?: unknown) => Promise<Record<string, unknown>>;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const demo = runAdmin(product, ['org', 'list'])
    .stdout.split('\n')
    .find((line) => line.includes('Demo Organization'));
  expect(demo).toBeDefined();
  organizationId = demo!.split(' ')[0]!;
  const created = runAdmin(product, ['api-key', 'create', '--org', organizationId, '--name', 'Wallet-initiated']);
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

const PASSCODE = 'wallet-initiated-1';
const RECIPIENT = 'lin.new-phone@example.com';

interface MailboxMessage {
  to: string[];
  subject: string | null;
  text: string | null;
}
const codeMails = async (): Promise<MailboxMessage[]> =>
  (
    (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results as MailboxMessage[]
  ).filter((m) => m.to.includes(RECIPIENT) && /\b\d{6}\b/.test(m.text ?? '') && /code/i.test(m.subject ?? ''));

describe('wallet-initiated issuance', () => {
  it('receives a credential from the issuer alone: address, one-time code, back to the wallet', async () => {
    const schemas = (await api('/schemas?page=1&limit=100')).results as { id: string; name: string }[];
    const work = schemas.find((s) => s.name === 'Work Certificate')!;
    const credential = await api('/credentials/with-recipient', {
      credential: {
        name: 'Employment record',
        schema_id: work.id,
        claims: {
          first_name: 'Lin',
          last_name: 'Chen',
          date_of_birth: '1990-02-03',
          job_title: 'Engineer',
          location: 'Taipei',
          employment_type: 'Full time',
          start_date: '2020-01-01',
          end_date: '2024-01-01',
          description: 'Platform',
        },
      },
      recipient: { email: RECIPIENT, first_name: 'Lin', last_name: 'Chen' },
    });
    // Its offer opens (as when the recipient's e-mail goes out): only an open offer can be claimed.
    await api(`/credentials/${credential.id}/connect`);
    const issuer = `${product.consoleUrl}/orgs/${organizationId}`;

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const page = await context.newPage();
    try {
      await page.goto(product.walletUrl);
      await page.getByTestId('wallet-passcode').fill(PASSCODE);
      await page.getByTestId('wallet-passcode-confirm').fill(PASSCODE);
      await page.getByTestId('wallet-create').click();
      await page.getByTestId('from-issuer').click();
      await page.getByTestId('issuer-address').fill(issuer);
      await page.getByTestId('issuer-continue').click();
      await page.getByTestId('issuer-choose').waitFor({ timeout: 30_000 });
      // Both forms are listed (the mdoc tagged): the SD-JWT VC is chosen here.
      const choices = page.getByTestId('issuer-configuration').filter({ hasText: 'Work Certificate' });
      expect(await choices.count()).toBe(2);
      await page
        .locator('[data-testid="issuer-configuration"]:not([data-configuration$="_mdoc"])')
        .filter({ hasText: 'Work Certificate' })
        .click();

      // The issuer's page, which says which app the credentials go to: this wallet.
      await page.waitForURL((url) => url.href.startsWith(`${issuer}/authorize`), { timeout: 30_000 });
      expect(await page.locator('[data-recipient-origin]').textContent()).toBe(new URL(product.walletUrl).origin);
      await page.locator('#email').fill(RECIPIENT);
      await page.getByRole('button', { name: 'Send code' }).click();
      await expect.poll(async () => (await codeMails()).length, { timeout: 30_000 }).toBeGreaterThan(0);
      const code = /\b(\d{6})\b/.exec((await codeMails()).at(-1)!.text!)![1]!;
      await page.locator('#code').fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();

      // Back in the wallet (unlocked again when the page opened it afresh): the credential is stored.
      await page.waitForURL((url) => url.href.startsWith(product.walletUrl), { timeout: 30_000 });
      const unlock = page.getByTestId('wallet-unlock');
      const received = page.getByTestId('credential-received');
      await expect
        .poll(async () => (await unlock.count()) + (await received.count()), { timeout: 30_000 })
        .toBeGreaterThan(0);
      if ((await unlock.count()) > 0) {
        await page.getByTestId('wallet-passcode').fill(PASSCODE);
        await unlock.click();
      }
      await received.waitFor({ timeout: 60_000 });
      expect(new URL(page.url()).pathname).toMatch(/^\/credentials\//);
      expect(await page.textContent('body')).toContain('Engineer');
      await snap(page, 'wallet-initiated-received-en');
    } catch (err) {
      await snap(page, 'wallet-initiated-failed');
      throw err;
    } finally {
      await context.close();
    }
  });
});
