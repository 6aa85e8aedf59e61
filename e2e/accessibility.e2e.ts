import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimCredential, fetchHttp, makeHolder, presentCredential } from '../apps/api/test/support/wallet.ts';
import { expectAccessible, findings, summarize } from './support/axe.ts';
import { artifacts, launchBrowser } from './support/browser.ts';
import { onConsole, signIn } from './support/journeys.ts';
import { logoPng } from './support/png.ts';
import { type Product, runAdmin, startProduct } from './support/product.ts';

/**
 * Every page of the product, checked with axe-core (WCAG 2.0/2.1/2.2 A and AA, best practices) in real Chromium
 * with realistic data: the console (each page, its dialogs and menus, the shell's drawer and switcher), the holder
 * pages, the account center and the wallet, in English at 1280 and 390 px, some in Japanese. A serious or critical
 * finding fails the test with the rule, its meaning and the elements at fault (see support/axe.ts). Each audited
 * state is also saved as a picture under e2e/artifacts/a11y/.
 */

let product: Product;
let browser: Browser;
let organizationId: string;
let secondOrganizationId: string;
let authorization = '';

const DEMO = { email: 'demo@example.com', password: 'Demo-Passw0rd!' };
const COLLEAGUE = {
  email: 'charles@example.com',
  password: 'Difference-Engine-1822!',
  firstName: 'Charles',
  lastName: 'Babbage',
};
const PASSCODE = 'accessible-wallet-7';
const WIDTHS = [1280, 390] as const;
const shots = path.join(artifacts, 'a11y');

/** The demo organization's API: GET, or another method with a JSON body. */
async function api(method: string, url: string, body?: unknown) {
  const response = await fetch(`${product.consoleUrl}/api${url}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A call the console itself makes, from a signed-in page (its session, the given organization). */
async function consoleApi(page: Page, organization: string, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ organization, method, url, body }) => {
      const token = decodeURIComponent(/(?:^|; )access_token=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          currentidentity: organization,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
    { organization, method, url, body },
  );
}

interface MailboxMessage {
  id: string;
  to: string[];
  subject: string | null;
  text: string | null;
}
const mailbox = async (): Promise<MailboxMessage[]> =>
  (await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json())).results;

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), as an authenticator app computes it. */
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

/** Audits the page as it is, at the current width, and keeps a picture of it. */
async function audit(page: Page, label: string) {
  await expectAccessible(page, label);
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${label.replaceAll(/[^a-z0-9-]+/gi, '-')}.png`) });
}

/**
 * Audits the page at each width; `prepare` brings it to the state to audit after the width changed (a menu
 * closes when the layout switches between the side menu and the drawer).
 */
async function auditWidths(page: Page, label: string, prepare?: (width: number) => Promise<void>, lang = 'en') {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await prepare?.(width);
    await audit(page, `${label} ${width} ${lang}`);
  }
}

/**
 * The first Tab lands on "Skip to main content", shown while focused; following it puts the focus on the page's
 * main landmark (WCAG 2.2 SC 2.4.1).
 */
async function expectSkipLink(page: Page, label: string) {
  // The page loaded, with its skip link (under load the Tab could come before either).
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.getByText('Skip to main content').first().waitFor({ state: 'attached' });
  // Start from the top of the document, as after loading a page: focus a marker at the start of the body and
  // remove it (the browser's focus navigation starting point stays where it was).
  await page.evaluate(() => {
    const marker = document.createElement('span');
    marker.tabIndex = -1;
    document.body.prepend(marker);
    marker.focus();
    marker.remove();
  });
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const box = element.getBoundingClientRect();
    return { text: element.textContent, href: element.getAttribute('href'), top: box.top, bottom: box.bottom };
  });
  expect(focused.text).toBe('Skip to main content');
  expect(focused.top).toBeGreaterThanOrEqual(0);
  expect(focused.bottom).toBeGreaterThan(focused.top);
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `skip-link-${label}.png`) });
  await page.keyboard.press('Enter');
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.tagName === 'MAIN' && document.activeElement.id))
    .toBe(focused.href!.slice(1));
}

/** Opens a console page (in English unless told) and waits for what proves it is shown. */
async function open(page: Page, url: string, ready: string, lang = 'en') {
  await page.goto(`${product.consoleUrl}${url}${url.includes('?') ? '&' : '?'}lang=${lang}`);
  await page.getByTestId(ready).first().waitFor({ timeout: 30_000 });
}

/** Closes every open dialog, menu and drawer (each a MUI modal) with Escape, as a keyboard user would. */
async function closeDialog(page: Page) {
  const modals = page.locator('.MuiModal-root:not(.MuiModal-hidden)');
  for (let attempt = 0; attempt < 4 && (await modals.count()) > 0; attempt++) {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(350);
  }
  await expect.poll(() => modals.count()).toBe(0);
}

const ids: Record<string, string> = {};
let schemaId = '';
let verificationId = '';
let offerForWallet = '';
let invitationUrl = '';
const problems: string[] = [];

function watch(page: Page, who: string) {
  page.on('pageerror', (err) => problems.push(`${who}: ${err.message}`));
}

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: DEMO.email }), launchBrowser()]);
  organizationId = runAdmin(product, ['org', 'list'])
    .stdout.split('\n')
    .find((line) => line.endsWith(' Demo Organization'))!
    .split(' ')[0]!;
  const created = runAdmin(product, ['api-key', 'create', '--org', organizationId, '--name', 'Student records']);
  const key = /key: (\S+)/.exec(created.stdout)![1]!;
  const secret = /secret: (\S+)/.exec(created.stdout)![1]!;
  authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

  // A schema of the organization's own, and credentials in every status a list shows.
  const schema = await api('POST', '/schemas', {
    name: 'Pilot licence',
    description: 'Private pilot licence with instrument rating',
    attributes: [
      { name: 'rating', type: 'TEXT' },
      { name: 'hours', type: 'NUMBER' },
    ],
  });
  schemaId = schema.id;
  const issue = async (first: string, last: string, hours: string) => {
    const credential = await api('POST', '/credentials/with-recipient', {
      credential: { name: `Licence of ${first}`, schema_id: schemaId, claims: { rating: 'IFR', hours } },
      recipient: { email: `${first.toLowerCase()}@flight.example`, first_name: first, last_name: last },
    });
    ids[first] = credential.id;
    return credential;
  };
  await issue('Ada', 'Lovelace', '40'); // CREATED
  await issue('Grace', 'Hopper', '900'); // ISSUED (an offer is made below)
  await api('GET', `/credentials/${ids.Grace}/connect`);
  const katherine = await issue('Katherine', 'Johnson', '1500'); // CLAIMED, presented successfully
  const mary = await issue('Mary', 'Jackson', '60'); // CLAIMED, fails the rule, then REVOKED
  await issue('Dorothy', 'Vaughan', '320'); // offered to the browser wallet
  const claimed = async (credential: { id: string }) => {
    const connect = await api('GET', `/credentials/${credential.id}/connect`);
    const holder = await makeHolder();
    return { holder, credential: await claimCredential(fetchHttp, connect.connection_url, holder) };
  };
  const katherineWallet = await claimed(katherine);
  const maryWallet = await claimed(mary);
  offerForWallet = (await api('GET', `/credentials/${ids.Dorothy}/connect`)).connection_url;

  // A reusable verification with a rule, and a history: one holder passes, one fails.
  const hours = schema.attributes.find((a: { name: string }) => a.name === 'hours');
  const verification = await api('POST', '/verifications', {
    name: 'Instrument-rated pilots',
    description: 'Pilots with more than 100 hours',
    schema_id: schemaId,
    type: 'MULTI',
    attributes: [{ attribute_id: hours.id, operator: 'BIGGER', value: '100' }],
  });
  verificationId = verification.id;
  await api('POST', '/verifications', { name: 'Front desk check-in', schema_id: schemaId, type: 'SINGLE' });
  for (const [customer, wallet] of [
    ['crm-1001', katherineWallet],
    ['crm-1002', maryWallet],
  ] as const) {
    const individual = await api('POST', '/verifications/individuals', {
      verification_id: verificationId,
      customer_id: customer,
    });
    ids[customer] = individual.id;
    const connect = await api('GET', `/verifications/${individual.id}/connect`);
    await presentCredential(fetchHttp, connect.connection_url, wallet.credential, wallet.holder);
  }
  await api('PATCH', '/credentials/revoke', { credentials: [ids.Mary] });

  // A second organization of the demo user's, not yet verified (its KYB application is made in the console).
  const second = runAdmin(product, [
    'org',
    'create',
    '--name',
    'Northwind Flight Academy',
    '--member',
    DEMO.email,
    '--description',
    'Flight school',
  ]);
  expect(second.status, second.stderr).toBe(0);
  secondOrganizationId = runAdmin(product, ['org', 'list'])
    .stdout.split('\n')
    .find((line) => line.endsWith(' Northwind Flight Academy'))!
    .split(' ')[0]!;
  // The demo user reviews KYB applications: a platform administrator's address must be a verified one.
  expect(runAdmin(product, ['user', 'verify-email', '--email', DEMO.email]).status).toBe(0);
  // The colleague who will join.
  const colleague = runAdmin(product, [
    'user',
    'create',
    '--email',
    COLLEAGUE.email,
    '--password',
    COLLEAGUE.password,
    '--first-name',
    COLLEAGUE.firstName,
    '--last-name',
    COLLEAGUE.lastName,
  ]);
  expect(colleague.status, colleague.stderr).toBe(0);
}, 240_000);

afterAll(async () => {
  // Counts by rule and impact, for whoever reads the run.
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(
    path.join(artifacts, 'accessibility-findings.json'),
    JSON.stringify({ summary: summarize(findings), findings }, null, 2),
  );
  console.info(
    `axe-core findings by rule:\n${summarize(findings)
      .map((row) => `  ${row.impact.padEnd(9)} ${row.rule.padEnd(40)} ${row.pages} page(s), ${row.nodes} element(s)`)
      .join('\n')}`,
  );
  await browser?.close();
  await product?.stop();
});

describe('accessibility of every page (axe-core, WCAG 2.2 AA)', () => {
  let staff: BrowserContext;
  let page: Page;

  it('the console: every page, dialog and menu, at 1280 and 390 px', async () => {
    staff = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/London' });
    await staff.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.consoleUrl });
    page = await staff.newPage();
    watch(page, 'console');

    // Signed out: the intro page.
    await open(page, '/intro', 'intro-sign-in');
    await auditWidths(page, 'intro');

    await signIn(page, product, DEMO.email, DEMO.password);
    await open(page, '/no-such-page', 'go-home');
    await auditWidths(page, 'not-found');
    // Admins' settings (API keys act with member rights): a webhook, a trust anchor (the platform's CA).
    const webhook = await consoleApi(page, organizationId, 'POST', '/api/webhooks', {
      url: 'https://hooks.example-aviation.org/credentials',
      description: 'Crew scheduling: marks pilots as verified',
      events: ['verification.completed', 'credential.claimed'],
    });
    ids.webhook = webhook.id;
    const ca = await fetch(`${product.consoleUrl}/api/platform/ca.pem`).then((r) => r.text());
    await consoleApi(page, organizationId, 'POST', '/api/trust-anchors', {
      kind: 'CERTIFICATE',
      name: 'Platform CA',
      certificate_pem: ca,
    });

    // The organization profile, with a logo (shown on the holder pages and in the switcher).
    await open(page, `/organization/${organizationId}`, 'organization-form');
    await page
      .getByTestId('logo-upload-input')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() });
    await page.getByTestId('organization-logo').waitFor({ timeout: 15_000 });
    await auditWidths(page, 'organization');

    // A pending invitation and a colleague who joins (the members page then has two members).
    const invitation = await consoleApi(
      page,
      organizationId,
      'POST',
      `/api/organizations/${organizationId}/invitations`,
      {
        email: COLLEAGUE.email,
        role: 'admin',
      },
    );
    invitationUrl = invitation.url;
    await consoleApi(page, organizationId, 'POST', `/api/organizations/${organizationId}/invitations`, {
      email: 'mae.jemison@example.com',
      role: 'member',
    });
    const colleagueContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const colleague = await colleagueContext.newPage();
    watch(colleague, 'colleague');
    await colleague.goto(`${invitationUrl}?lang=en`);
    await colleague.getByTestId('invitation-sign-in').waitFor();
    await auditWidths(colleague, 'invitation signed out');
    await colleague.getByTestId('invitation-sign-in').click();
    await colleague.waitForURL((url) => url.origin === product.idUrl);
    await colleague.locator('#field-login').fill(COLLEAGUE.email);
    await colleague.locator('#field-password').fill(COLLEAGUE.password);
    await colleague.locator('#sign-in-submit').click();
    await colleague.getByTestId('invitation-accept').waitFor({ timeout: 30_000 });
    await auditWidths(colleague, 'invitation signed in');
    await colleague.getByTestId('invitation-accept').click();
    await colleague.waitForURL(onConsole(product, '/credentials/'), { timeout: 30_000 });
    await colleagueContext.storageState({ path: path.join(artifacts, 'colleague-state.json') });
    await colleagueContext.close();

    // Credentials: the list with every status, its filters, a credential's detail and the revoke confirmation.
    await open(page, `/credentials/${organizationId}`, `credential-row-${ids.Mary}`);
    await expectSkipLink(page, 'console');
    await auditWidths(page, 'credentials list');
    await auditWidths(page, 'credentials filters open', async () => {
      if ((await page.getByRole('listbox').count()) === 0) {
        await page.getByRole('combobox', { name: 'Status' }).click();
        await page.getByRole('listbox').waitFor();
      }
    });
    await closeDialog(page);
    await auditWidths(page, 'credential detail', async () => {
      if ((await page.getByTestId('credential-detail').count()) === 0) {
        await page.getByTestId(`credential-row-${ids.Grace}`).click();
        await page.getByTestId('credential-detail').waitFor();
      }
    });
    await page.getByTestId('credential-detail-revoke').click();
    await page
      .getByRole('dialog')
      .filter({ hasText: /revoke/i })
      .last()
      .waitFor();
    await auditWidths(page, 'credential revoke confirmation');
    await closeDialog(page);

    // Issuing: the wizard's three steps, the recipient and CSV dialogs, the e-mail preview.
    await open(page, '/credentials/create', `wizard-schema-${schemaId}`);
    await auditWidths(page, 'issue step 1');
    await page.getByTestId(`wizard-schema-${schemaId}`).click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('credential-name').waitFor();
    await auditWidths(page, 'issue step 2');
    await page.getByTestId('credential-name').fill('Pilot licence 2026');
    await page.getByTestId('recipient-add').click();
    await page.getByTestId('recipient-email').waitFor();
    await auditWidths(page, 'issue recipient dialog');
    await page.getByTestId('recipient-email').fill('bessie@flight.example');
    await page.getByTestId('recipient-first-name').fill('Bessie');
    await page.getByTestId('recipient-last-name').fill('Coleman');
    await page.getByTestId('claim-rating').fill('IFR');
    await page.getByTestId('claim-hours').fill('250');
    await page.getByTestId('recipient-save').click();
    await page.getByTestId('recipient-row-0').waitFor();
    await page.getByTestId('csv-import-button').click();
    await page.getByTestId('csv-template-download').waitFor();
    await auditWidths(page, 'issue csv dialog');
    await closeDialog(page);
    await auditWidths(page, 'issue step 2 with recipient');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('email-message').fill('Your licence is ready to claim.');
    await page.getByTestId('email-preview').waitFor();
    await auditWidths(page, 'issue step 3 preview');

    // Schemas.
    await open(page, '/schemas', `schema-row-${schemaId}`);
    await auditWidths(page, 'schemas');
    await open(page, '/schemas/create', 'schema-form');
    await auditWidths(page, 'schema create');

    // Verifications: both tabs, the QR and history dialogs; the form with both credential choices and rules.
    await open(page, '/verifications', `verification-row-${verificationId}`);
    await auditWidths(page, 'verifications reusable', async () => {
      await page.getByTestId('verifications-tab-MULTI').click();
    });
    await auditWidths(page, 'verifications single-use', async () => {
      await page.getByTestId('verifications-tab-SINGLE').click();
    });
    await page.getByTestId('verifications-tab-MULTI').click();
    await page.getByTestId(`verification-qr-${verificationId}`).first().click();
    await page.getByTestId('verification-qr-code').waitFor();
    await auditWidths(page, 'verification qr dialog');
    await closeDialog(page);
    await page.getByTestId(`verification-history-${verificationId}`).first().click();
    await expect.poll(() => page.getByTestId('verification-history-list').textContent()).toContain('crm-1002');
    await auditWidths(page, 'verification history dialog');
    await closeDialog(page);
    await open(page, '/verifications/create', 'verification-form');
    await page.getByTestId('verification-schema').selectOption({ label: 'Pilot licence' });
    await page.getByTestId('rule-add').click();
    await page.getByTestId('rule-add').click();
    await page.getByTestId('rule-attribute-0').selectOption({ label: 'hours' });
    await auditWidths(page, 'verification create schema');
    await page.getByTestId('verification-source-EXTERNAL').click();
    await page.getByTestId('external-credential').waitFor();
    await auditWidths(page, 'verification create external');

    // Integrations: API keys and webhooks, their dialogs.
    await open(page, '/integrations', 'webhooks-panel');
    await auditWidths(page, 'integrations');
    await page.getByTestId('integration-add-button').click();
    await page.getByTestId('integration-save').waitFor();
    await auditWidths(page, 'integrations key name dialog');
    await page.getByRole('dialog').getByRole('textbox').first().fill('Crew scheduling');
    await page.getByTestId('integration-save').click();
    await page.getByTestId('integration-secret-close').waitFor();
    await auditWidths(page, 'integrations key secret dialog');
    await page.getByTestId('integration-secret-close').click();
    await page.getByTestId('integration-secret-close').waitFor({ state: 'detached' });
    await page.getByTestId('webhook-add-button').click();
    await page.getByTestId('webhook-save').waitFor();
    await auditWidths(page, 'integrations webhook dialog');
    await closeDialog(page);
    await page.getByTestId(`webhook-deliveries-${ids.webhook}`).click();
    await page.getByTestId('webhook-deliveries-close').waitFor();
    await auditWidths(page, 'integrations webhook deliveries dialog');
    await page.getByTestId('webhook-deliveries-close').click();

    // Trust anchors, members, activity, settings.
    await open(page, '/trust-anchors', 'trust-anchors-count');
    await auditWidths(page, 'trust anchors');
    await page.getByTestId('trust-anchor-add').click();
    await page.getByTestId('trust-anchor-form').waitFor();
    await auditWidths(page, 'trust anchor dialog');
    await closeDialog(page);
    await open(page, '/members', 'members-invite');
    await page.locator('[data-testid^="member-row-"]', { hasText: COLLEAGUE.email }).waitFor();
    await auditWidths(page, 'members');
    await page.getByTestId('members-invite').click();
    await page.getByTestId('invite-dialog').waitFor();
    await auditWidths(page, 'members invite dialog');
    await closeDialog(page);
    await open(page, '/activity', 'activity-count');
    await auditWidths(page, 'activity');
    await open(page, '/settings', 'settings-profile-form');
    await auditWidths(page, 'settings');

    // The shell: the organization switcher's menu, the phone's drawer; and in Japanese.
    await open(page, `/credentials/${organizationId}`, `credential-row-${ids.Mary}`);
    await auditWidths(page, 'switcher menu open', async (width) => {
      if (width < 900) {
        await page.getByTestId('mobile-menu-button').click();
        await page.getByTestId('mobile-menu-close').waitFor();
      }
      await page.getByTestId('org-switcher').click();
      await page.getByTestId('org-list').waitFor();
    });
    await closeDialog(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('mobile-menu-button').click();
    await page.getByTestId('mobile-menu-close').waitFor();
    await audit(page, 'mobile drawer open 390 en');
    await closeDialog(page);
    await open(page, `/credentials/${organizationId}`, `credential-row-${ids.Mary}`, 'ja');
    await auditWidths(page, 'credentials list', undefined, 'ja');
    await page.getByTestId('mobile-menu-button').click();
    await page.getByTestId('mobile-menu-close').waitFor();
    await audit(page, 'mobile drawer open 390 ja');
    await closeDialog(page);

    // The second organization (not verified): the KYB banner and its application dialog.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('org-switcher').click();
    await page.getByTestId(`org-option-${secondOrganizationId}`).click();
    await expect.poll(() => page.getByTestId('org-switcher').textContent()).toContain('Northwind');
    await open(page, `/organization/${secondOrganizationId}`, 'kyb-apply-button');
    await auditWidths(page, 'organization not verified');
    await page.getByTestId('kyb-apply-button').click();
    await page.getByTestId('kyb-apply-dialog').waitFor();
    await auditWidths(page, 'kyb apply dialog');
    await page
      .getByTestId('kyb-upload-input')
      .setInputFiles({ name: 'registration.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByTestId('kyb-submit').click();
    await expect
      .poll(() => page.getByTestId('kyb-banner').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('PENDING');
    // The platform administrator's review queue.
    await open(page, '/admin/kyb', 'admin-kyb-table');
    await page.locator('[data-testid^="admin-kyb-row-"]').first().waitFor();
    await auditWidths(page, 'admin kyb review');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('org-switcher').click();
    await page.getByTestId(`org-option-${organizationId}`).click();
    await expect.poll(() => page.getByTestId('org-switcher').textContent()).toContain('Demo Organization');
  }, 900_000);

  it('the holder pages: claim (offered, claimed), verification (waiting, success, failure), redirect', async () => {
    const holder = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    watch(holder, 'holder');
    await holder.goto(`${product.consoleUrl}/connect/credential/${ids.Grace}?lang=en`);
    await holder.getByTestId('claim-qr').waitFor();
    await expectSkipLink(holder, 'holder');
    await auditWidths(holder, 'claim offered');
    await holder.goto(`${product.consoleUrl}/connect/credential/${ids.Grace}?lang=ja`);
    await holder.getByTestId('claim-qr').waitFor();
    await auditWidths(holder, 'claim offered', undefined, 'ja');
    await holder.goto(`${product.consoleUrl}/connect/credential/${ids.Katherine}?lang=en`);
    await expect.poll(() => holder.getByTestId('claim-status').getAttribute('data-status')).toBe('CLAIMED');
    await auditWidths(holder, 'claim claimed');

    // A new attempt waits for the wallet; the earlier ones succeeded and failed.
    const waiting = await api('POST', '/verifications/individuals', { verification_id: verificationId });
    await holder.goto(`${product.consoleUrl}/connect/verification/${waiting.id}?lang=en`);
    await expect.poll(() => holder.getByTestId('verification-status').getAttribute('data-status')).toBe('CREATED');
    await auditWidths(holder, 'verification waiting');
    await holder.goto(`${product.consoleUrl}/connect/verification/${ids['crm-1001']}?lang=en`);
    await expect.poll(() => holder.getByTestId('verification-status').getAttribute('data-status')).toBe('VERIFIED');
    await auditWidths(holder, 'verification success');
    await holder.goto(`${product.consoleUrl}/connect/verification/${ids['crm-1002']}?lang=en`);
    await expect.poll(() => holder.getByTestId('verification-status').getAttribute('data-status')).toBe('FAILED');
    await auditWidths(holder, 'verification failure');
    // The redirect page shows itself only when it cannot go on: a link whose signature is wrong.
    const expires = Math.floor(Date.now() / 1000) + 3600;
    await holder.goto(
      `${product.consoleUrl}/connect/redirect/${verificationId}?customer=crm-9&expires=${expires}&signature=bad&lang=en`,
    );
    await holder.getByRole('heading').first().waitFor();
    await holder.waitForLoadState('networkidle');
    await auditWidths(holder, 'redirect refused');
    await holder.context().close();
  }, 300_000);

  it('the account center: sign in, sign up, passwords, two-step sign-in, account, organization, sign-out', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      storageState: path.join(artifacts, 'colleague-state.json'),
    });
    const id = await context.newPage();
    watch(id, 'account center');
    const idPage = async (url: string, ready: string, label: string) => {
      await id.goto(`${product.idUrl}${url}${url.includes('?') ? '&' : '?'}lang=en`);
      await id.locator(ready).waitFor();
      await auditWidths(id, label);
    };

    // Signed in (the colleague's session): the account, two-step sign-in set up, organization, password.
    await idPage('/account', '#two-factor-status', 'id account two-step off');
    await idPage('/account/two-factor/setup', '#totp-qr', 'id two-step setup');
    const secret = ((await id.locator('#totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    await id.locator('#field-code').fill(totp(secret, Date.now()));
    await id.locator('#two-factor-setup-submit').click();
    await id.locator('#recovery-codes').waitFor();
    await auditWidths(id, 'id recovery codes');
    await id.locator('#recovery-codes-done').click();
    await expect.poll(() => id.locator('#two-factor-status').getAttribute('data-enabled')).toBe('true');
    await auditWidths(id, 'id account two-step on');
    await idPage('/organizations/new', '#create-organization-form', 'id organization');
    await idPage('/account/password', '#change-password-form', 'id password');
    await idPage('/account/two-factor/disable', '#disable-two-factor-form', 'id two-step disable');
    await idPage('/logout', '#sign-out-confirm', 'id sign-out');
    await id.locator('#sign-out-confirm').click();
    await id.locator('#message-title').waitFor();
    await auditWidths(id, 'id signed out message');
    await context.close();

    // Signed out: sign in, the second step, sign up, forgot and reset password, an invalid link.
    const signInContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const id2 = await signInContext.newPage();
    watch(id2, 'account center');
    await id2.goto(`${product.consoleUrl}/intro?lang=en`);
    await id2.getByTestId('intro-sign-in').click();
    await id2.locator('#sign-in-form').waitFor();
    await expectSkipLink(id2, 'account-center');
    await auditWidths(id2, 'id sign in');
    await id2.locator('#field-login').fill(COLLEAGUE.email);
    await id2.locator('#field-password').fill('not the password');
    await id2.locator('#sign-in-submit').click();
    await id2.locator('.alert-error').waitFor();
    await auditWidths(id2, 'id sign in error');
    await id2.locator('#field-login').fill(COLLEAGUE.email);
    await id2.locator('#field-password').fill(COLLEAGUE.password);
    await id2.locator('#sign-in-submit').click();
    await id2.locator('#two-factor-form').waitFor();
    await auditWidths(id2, 'id second step');
    await id2.locator('#field-code').fill(totp(secret, Date.now() + 30_000));
    await id2.locator('#two-factor-submit').click();
    await id2.waitForURL(onConsole(product, '/credentials'), { timeout: 30_000 });

    // The colleague (an admin, signed in with both steps) makes the organization require two-step sign-in:
    // the demo user's one-step session then meets the "two-step sign-in required" screen.
    await id2.goto(`${product.consoleUrl}/organization/${organizationId}?lang=en`);
    await id2.getByTestId('require-two-factor-switch').locator('input').click();
    await expect.poll(() => id2.getByTestId('require-two-factor-switch').locator('input').isChecked()).toBe(true);
    await page.goto(`${product.consoleUrl}/credentials/${organizationId}?lang=en`);
    await page.getByTestId('two-factor-required').waitFor({ timeout: 30_000 });
    await auditWidths(page, 'two-step required');
    await id2.getByTestId('require-two-factor-switch').locator('input').click();
    await expect.poll(() => id2.getByTestId('require-two-factor-switch').locator('input').isChecked()).toBe(false);
    await signInContext.close();

    const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    watch(visitor, 'visitor');
    await visitor.goto(`${product.consoleUrl}/intro?lang=en`);
    await visitor.getByTestId('intro-create-account').click();
    await visitor.locator('#sign-up-form').waitFor();
    await auditWidths(visitor, 'id sign up');
    await visitor.locator('#sign-up-submit').click();
    await visitor.locator('.field.invalid').first().waitFor();
    await auditWidths(visitor, 'id sign up errors');
    await visitor.goto(`${product.consoleUrl}/intro?lang=en`);
    await visitor.getByTestId('intro-sign-in').click();
    await visitor.locator('#forgot-password-link').click();
    await visitor.locator('#forgot-password-form').waitFor();
    await auditWidths(visitor, 'id forgot password');
    await visitor.locator('#field-email').fill(COLLEAGUE.email);
    await visitor.locator('#forgot-password-submit').click();
    await visitor.locator('#forgot-password-sent').waitFor();
    await auditWidths(visitor, 'id forgot password sent');
    await expect
      .poll(async () => (await mailbox()).some((m) => m.subject === 'Reset your password'), { timeout: 30_000 })
      .toBe(true);
    const mail = (await mailbox()).find((m) => m.subject === 'Reset your password')!;
    const link = /https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail.text ?? '')![0];
    await visitor.goto(link);
    await visitor.locator('#reset-password-form').waitFor();
    await auditWidths(visitor, 'id reset password');
    await visitor.goto(`${product.idUrl}/account/reset-password?token=not-a-token&lang=en`);
    await visitor.locator('#message-title').waitFor();
    await auditWidths(visitor, 'id invalid link message');

    // The development mailbox (a developer's tool, served by the API in development).
    await visitor.goto(`${product.consoleUrl}/dev/mailbox/${mail.id}`);
    await visitor.getByText('Reset your password').first().waitFor();
    await auditWidths(visitor, 'dev mailbox message');
    await visitor.context().close();
  }, 600_000);

  it('the wallet: onboarding, offer, credentials, detail, consent, history, settings, locked', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const wallet = await context.newPage();
    watch(wallet, 'wallet');
    await wallet.goto(`${product.walletUrl}/receive?offer=${encodeURIComponent(offerForWallet)}&lang=en`);
    await wallet.getByTestId('wallet-onboarding').waitFor({ timeout: 30_000 });
    await auditWidths(wallet, 'wallet onboarding');
    await wallet.getByTestId('wallet-passcode').fill(PASSCODE);
    await wallet.getByTestId('wallet-passcode-confirm').fill(PASSCODE);
    await wallet.getByTestId('wallet-create').click();
    await wallet.getByTestId('offer-review').waitFor({ timeout: 30_000 });
    await auditWidths(wallet, 'wallet offer');
    await wallet.getByTestId('offer-accept').click();
    await wallet.getByTestId('credential-received').waitFor({ timeout: 30_000 });
    await auditWidths(wallet, 'wallet offer accepted');

    const navigate = async (to: string) => {
      await wallet.evaluate((target) => {
        window.history.pushState({}, '', target);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, to);
      await wallet.waitForURL((url) => url.pathname === to);
    };
    await navigate('/');
    const card = wallet.getByTestId('credential-card').first();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('valid');
    await expectSkipLink(wallet, 'wallet');
    await auditWidths(wallet, 'wallet credentials');
    await card.click();
    await wallet.getByTestId('credential-detail').waitFor();
    // Opening a credential checks its status again; "Check again" is disabled (and greyed) until that check ends.
    // Audited before, its colour could be caught changing as the check ends.
    await expect
      .poll(() => wallet.getByTestId('credential-status').getAttribute('data-check'), { timeout: 30_000 })
      .toMatch(/^(answered|failed)$/);
    await auditWidths(wallet, 'wallet credential detail');

    const individual = await api('POST', '/verifications/individuals', { verification_id: verificationId });
    const request = (await api('GET', `/verifications/${individual.id}/connect`)).connection_url;
    await wallet.goto(`${product.walletUrl}/present?request=${encodeURIComponent(request)}`);
    await wallet.getByTestId('present-consent').waitFor({ timeout: 30_000 });
    await auditWidths(wallet, 'wallet present consent');
    await wallet.getByTestId('present-share').click();
    await expect
      .poll(() => wallet.getByTestId('present-outcome').getAttribute('data-outcome'), { timeout: 30_000 })
      .toBe('shared');
    await auditWidths(wallet, 'wallet present shared');
    await navigate('/history');
    await expect.poll(() => wallet.getByTestId('history-item').count()).toBe(1);
    await auditWidths(wallet, 'wallet history');
    await navigate('/scan');
    await auditWidths(wallet, 'wallet scan');
    await navigate('/settings');
    await wallet.getByTestId('lock-now').waitFor();
    await auditWidths(wallet, 'wallet settings');
    await wallet.getByTestId('lock-now').click();
    await wallet.getByTestId('wallet-unlock').waitFor({ timeout: 30_000 });
    await auditWidths(wallet, 'wallet locked');
    await context.close();
  }, 300_000);

  it('the browsers met no script error', () => {
    expect(problems).toEqual([]);
  });
});

// A one-page PDF (checked by content on upload).
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
