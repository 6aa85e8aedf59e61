import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, snap } from './support/browser.ts';
import { reportOnFailure, sendFromWizard, signIn, waitOffWizard } from './support/journeys.ts';
import { type Product, startProduct } from './support/product.ts';

/**
 * The whole ISO mdoc journey through the wallet (issue 17): an organization issues a credential (console, mailbox,
 * claim page); the holder receives it in the wallet as an mdoc (the offer lists both formats, the holder picks ISO
 * mdoc); the organization creates a verification of format mso_mdoc; the holder page's request is answered by the
 * wallet with a DeviceResponse and the verifier shows success; then the organization revokes the credential and a
 * new attempt fails. The new wallet screens are audited with axe and photographed at 390 px in en and ja.
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
const RECIPIENT = 'grace.mdoc@example.com';

interface MailboxMessage {
  id: string;
  to: string[];
  html: string | null;
}
const mailbox = async (): Promise<MailboxMessage[]> =>
  (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results;

async function shoot(page: Page, screen: string, language: 'en' | 'ja', focus?: string) {
  // The part of the screen this issue added, in view; chips and radios fade in.
  // Centred: the bottom navigation would cover an element only scrolled to the edge.
  if (focus) await page.getByTestId(focus).evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await page.waitForTimeout(400);
  await snap(page, `wallet-mdoc-${screen}-${language}`);
}

/** The wallet asks for its passcode whenever a page opens it afresh; unlock if it does. */
async function unlockIfAsked(wallet: Page) {
  const unlock = wallet.getByTestId('wallet-unlock');
  const ready = wallet.locator(
    '[data-testid="offer-accept"], [data-testid="present-consent"], [data-testid="credential-card"], [data-testid="credential-detail"]',
  );
  await expect.poll(async () => (await unlock.count()) + (await ready.count()), { timeout: 30_000 }).toBeGreaterThan(0);
  if ((await unlock.count()) > 0) {
    await wallet.getByTestId('wallet-passcode').fill(PASSCODE);
    await unlock.click();
  }
}

/** The holder opens a verification link and taps Open in wallet: the consent screen; answers the holder page. */
async function openRequestInWallet(holder: Page, verificationId: string, customer: string, lang: 'en' | 'ja') {
  await holder.goto(`${product.consoleUrl}/connect/redirect/${verificationId}?customer=${customer}`);
  await holder.waitForURL((url) => url.pathname.startsWith('/connect/verification/'));
  const holderPageUrl = holder.url();
  await expect.poll(() => holder.getByTestId('verification-status').getAttribute('data-status')).toBe('CREATED');
  const walletLink = await holder.locator('a[href*="/present?request="]').first().getAttribute('href');
  expect(walletLink).toBeTruthy();
  await holder.goto(`${walletLink}&lang=${lang}`);
  await unlockIfAsked(holder);
  await holder.getByTestId('present-consent').waitFor({ timeout: 30_000 });
  return holderPageUrl;
}

describe('the mdoc journey: issue, receive as an mdoc, verify as mso_mdoc, revoke', () => {
  it('works end to end across console, mailbox, claim page, wallet and holder page', async () => {
    const problems: string[] = [];
    const staff = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const console = await staff.newPage();
    // Should it fail: the product's output, where the console stood, and whether the API answers.
    reportOnFailure(console, product, 'mdoc-journey-console');
    console.on('pageerror', (err) => problems.push(`console: ${err.message}`));
    await signIn(console, product, 'demo@example.com', 'Demo-Passw0rd!');

    // 1. A schema of the organization's own.
    await console.getByTestId('nav-schemas').click();
    await console.getByTestId('schemas-create-button').click();
    await console.getByTestId('schema-name').fill('Gym Pass');
    await console.getByTestId('schema-description').fill('Members of the city gym');
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
    await console.locator('[data-testid^="schema-row-"]', { hasText: 'Gym Pass' }).first().waitFor();

    // 2. Issue it to a recipient and send the e-mail.
    await console.goto(`${product.consoleUrl}/credentials/create`);
    await console.locator('[data-testid^="wizard-schema-"]', { hasText: 'Gym Pass' }).first().click();
    await console.getByTestId('wizard-next').click();
    await console.getByTestId('credential-name').fill('Gym pass');
    await console.getByTestId('recipient-add').click();
    await console.getByTestId('recipient-email').fill(RECIPIENT);
    await console.getByTestId('recipient-first-name').fill('Grace');
    await console.getByTestId('recipient-last-name').fill('Hopper');
    await console.getByTestId('claim-member_name').fill('Grace Hopper');
    await console.getByTestId('claim-level').fill('4');
    await console.getByTestId('recipient-save').click();
    await console.getByTestId('wizard-next').click();
    await sendFromWizard(console, 'Your gym pass is ready.');
    // Off the wizard (its own address is under /credentials/ too), with the e-mail sent.
    await waitOffWizard(console, product, 'mdoc-journey');
    await expect.poll(() => console.getByText('E-mail sent to 1 recipient').count(), { timeout: 30_000 }).toBe(1);

    // 3. The recipient follows the claim link from the mailbox, and opens the offer in the wallet.
    await expect
      .poll(async () => (await mailbox()).some((m) => m.to.includes(RECIPIENT)), { timeout: 60_000 })
      .toBe(true);
    const message = (await mailbox()).find((m) => m.to.includes(RECIPIENT))!;
    const claimLink = /href="([^"]*\/connect\/credential\/[0-9a-f-]{36})"/.exec(message.html ?? '')?.[1];
    expect(claimLink).toBeTruthy();
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const holder = await phone.newPage();
    holder.on('pageerror', (err) => problems.push(`holder: ${err.message}`));
    await holder.goto(claimLink!.replaceAll('&amp;', '&'));
    await holder.getByTestId('claim-qr').waitFor();
    await holder.getByTestId('claim-open-wallet').click();
    await holder.waitForURL((url) => url.origin === product.walletUrl);
    const offerUrl = holder.url();

    // 4. First use: a passcode; the offer lists both formats, SD-JWT VC chosen by default.
    await holder.getByTestId('wallet-onboarding').waitFor({ timeout: 30_000 });
    await holder.getByTestId('wallet-passcode').fill(PASSCODE);
    await holder.getByTestId('wallet-passcode-confirm').fill(PASSCODE);
    await holder.getByTestId('wallet-create').click();
    await holder.getByTestId('offer-format').waitFor({ timeout: 30_000 });
    expect(await holder.getByTestId('offer-format-dc+sd-jwt').isChecked()).toBe(true);
    expect(await holder.getByTestId('offer-format-mso_mdoc').isChecked()).toBe(false);
    await shoot(holder, 'offer-format', 'en', 'offer-format');
    await expectAccessible(holder, 'wallet offer with a format choice 390 en');
    // The same offer in Japanese (reading it redeems nothing).
    await holder.goto(`${offerUrl}&lang=ja`);
    await unlockIfAsked(holder);
    await holder.getByTestId('offer-format').waitFor({ timeout: 30_000 });
    await expect.poll(() => holder.getByTestId('offer-format').textContent()).toContain('形式');
    await shoot(holder, 'offer-format', 'ja', 'offer-format');
    await holder.goto(`${offerUrl}&lang=en`);
    await unlockIfAsked(holder);
    await holder.getByTestId('offer-format').waitFor({ timeout: 30_000 });

    // 5. The holder takes it as an ISO mdoc: verified, stored, shown with its elements and its format.
    await holder.getByTestId('offer-format-mso_mdoc').check();
    await holder.getByTestId('offer-accept').click();
    await holder.getByTestId('credential-received').waitFor({ timeout: 30_000 });
    const detail = holder.getByTestId('credential-detail');
    await expect.poll(() => detail.getAttribute('data-status'), { timeout: 30_000 }).toBe('valid');
    expect(await holder.getByTestId('credential-format-detail').getAttribute('data-format')).toBe('mso_mdoc');
    const rows = await holder.getByTestId('claim-row').allTextContents();
    expect(rows).toEqual(
      expect.arrayContaining([expect.stringContaining('Grace Hopper'), expect.stringContaining('4')]),
    );
    const credentialPath = new URL(holder.url()).pathname;
    await shoot(holder, 'credential-detail', 'en');
    await expectAccessible(holder, 'wallet mdoc credential 390 en');
    await holder.goto(`${product.walletUrl}${credentialPath}?lang=ja`);
    await unlockIfAsked(holder);
    await expect.poll(() => holder.getByTestId('credential-format-detail').textContent()).toContain('ISO mdoc');
    await expect.poll(() => holder.textContent('body')).toContain('形式');
    await shoot(holder, 'credential-detail', 'ja');
    await shoot(holder, 'credential-format', 'ja', 'credential-format-detail');
    await holder.goto(`${product.walletUrl}/?lang=en`);
    await unlockIfAsked(holder);
    await expect.poll(() => holder.getByTestId('credential-format').first().textContent()).toBe('ISO mdoc');
    await shoot(holder, 'credentials', 'en');

    // 6. The console: claimed; a verification of format ISO mdoc with a rule the credential meets.
    await console.goto(`${product.consoleUrl}/credentials`);
    await console.getByTestId('nav-credentials').click();
    const credentialRow = console.locator('[data-testid^="credential-row-"]', { hasText: 'Grace' }).first();
    await credentialRow.waitFor();
    const credentialId = (await credentialRow.getAttribute('data-testid'))!.replace('credential-row-', '');
    await expect
      .poll(() => console.getByTestId(`credential-status-${credentialId}`).textContent(), { timeout: 15_000 })
      .toMatch(/claimed/i);
    await console.goto(`${product.consoleUrl}/verifications/create`);
    await console.getByTestId('verification-name').fill('Gym members (mdoc)');
    const schemaSelect = console.getByTestId('verification-schema');
    await expect.poll(() => schemaSelect.locator('option', { hasText: 'Gym Pass' }).count()).toBe(1);
    await schemaSelect.selectOption({ label: 'Gym Pass' });
    await console.getByTestId('verification-format').selectOption('mso_mdoc');
    await console.getByTestId('verification-type-MULTI').click();
    await console.getByTestId('rule-add').click();
    await console.getByTestId('rule-attribute-0').selectOption({ label: 'level' });
    await console.getByTestId('rule-operator-0').selectOption('BIGGER');
    await console.getByTestId('rule-value-0').fill('2');
    await console.getByTestId('verification-save').click();
    await console.waitForURL((url) => url.pathname === '/verifications');
    const verificationRow = console.locator('[data-testid^="verification-row-"]', { hasText: 'Gym members (mdoc)' });
    await verificationRow.first().waitFor();
    const verificationId = (await verificationRow.first().getAttribute('data-testid'))!.slice(
      'verification-row-'.length,
    );

    // 7. The holder page's request, answered by the wallet: exactly the asked elements, from the mdoc.
    const holderPageUrl = await openRequestInWallet(holder, verificationId, 'gym-1', 'en');
    expect(await holder.getByTestId('present-candidate-format').textContent()).toContain('ISO mdoc');
    const shared = await holder.getByTestId('present-claim').allTextContents();
    expect(shared.join(' ')).toContain('4');
    await shoot(holder, 'present-consent', 'en');
    await expectAccessible(holder, 'wallet mdoc consent 390 en');
    await holder.getByTestId('present-share').click();
    await expect
      .poll(() => holder.getByTestId('present-outcome').getAttribute('data-outcome'), { timeout: 30_000 })
      .toBe('shared');
    await holder.goto(holderPageUrl);
    await expect
      .poll(() => holder.getByTestId('verification-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('VERIFIED');

    // 8. The organization revokes the credential; the wallet sees it.
    await console.goto(`${product.consoleUrl}/credentials`);
    await console.getByTestId('nav-credentials').click();
    await console.getByTestId(`credential-select-${credentialId}`).click();
    await console.getByTestId('credentials-bulk-revoke').click();
    await console.getByTestId('credentials-revoke-confirm').click();
    await expect
      .poll(() => console.getByTestId(`credential-status-${credentialId}`).textContent(), { timeout: 15_000 })
      .toMatch(/revoked/i);
    await holder.goto(`${product.walletUrl}/`);
    await unlockIfAsked(holder);
    const card = holder.getByTestId('credential-card').first();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('revoked');

    // 9. A new attempt (in Japanese this time): the wallet warns and the holder shares anyway; the verifier refuses.
    const secondPageUrl = await openRequestInWallet(holder, verificationId, 'gym-2', 'ja');
    await shoot(holder, 'present-consent', 'ja');
    await holder.getByTestId('present-share').click();
    await expect
      .poll(() => holder.getByTestId('present-outcome').getAttribute('data-outcome'), { timeout: 30_000 })
      .toBe('shared');
    await holder.goto(secondPageUrl);
    await expect
      .poll(() => holder.getByTestId('verification-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('FAILED');

    expect(problems).toEqual([]);
    await phone.close();
    await staff.close();
  }, 240_000); // up to 90 s for the wizard's send (waitOffWizard)
});
