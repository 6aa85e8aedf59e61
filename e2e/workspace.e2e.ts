import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, snap } from './support/browser.ts';
import { onConsole, signIn, signUpWithOrganization } from './support/journeys.ts';
import { type Product, runAdmin, startProduct } from './support/product.ts';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: 'admin@example.com' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('the organization workspace, as a new user would use it', () => {
  it('creates a schema of every attribute type, duplicates and deletes it; uses an API key; uploads a logo; passes KYB', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.consoleUrl });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await signUpWithOrganization(
      page,
      product,
      {
        firstName: 'Mary',
        lastName: 'Somerville',
        username: 'mary',
        email: 'mary@example.com',
        password: 'Mechanism-1831!',
      },
      { name: 'Somerville College', description: 'Sciences' },
    );

    // A schema with one attribute of each type.
    await page.getByTestId('nav-schemas').click();
    await page.waitForURL(onConsole(product, '/schemas'));
    await page.getByTestId('schemas-table').waitFor();
    await page.getByTestId('schemas-create-button').click();
    await page.waitForURL(onConsole(product, '/schemas/create'));
    await page.getByTestId('schema-name').fill('Lecture Attendance');
    await page.getByTestId('schema-description').fill('Who attended which lecture');
    const attributes = [
      ['student_name', 'TEXT'],
      ['lectures', 'NUMBER'],
      ['passed', 'BOOLEAN'],
      ['notes_url', 'URL'],
      ['attended_on', 'DATETIME'],
      ['contact', 'EMAIL'],
    ] as const;
    for (const [index, [name, type]] of attributes.entries()) {
      if (index > 0) await page.getByTestId('attribute-add').click();
      await page.getByTestId(`attribute-name-${index}`).fill(name);
      await page.getByTestId(`attribute-type-${index}`).selectOption(type);
    }
    await expect
      .poll(() => page.getByTestId('attribute-type-4').locator('option:checked').textContent())
      .toBe('Date / Time');
    await page.getByTestId('schema-publish').click();
    await page.getByTestId('schema-publish-confirm').click();
    await page.waitForURL((url) => url.pathname === '/schemas');
    const row = page.locator('[data-testid^="schema-row-"]', { hasText: 'Lecture Attendance' });
    await row.waitFor();
    const schemaId = (await row.getAttribute('data-testid'))!.replace('schema-row-', '');
    await snap(page, 'workspace-schemas-en');

    // Duplicate it, publish the copy, then delete the copy.
    await page.getByTestId(`schema-duplicate-${schemaId}`).click();
    await page.waitForURL(onConsole(product, `/schemas/create/${schemaId}`));
    await expect.poll(() => page.getByTestId('schema-name').inputValue()).toContain('Lecture Attendance');
    await page.getByTestId('schema-name').fill('Lecture Attendance (copy)');
    await page.getByTestId('schema-publish').click();
    await page.getByTestId('schema-publish-confirm').click();
    await page.waitForURL((url) => url.pathname === '/schemas');
    const copy = page.locator('[data-testid^="schema-row-"]', { hasText: 'Lecture Attendance (copy)' });
    await copy.waitFor();
    const copyId = (await copy.getAttribute('data-testid'))!.replace('schema-row-', '');
    await page.getByTestId(`schema-delete-${copyId}`).click();
    await page.getByTestId('schema-delete-confirm').click();
    await expect.poll(() => page.getByTestId(`schema-row-${copyId}`).count()).toBe(0);
    await expect.poll(() => page.getByTestId(`schema-row-${schemaId}`).count()).toBe(1);

    // An API key: create, read the secret once, call GET /api/schemas with Basic auth, delete, refused.
    await page.getByTestId('nav-integrations').click();
    await page.waitForURL(onConsole(product, '/integrations'));
    await page.locator('[data-testid="integration-add-button"], [data-testid="integration-add-empty"]').first().click();
    await page.getByTestId('integration-name').fill('Registrar system');
    await page.getByTestId('integration-save').click();
    const key = (await page.getByTestId('integration-key').textContent())!.trim();
    const secret = (await page.getByTestId('integration-secret').textContent())!.trim();
    expect(key).toMatch(/^ck_/);
    expect(secret).toMatch(/^cs_/);
    await page.getByTestId('integration-copy-secret').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByTestId('integration-secret-close').click();
    await expect.poll(() => page.getByTestId('integration-secret').count()).toBe(0);

    const basic = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
    const call = () =>
      fetch(`${product.consoleUrl}/api/schemas?page=1&limit=10`, { headers: { authorization: basic } });
    const ok = await call();
    expect(ok.status).toBe(200);
    expect((await ok.json()).results.map((s: { id: string }) => s.id)).toContain(schemaId);

    const keyRow = page.locator('[data-testid^="integration-row-"]', { hasText: 'Registrar system' }).first();
    const keyRowId = (await keyRow.getAttribute('data-testid'))!.replace('integration-row-', '');
    await page.getByTestId(`integration-delete-${keyRowId}`).click();
    await page.getByTestId('integration-delete-confirm').click();
    await expect.poll(() => page.locator(`[data-testid="integration-row-${keyRowId}"]`).count()).toBe(0);
    expect((await call()).status).toBe(401);
    await snap(page, 'workspace-integrations-en');

    // The organization profile: upload a logo; it shows at once and after a reload.
    await page.getByTestId('nav-organization').click();
    await page.waitForURL(onConsole(product, '/organization/'));
    await page.getByTestId('logo-upload-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect
      .poll(() => page.getByTestId('organization-logo').getAttribute('src'), { timeout: 15_000 })
      .toMatch(/\/api\/media\//);
    await page.reload();
    await expect.poll(() => page.getByTestId('organization-logo').getAttribute('src')).toMatch(/\/api\/media\//);

    // KYB: apply with a document; the banner says it is under review.
    await expect.poll(() => page.getByTestId('kyb-banner').getAttribute('data-status')).toBe('UNDEFINED');
    await page.getByTestId('kyb-apply-button').click();
    await page.getByTestId('kyb-apply-dialog').waitFor();
    await page
      .getByTestId('kyb-upload-input')
      .setInputFiles({ name: 'registration.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByTestId('kyb-submit').click();
    await expect
      .poll(() => page.getByTestId('kyb-banner').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('PENDING');
    await snap(page, 'workspace-kyb-pending-en');

    // A platform administrator approves it in the review queue.
    const admin = runAdmin(product, [
      'user',
      'create',
      '--email',
      'admin@example.com',
      '--password',
      'Review-Queue1!',
      '--first-name',
      'Ada',
      '--last-name',
      'Admin',
    ]);
    expect(admin.status).toBe(0);
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, product, 'admin@example.com', 'Review-Queue1!');
    // The administrator belongs to no organization: the review queue is reachable all the same.
    await adminPage.getByTestId('no-organization-admin-kyb').click();
    await adminPage.waitForURL(onConsole(product, '/admin/kyb'));
    await adminPage.getByTestId('admin-kyb-table').waitFor();
    const application = adminPage.locator('[data-testid^="admin-kyb-row-"]', { hasText: 'Somerville College' });
    await application.waitFor();
    const applicationId = (await application.getAttribute('data-testid'))!.replace('admin-kyb-row-', '');
    await snap(adminPage, 'workspace-kyb-review-en');
    await adminPage.getByTestId(`admin-kyb-approve-${applicationId}`).click();
    await expect
      .poll(() => adminPage.getByTestId(`admin-kyb-row-${applicationId}`).count(), { timeout: 15_000 })
      .toBe(0);
    await adminContext.close();

    // The organization sees the approval, and its members got the decision by e-mail.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('kyb-banner').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('APPROVED');
    await expect
      .poll(
        async () => {
          const mailbox = await fetch(`${product.consoleUrl}/dev/mailbox/messages`).then((r) => r.json());
          return mailbox.results.filter((m: { to: string[] }) => m.to.includes('mary@example.com')).length;
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

// A 1×1 PNG and a one-page PDF, checked by content on upload.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEfgH/1jq1nQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
