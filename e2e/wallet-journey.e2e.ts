import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { reportOnFailure, sendFromWizard, signIn, waitOffWizard } from './support/journeys.ts';
import { type Product, startProduct } from './support/product.ts';

/**
 * The whole journey across every app, as people would do it: an organization user (console, account
 * center) issues a credential; the recipient (development mailbox, claim page, wallet) accepts it; the
 * organization verifies it (console, holder page, wallet); then revokes it, and the wallet and the
 * verifier see the revocation.
 */

let product: Product;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const PASSCODE = 'correct-horse-42';
const browserErrors: string[] = [];
const RECIPIENT = 'ada.member@example.com';

interface MailboxMessage {
  id: string;
  to: string[];
  html: string | null;
}
const mailbox = async (): Promise<MailboxMessage[]> =>
  (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results;

/** The wallet asks for its passcode whenever a page opens it afresh; unlock if it does. */
async function unlockIfAsked(wallet: Page) {
  const unlock = wallet.getByTestId('wallet-unlock');
  const ready = wallet.locator(
    '[data-testid="offer-accept"], [data-testid="present-consent"], [data-testid="credential-card"]',
  );
  await expect.poll(async () => (await unlock.count()) + (await ready.count()), { timeout: 30_000 }).toBeGreaterThan(0);
  if ((await unlock.count()) > 0) {
    await wallet.getByTestId('wallet-passcode').fill(PASSCODE);
    await unlock.click();
  }
}

/** The holder opens a verification link, taps Open in wallet, consents; answers the holder page's status. */
async function presentWithWallet(holder: Page, verificationId: string, customer: string) {
  await holder.goto(`${product.consoleUrl}/connect/redirect/${verificationId}?customer=${customer}`);
  await holder
    .waitForURL((url) => url.pathname.startsWith('/connect/verification/'))
    .catch(async (err) => {
      await snap(holder, `wallet-journey-redirect-failed-${customer}`);
      throw new Error(`${(err as Error).message}\nBrowser errors: ${browserErrors.join('\n')}`);
    });
  const holderPageUrl = holder.url();
  await expect.poll(() => holder.getByTestId('verification-status').getAttribute('data-status')).toBe('CREATED');
  await holder.locator('a[href*="/present?request="]').first().click();
  await holder.waitForURL((url) => url.origin === product.walletUrl);
  await unlockIfAsked(holder);
  await holder.getByTestId('present-consent').waitFor({ timeout: 30_000 });
  return holderPageUrl;
}

describe('the whole journey: issue, claim in the wallet, verify, revoke', () => {
  it('works end to end across account center, console, mailbox, wallet and holder pages', async () => {
    // What the product logged (warnings and errors), to tell a slow job from a failed one.
    const problems: string[] = [];
    const staff = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const console = await staff.newPage();
    // Should it fail: where the console stood (a wizard still on its page shows why), and whether the API answers.
    reportOnFailure(console, product, 'wallet-journey-console');
    console.on('pageerror', (err) => problems.push(`console: ${err.message}`));
    await signIn(console, product, 'demo@example.com', 'Demo-Passw0rd!');

    // 1. A schema of the organization's own.
    await console.getByTestId('nav-schemas').click();
    await console.getByTestId('schemas-create-button').click();
    await console.getByTestId('schema-name').fill('Library Membership');
    await console.getByTestId('schema-description').fill('Members of the city library');
    for (const [index, [name, type]] of [
      ['member_name', 'TEXT'],
      ['level', 'NUMBER'],
    ].entries()) {
      if (index > 0) await console.getByTestId('attribute-add').click();
      await console.getByTestId(`attribute-name-${index}`).fill(name!);
      await console.getByTestId(`attribute-type-${index}`).selectOption(type!);
    }
    await console.getByTestId('schema-publish').click();
    await console.getByTestId('schema-publish-confirm').click();
    await console.locator('[data-testid^="schema-row-"]', { hasText: 'Library Membership' }).first().waitFor();

    // 2. Issue it to a recipient and send the e-mail.
    await console.goto(`${product.consoleUrl}/credentials/create`);
    await console.locator('[data-testid^="wizard-schema-"]', { hasText: 'Library Membership' }).first().click();
    await console.getByTestId('wizard-next').click();
    await console.getByTestId('credential-name').fill('Library card');
    await console.getByTestId('recipient-add').click();
    await console.getByTestId('recipient-email').fill(RECIPIENT);
    await console.getByTestId('recipient-first-name').fill('Ada');
    await console.getByTestId('recipient-last-name').fill('Lovelace');
    await console.getByTestId('claim-member_name').fill('Ada Lovelace');
    await console.getByTestId('claim-level').fill('3');
    await console.getByTestId('recipient-save').click();
    await console.getByTestId('wizard-next').click();
    await sendFromWizard(console, 'Your library card is ready.');
    // Off the wizard (its own address is under /credentials/ too), with the e-mail sent.
    await waitOffWizard(console, product, 'wallet-journey');
    await expect.poll(() => console.getByText('E-mail sent to 1 recipient').count(), { timeout: 30_000 }).toBe(1);

    // 3. The recipient reads the e-mail in the development mailbox and follows the claim link.
    await expect
      .poll(async () => (await mailbox()).some((m) => m.to.includes(RECIPIENT)), { timeout: 30_000 })
      .toBe(true);
    const message = (await mailbox()).find((m) => m.to.includes(RECIPIENT))!;
    const claimLink = /href="([^"]*\/connect\/credential\/[0-9a-f-]{36})"/.exec(message.html ?? '')?.[1];
    expect(claimLink).toBeTruthy();
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const holder = await phone.newPage();
    holder.on('pageerror', (err) => problems.push(`holder: ${err.message}`));
    holder.on('console', (message) => {
      if (message.type() === 'error') browserErrors.push(`${holder.url()}: ${message.text()}`);
    });
    await holder.goto(claimLink!.replaceAll('&amp;', '&'));
    await holder.getByTestId('claim-qr').waitFor();
    await holder.getByTestId('claim-open-wallet').click();
    await holder.waitForURL((url) => url.origin === product.walletUrl);

    // 4. First use of the wallet: a passcode; then the offer is shown and accepted.
    await holder.getByTestId('wallet-onboarding').waitFor({ timeout: 30_000 });
    await snap(holder, 'wallet-onboarding-en');
    await holder.getByTestId('wallet-passcode').fill(PASSCODE);
    await holder.getByTestId('wallet-passcode-confirm').fill(PASSCODE);
    await holder.getByTestId('wallet-create').click();
    await holder.getByTestId('offer-accept').waitFor({ timeout: 30_000 });
    await expect.poll(() => holder.textContent('body')).toContain('Demo Organization');
    await snap(holder, 'wallet-offer-review-en');
    await holder.getByTestId('offer-accept').click();
    await holder.getByTestId('credential-received').waitFor({ timeout: 30_000 });
    await expect.poll(() => holder.textContent('body')).toContain('Ada Lovelace');
    await snap(holder, 'wallet-credential-received-en');

    // 5. The console shows the credential as claimed.
    await console.goto(`${product.consoleUrl}/credentials`);
    await console.getByTestId('nav-credentials').click();
    const credentialRow = console.locator('[data-testid^="credential-row-"]', { hasText: 'Ada' }).first();
    await credentialRow.waitFor();
    const credentialId = (await credentialRow.getAttribute('data-testid'))!.replace('credential-row-', '');
    await expect
      .poll(() => console.getByTestId(`credential-status-${credentialId}`).textContent(), { timeout: 15_000 })
      .toMatch(/claimed/i);

    // 6. A reusable verification with a rule the credential meets (level greater than 2).
    await console.goto(`${product.consoleUrl}/verifications/create`);
    await console.getByTestId('verification-name').fill('Members level 3+');
    const schemaSelect = console.getByTestId('verification-schema');
    await expect.poll(() => schemaSelect.locator('option', { hasText: 'Library Membership' }).count()).toBe(1);
    await schemaSelect.selectOption({ label: 'Library Membership' });
    await console.getByTestId('verification-type-MULTI').click();
    await console.getByTestId('rule-add').click();
    await console.getByTestId('rule-attribute-0').selectOption({ label: 'level' });
    await console.getByTestId('rule-operator-0').selectOption('BIGGER');
    await console.getByTestId('rule-value-0').fill('2');
    await console.getByTestId('verification-save').click();
    await console.waitForURL((url) => url.pathname === '/verifications');
    const verificationRow = console.locator('[data-testid^="verification-row-"]', { hasText: 'Members level 3+' });
    await verificationRow.first().waitFor();
    const verificationId = (await verificationRow.first().getAttribute('data-testid'))!.slice(
      'verification-row-'.length,
    );

    // 7. The holder opens the verification link; the wallet shows exactly what it will share; consent.
    const holderPageUrl = await presentWithWallet(holder, verificationId, 'member-1');
    const shared = await holder.getByTestId('present-claim').allTextContents();
    expect(shared.join(' ')).toContain('3');
    await snap(holder, 'wallet-present-consent-en');
    await holder.getByTestId('present-share').click();
    await expect
      .poll(() => holder.getByTestId('present-outcome').getAttribute('data-outcome'), { timeout: 30_000 })
      .toBe('shared');
    await snap(holder, 'wallet-present-shared-en');
    // Back on the holder page: success.
    await holder.goto(holderPageUrl);
    await expect
      .poll(() => holder.getByTestId('verification-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('VERIFIED');

    // 8. The console's history: VERIFIED with the shared claims.
    await console.goto(`${product.consoleUrl}/verifications`);
    await console.getByTestId(`verification-history-${verificationId}`).first().click();
    const history = console.getByTestId('verification-history-list');
    await expect.poll(() => history.textContent(), { timeout: 15_000 }).toContain('member-1');
    await expect.poll(() => history.textContent()).toContain('Ada Lovelace');
    await console.keyboard.press('Escape');

    // 9. The organization revokes the credential.
    await console.goto(`${product.consoleUrl}/credentials`);
    await console.getByTestId('nav-credentials').click();
    await console.getByTestId(`credential-select-${credentialId}`).click();
    await console.getByTestId('credentials-bulk-revoke').click();
    await console.getByTestId('credentials-revoke-confirm').click();
    await expect
      .poll(() => console.getByTestId(`credential-status-${credentialId}`).textContent(), { timeout: 15_000 })
      .toMatch(/revoked/i);

    // 10. The wallet shows it revoked (checked against the status list).
    await holder.goto(`${product.walletUrl}/`);
    await unlockIfAsked(holder);
    const card = holder.getByTestId('credential-card').first();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('revoked');
    await snap(holder, 'wallet-credentials-revoked-en');

    // 11. Presenting it again fails, and the holder page names the revocation.
    const secondPageUrl = await presentWithWallet(holder, verificationId, 'member-2');
    await holder.getByTestId('present-share').click();
    await expect
      .poll(() => holder.getByTestId('present-outcome').getAttribute('data-outcome'), { timeout: 30_000 })
      .toBe('shared');
    await holder.goto(secondPageUrl);
    const status = holder.getByTestId('verification-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 15_000 }).toBe('FAILED');
    await expect.poll(() => holder.textContent('body')).toMatch(/revoked/i);
    await snap(holder, 'wallet-journey-revoked-failed-en');

    // The console's history names the status check for member-2.
    await console.goto(`${product.consoleUrl}/verifications`);
    await console.getByTestId(`verification-history-${verificationId}`).first().click();
    await expect.poll(() => history.textContent(), { timeout: 15_000 }).toContain('member-2');
    await expect.poll(() => history.textContent()).toMatch(/revoked/i);

    expect(problems).toEqual([]);
    await phone.close();
    await staff.close();
  }, 240_000); // up to 90 s for the wizard's send (waitOffWizard)
});
