import { createHmac } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimCredential, fetchHttp, makeHolder, presentCredential } from '../apps/api/test/support/wallet.ts';
import { launchBrowser, snap } from './support/browser.ts';
import { sessionHeaders, signIn } from './support/journeys.ts';
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

let demoOrganizationId = '';

/** The demo organization's id and an API key for it (what an integrator would have). */
function integratorKey() {
  const organizations = runAdmin(product, ['org', 'list']);
  const organizationId = organizations.stdout
    .split('\n')
    .find((line) => line.includes('Demo Organization'))
    ?.split(' ')[0];
  expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);
  demoOrganizationId = organizationId!;
  const created = runAdmin(product, ['api-key', 'create', '--org', organizationId!, '--name', 'E2E']);
  const key = /key: (\S+)/.exec(created.stdout)?.[1];
  const secret = /secret: (\S+)/.exec(created.stdout)?.[1];
  return { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
}

describe('verification in the console and on the holder page', () => {
  it('creates a reusable verification with a rule; the holder page shows the QR and moves to success or failure by itself', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await signIn(page, product, 'demo@example.com', 'Demo-Passw0rd!');

    // The console: a reusable verification of Work Certificates whose job title must be "Rear Admiral".
    await page.goto(`${product.consoleUrl}/verifications/create`);
    await page.getByTestId('verification-name').fill('Admirals only');
    await page.getByTestId('verification-description').fill('Checks the job title on a work certificate.');
    const schemaSelect = page.getByTestId('verification-schema');
    await expect.poll(() => schemaSelect.locator('option', { hasText: 'Work Certificate' }).count()).toBe(1);
    await schemaSelect.selectOption({ label: 'Work Certificate' });
    await page.getByTestId('verification-type-MULTI').click();
    await page.getByTestId('rule-add').click();
    await page.getByTestId('rule-attribute-0').selectOption({ label: 'job_title' });
    await page.getByTestId('rule-operator-0').selectOption('EQUAL');
    await page.getByTestId('rule-value-0').fill('Rear Admiral');
    await snap(page, 'verification-form-en');
    await page.getByTestId('verification-save').click();
    await page.waitForURL((url) => url.pathname === '/verifications');
    const row = page.locator('[data-testid^="verification-row-"]', { hasText: 'Admirals only' }).first();
    await row.waitFor();
    const verificationId = (await row.getAttribute('data-testid'))!.slice('verification-row-'.length);
    await snap(page, 'verifications-list-en');

    // A credential that meets the rule, claimed by a holder (a standard OpenID4VCI client).
    const integrator = integratorKey();
    const schemas = await fetch(`${product.consoleUrl}/api/schemas?page=1&limit=100`, { headers: integrator }).then(
      (r) => r.json(),
    );
    const work = schemas.results.find((s: { name: string }) => s.name === 'Work Certificate');
    const issue = async (jobTitle: string) => {
      const created = await fetch(`${product.consoleUrl}/api/credentials/with-recipient`, {
        method: 'POST',
        headers: { ...integrator, 'content-type': 'application/json' },
        body: JSON.stringify({
          credential: {
            name: 'Employment record',
            schema_id: work.id,
            claims: {
              first_name: 'Grace',
              last_name: 'Hopper',
              date_of_birth: '1906-12-09',
              job_title: jobTitle,
              location: 'Arlington',
              employment_type: 'Full time',
              start_date: '1943-12-01',
              end_date: '1986-08-14',
              description: 'COBOL',
            },
          },
          recipient: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
        }),
      }).then((r) => r.json());
      const connect = await fetch(`${product.consoleUrl}/api/credentials/${created.id}/connect`).then((r) => r.json());
      const holder = await makeHolder();
      return { holder, credential: await claimCredential(fetchHttp, connect.connection_url, holder) };
    };
    const admiral = await issue('Rear Admiral');

    // The holder opens the link on a phone: a new attempt, a QR code and an Open-in-wallet button.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const holderPage = await phone.newPage();
    holderPage.on('pageerror', (err) => problems.push(err.message));
    // The integrator signs the link for its customer with the verification's link secret, so that the
    // result answers for crm-1001 (an unsigned ?customer= would be a label only). The secret is an admin's to
    // hand over (API keys may not read it): the signed-in admin's session reads it, as the console's panel does.
    const session = await sessionHeaders(context, demoOrganizationId);
    const secretResponse = await fetch(`${product.consoleUrl}/api/verifications/${verificationId}/link-secret`, {
      headers: session,
    });
    expect(secretResponse.status).toBe(200);
    const { secret } = (await secretResponse.json()) as { secret: string };
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const signature = createHmac('sha256', secret).update(`${verificationId}.crm-1001.${expires}`).digest('base64url');
    await holderPage.goto(
      `${product.consoleUrl}/connect/redirect/${verificationId}?customer=crm-1001&expires=${expires}&signature=${signature}`,
    );
    await holderPage.waitForURL((url) => url.pathname.startsWith('/connect/verification/'));
    const status = holderPage.getByTestId('verification-status');
    await expect.poll(() => status.getAttribute('data-status')).toBe('CREATED');
    const walletLink = await holderPage.locator('a[href*="/present?request="]').first().getAttribute('href');
    expect(walletLink).toContain(encodeURIComponent('openid4vp://'));
    await snap(holderPage, 'verification-holder-qr-en');

    // The wallet answers; the page moves to success by itself.
    const openid4vpUrl = decodeURIComponent(new URL(walletLink!).searchParams.get('request')!);
    const answer = await presentCredential(fetchHttp, openid4vpUrl, admiral.credential, admiral.holder);
    expect(answer.status).toBe(200);
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 15_000 }).toBe('VERIFIED');
    await snap(holderPage, 'verification-holder-success-en');

    // Another visit with a credential that does not meet the rule: 'Verification Failed'.
    const engineer = await issue('Engineer');
    await holderPage.goto(`${product.consoleUrl}/connect/redirect/${verificationId}?lang=ja`);
    await holderPage.waitForURL((url) => url.pathname.startsWith('/connect/verification/'));
    await expect.poll(() => status.getAttribute('data-status')).toBe('CREATED');
    const secondLink = await holderPage.locator('a[href*="/present?request="]').first().getAttribute('href');
    const secondUrl = decodeURIComponent(new URL(secondLink!).searchParams.get('request')!);
    await presentCredential(fetchHttp, secondUrl, engineer.credential, engineer.holder);
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 15_000 }).toBe('FAILED');
    await snap(holderPage, 'verification-holder-failed');

    // The console's history shows both attempts, the failure in words.
    await page.goto(`${product.consoleUrl}/verifications`);
    await page.getByTestId(`verification-history-${verificationId}`).first().click();
    const history = page.getByTestId('verification-history-list');
    await expect.poll(() => history.textContent(), { timeout: 15_000 }).toContain('crm-1001');
    await expect.poll(() => history.textContent()).toContain('Rear Admiral');
    await snap(page, 'verification-history-en');

    // Integrators read the result by customer id with their API key.
    const result = await fetch(`${product.consoleUrl}/api/verifications/${verificationId}/individuals/crm-1001`, {
      headers: integrator,
    }).then((r) => r.json());
    expect(result).toMatchObject({
      status: 'VERIFIED',
      customer_verified: true,
      presented_claims: { job_title: 'Rear Admiral' },
      issuer_trust: { admitted: true, reason: 'PLATFORM_VERIFIED_ORGANIZATION' },
    });
    expect(problems).toEqual([]);
    await phone.close();
    await context.close();
  });
});
