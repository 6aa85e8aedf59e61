import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { onConsole, signUpWithOrganization } from './support/journeys.ts';
import { type Product, startProduct } from './support/product.ts';

/**
 * A team: an admin invites a colleague by e-mail; the colleague opens the link from the development mailbox,
 * creates an account at the account center, joins and works in the organization as a member (no Integrations);
 * the admin makes them an admin, then removes them.
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

type MailboxMessage = { id: string; to: string[]; subject: string | null; html: string | null; text: string | null };
const mailbox = async (): Promise<MailboxMessage[]> =>
  (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results;

const ORGANIZATION = 'Lovelace Analytical';
const COLLEAGUE = { email: 'charles@example.com', password: 'Difference-Engine-1822!' };

async function memberRow(page: Page, email: string) {
  const row = page.locator('[data-testid^="member-row-"]', { hasText: email });
  await row.waitFor();
  return { row, id: (await row.getAttribute('data-testid'))!.replace('member-row-', '') };
}

describe('a team', () => {
  it('an admin invites a colleague, who joins from the e-mail as a member; the admin promotes, then removes them', async () => {
    const problems: string[] = [];
    // The admin at a desk.
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await adminContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.consoleUrl });
    const admin = await adminContext.newPage();
    admin.on('pageerror', (err) => problems.push(`admin: ${err.message}`));
    await signUpWithOrganization(
      admin,
      product,
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        username: 'ada',
        email: 'ada@example.com',
        password: 'Analytical-1843!',
      },
      { name: ORGANIZATION, description: 'Notes on the engine' },
    );

    // 1. The admin invites the colleague as a member.
    await admin.getByTestId('nav-members').click();
    await admin.waitForURL(onConsole(product, '/members'));
    await memberRow(admin, 'ada@example.com');
    await admin.getByTestId('members-invite').click();
    await admin.getByTestId('invite-email').fill(COLLEAGUE.email);
    await admin.getByTestId('invite-role-member').check();
    await admin.getByTestId('invite-send').click();
    await expect
      .poll(() => admin.getByTestId('invite-sent').textContent())
      .toBe(`We emailed ${COLLEAGUE.email} an invitation to join ${ORGANIZATION} as Member.`);
    const shownLink = await admin.getByTestId('invite-link').textContent();
    expect(shownLink).toMatch(new RegExp(`^${product.consoleUrl}/invitations/[A-Za-z0-9_-]{43}$`));
    await admin.getByTestId('invite-done').click();
    await admin.locator('[data-testid^="invitation-row-"]', { hasText: COLLEAGUE.email }).waitFor();

    // 2. The colleague, on a phone, finds the e-mail in the development mailbox and follows its link.
    await expect
      .poll(async () => (await mailbox()).filter((m) => m.to.includes(COLLEAGUE.email)).length, { timeout: 30_000 })
      .toBe(1);
    const message = (await mailbox()).find((m) => m.to.includes(COLLEAGUE.email))!;
    expect(message.subject).toBe(`Ada Lovelace invited you to join ${ORGANIZATION}`);
    const colleagueContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const colleague = await colleagueContext.newPage();
    colleague.on('pageerror', (err) => problems.push(`colleague: ${err.message}`));
    await colleague.goto(`${product.consoleUrl}/dev/mailbox/${message.id}`);
    await colleague.getByText(message.subject!).first().waitFor();
    const link = /href="([^"]*\/invitations\/[A-Za-z0-9_-]{43})"/.exec(message.html ?? '')?.[1];
    expect(link).toBe(shownLink);
    await colleague.goto(link!);
    await expect
      .poll(() => colleague.getByTestId('invitation-title').textContent())
      .toBe(`Ada Lovelace invited you to join ${ORGANIZATION} as a member`);
    await snap(colleague, 'team-invitation-mobile');

    // 3. No account yet: sign up at the account center (skipping its own organization step) and come back.
    await colleague.getByTestId('invitation-sign-up').click();
    await colleague.waitForURL((url) => url.origin === product.idUrl);
    await colleague.locator('#sign-up-form').waitFor();
    await colleague.locator('#field-firstName').fill('Charles');
    await colleague.locator('#field-lastName').fill('Babbage');
    await colleague.locator('#field-username').fill('charles');
    await colleague.locator('#field-email').fill(COLLEAGUE.email);
    await colleague.locator('#field-password').fill(COLLEAGUE.password);
    await colleague.locator('#sign-up-submit').click();
    await colleague.locator('#skip-organization').click();
    await colleague.waitForURL((url) => url.href === link, { timeout: 30_000 });

    // 4. Join: the organization becomes the current one and its credential list opens.
    await colleague.getByTestId('invitation-accept').click();
    await colleague.waitForURL(onConsole(product, '/credentials/'), { timeout: 30_000 });
    await colleague.getByTestId('mobile-menu-button').click();
    await expect.poll(() => colleague.getByTestId('org-switcher').textContent()).toContain(ORGANIZATION);
    // A member: no Integrations, no Trust anchors; the team is there.
    await colleague.getByTestId('nav-members').waitFor();
    expect(await colleague.getByTestId('nav-integrations').count()).toBe(0);
    expect(await colleague.getByTestId('nav-trust-anchors').count()).toBe(0);
    await snap(colleague, 'team-member-menu-mobile');
    await colleague.getByTestId('nav-members').click();
    await colleague.waitForURL(onConsole(product, '/members'));
    await colleague.getByTestId('members-read-only').waitFor();
    expect(await colleague.getByTestId('members-invite').count()).toBe(0);
    // An admin page opened directly says why it is closed (and the API refuses anyway).
    await colleague.goto(`${product.consoleUrl}/integrations`);
    await colleague.getByTestId('admin-only').waitFor();

    // 5. The admin sees the new member and makes them an admin; the colleague then sees Integrations.
    await admin.reload();
    const { id: colleagueId } = await memberRow(admin, COLLEAGUE.email);
    expect(await admin.getByTestId(`member-role-${colleagueId}`).textContent()).toBe('Member');
    expect(await admin.locator('[data-testid^="invitation-row-"]').count()).toBe(0);
    await admin.getByTestId(`member-role-${colleagueId}`).click();
    await admin.getByTestId('role-option-admin').click();
    await expect.poll(() => admin.getByTestId(`member-role-${colleagueId}`).textContent()).toBe('Admin');
    await snap(admin, 'team-members-en');
    await colleague.goto(`${product.consoleUrl}/integrations`);
    await colleague.getByTestId('mobile-menu-button').click();
    await colleague.getByTestId('nav-integrations').waitFor();

    // 6. The admin removes the colleague, who loses the organization at once.
    await admin.getByTestId(`member-remove-${colleagueId}`).click();
    await admin.getByTestId('members-confirm').click();
    await expect.poll(() => admin.locator(`[data-testid="member-row-${colleagueId}"]`).count()).toBe(0);
    await colleague.goto(`${product.consoleUrl}/credentials`);
    await colleague.getByTestId('no-organization').waitFor();

    expect(problems).toEqual([]);
    await adminContext.close();
    await colleagueContext.close();
  });
});
