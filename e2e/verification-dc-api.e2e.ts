import { answerDcApiRequest, resolveDcApiRequest } from '@cp/holder';
import { answerDcApiMdocRequest } from '@cp/holder/mdoc';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimCredential, claimMdoc, fetchHttp, makeHolder, makeMdocHolder } from '../apps/api/test/support/wallet.ts';
import { launchBrowser, snap } from './support/browser.ts';
import { type Product, runAdmin, startProduct } from './support/product.ts';

/**
 * The holder page over the Digital Credentials API (OpenID4VP 1.0 Appendix A), in Chromium: a browser with
 * `DigitalCredential` (installed by an init script, as no wallet is registered with this headless Chromium)
 * whose `navigator.credentials.get` hands the request to this test, which answers as the wallet on the device
 * would (@cp/holder's answerDcApiRequest, for the origin the browser reports; answerDcApiMdocRequest for an
 * mdoc, over the OpenID4VPDCAPIHandover session transcript). The page forwards the answer and shows the
 * outcome; the API checked it like any other presentation.
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

/** What the page's script sees: DigitalCredential and a credentials.get that asks the test's wallet. */
const FAKE_BROWSER_WALLET = `
  window.DigitalCredential = class DigitalCredential {
    static userAgentAllowsProtocol(protocol) { return protocol === 'openid4vp-v1-signed'; }
  };
  Object.defineProperty(navigator.credentials, 'get', {
    configurable: true,
    value: async (options) => {
      const request = options && options.digital && options.digital.requests && options.digital.requests[0];
      if (!request) throw new DOMException('Not a digital credential request', 'NotSupportedError');
      if (options.mediation !== 'required') throw new DOMException('Mediation must be required', 'NotAllowedError');
      const data = await window.__walletOnThisDevice(request.protocol, request.data);
      return { type: 'digital', protocol: request.protocol, data };
    },
  });
`;

function integratorKey() {
  const organizations = runAdmin(product, ['org', 'list']);
  const organizationId = organizations.stdout
    .split('\n')
    .find((line) => line.includes('Demo Organization'))
    ?.split(' ')[0];
  expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);
  const created = runAdmin(product, ['api-key', 'create', '--org', organizationId!, '--name', 'E2E DC API']);
  const key = /key: (\S+)/.exec(created.stdout)?.[1];
  const secret = /secret: (\S+)/.exec(created.stdout)?.[1];
  return { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
}

describe('the holder page with the Digital Credentials API', () => {
  it('asks the wallet on this device through the browser and shows success', async () => {
    const integrator = integratorKey();
    const json = { ...integrator, 'content-type': 'application/json' };
    const schemas = await fetch(`${product.consoleUrl}/api/schemas?page=1&limit=100`, { headers: integrator }).then(
      (r) => r.json(),
    );
    const work = schemas.results.find((s: { name: string }) => s.name === 'Work Certificate');
    const verification = await fetch(`${product.consoleUrl}/api/verifications`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Employees', schema_id: work.id, type: 'MULTI', attributes: [] }),
    }).then((r) => r.json());
    expect(verification.id).toBeTruthy();
    const issued = await fetch(`${product.consoleUrl}/api/credentials/with-recipient`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        credential: {
          name: 'Employment record',
          schema_id: work.id,
          claims: {
            first_name: 'Grace',
            last_name: 'Hopper',
            date_of_birth: '1906-12-09',
            job_title: 'Rear Admiral',
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
    const offer = await fetch(`${product.consoleUrl}/api/credentials/${issued.id}/connect`).then((r) => r.json());
    const holder = await makeHolder();
    const credential = await claimCredential(fetchHttp, offer.connection_url, holder);

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const problems: string[] = [];
    const asked: { protocol: string; origin: string }[] = [];
    // The wallet on this device: it is told the origin by the browser (the frame's), never by the page's script.
    await phone.exposeBinding('__walletOnThisDevice', async (source, protocol: string, data: unknown) => {
      const origin = new URL(source.frame.url()).origin;
      asked.push({ protocol, origin });
      const request = await resolveDcApiRequest(data, origin);
      const disclose = (request.dcql.credentials[0]?.claims ?? [])
        .map((claim) => claim.path[0])
        .filter((name): name is string => typeof name === 'string');
      return answerDcApiRequest(data, origin, [{ queryId: request.dcql.credentials[0]!.id, credential, disclose }], {
        key: holder,
      });
    });
    await phone.addInitScript(FAKE_BROWSER_WALLET);
    const page = await phone.newPage();
    page.on('pageerror', (err) => problems.push(err.message));

    // Japanese first (a screenshot only), then the English page that presents.
    await page.goto(`${product.consoleUrl}/connect/redirect/${verification.id}?lang=ja`);
    await page.waitForURL((url) => url.pathname.startsWith('/connect/verification/'));
    const button = page.getByTestId('verification-dc-api-button');
    await expect.poll(() => button.textContent()).toBe('この端末のウォレットを使う');
    await expect.poll(() => page.getByTestId('verification-qr').count()).toBe(1);
    await snap(page, 'verification-holder-dc-api-ja');

    await page.goto(`${product.consoleUrl}/connect/redirect/${verification.id}?lang=en`);
    await page.waitForURL((url) => url.pathname.startsWith('/connect/verification/'));
    const status = page.getByTestId('verification-status');
    await expect.poll(() => status.getAttribute('data-status')).toBe('CREATED');
    await expect.poll(() => button.textContent()).toBe('Use a wallet on this device');
    // The QR code stays for a wallet on another device.
    await expect.poll(() => page.getByTestId('verification-qr').count()).toBe(1);
    await snap(page, 'verification-holder-dc-api-en');

    await button.click();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 15_000 }).toBe('VERIFIED');
    expect(asked).toEqual([{ protocol: 'openid4vp-v1-signed', origin: product.consoleUrl }]);
    await snap(page, 'verification-holder-dc-api-success-en');

    // The integrator reads the attempt as verified, with the claims the wallet disclosed.
    const attemptId = new URL(page.url()).pathname.split('/').pop();
    const result = await fetch(`${product.consoleUrl}/api/verifications/${verification.id}/attempts/${attemptId}`, {
      headers: integrator,
    }).then((r) => r.json());
    expect(result.status).toBe('VERIFIED');
    expect(problems).toEqual([]);
    await phone.close();
  });
});

describe('the holder page with the Digital Credentials API, for an mdoc', () => {
  it('asks the wallet on this device for an mso_mdoc and shows success (the device signature over the DC API transcript)', async () => {
    const integrator = integratorKey();
    const json = { ...integrator, 'content-type': 'application/json' };
    const schemas = await fetch(`${product.consoleUrl}/api/schemas?page=1&limit=100`, { headers: integrator }).then(
      (r) => r.json(),
    );
    const work = schemas.results.find((s: { name: string }) => s.name === 'Work Certificate');
    const verification = await fetch(`${product.consoleUrl}/api/verifications`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: 'Employees (mdoc)',
        schema_id: work.id,
        format: 'mso_mdoc',
        type: 'MULTI',
        attributes: [],
      }),
    }).then((r) => r.json());
    expect(verification.format).toBe('mso_mdoc');
    const issued = await fetch(`${product.consoleUrl}/api/credentials/with-recipient`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        credential: {
          name: 'Employment record',
          schema_id: work.id,
          claims: {
            first_name: 'Katherine',
            last_name: 'Johnson',
            date_of_birth: '1918-08-26',
            job_title: 'Mathematician',
            location: 'Hampton',
            employment_type: 'Full time',
            start_date: '1953-06-01',
            end_date: '1986-08-01',
            description: 'Orbital mechanics',
          },
        },
        recipient: { email: 'katherine@example.com', first_name: 'Katherine', last_name: 'Johnson' },
      }),
    }).then((r) => r.json());
    const offer = await fetch(`${product.consoleUrl}/api/credentials/${issued.id}/connect`).then((r) => r.json());
    const holder = await makeMdocHolder();
    const mdoc = await claimMdoc(fetchHttp, offer.connection_url, holder);

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const problems: string[] = [];
    const asked: { protocol: string; origin: string; format?: string }[] = [];
    await phone.exposeBinding('__walletOnThisDevice', async (source, protocol: string, data: unknown) => {
      const origin = new URL(source.frame.url()).origin;
      const request = await resolveDcApiRequest(data, origin);
      const query = request.dcql.credentials[0]!;
      asked.push({ protocol, origin, format: query.format });
      return answerDcApiMdocRequest(data, origin, {
        queryId: query.id,
        issuerSigned: mdoc,
        paths: (query.claims ?? []).map((claim) => claim.path),
        signer: holder.cose,
      });
    });
    await phone.addInitScript(FAKE_BROWSER_WALLET);
    const page = await phone.newPage();
    page.on('pageerror', (err) => problems.push(err.message));

    await page.goto(`${product.consoleUrl}/connect/redirect/${verification.id}?lang=en`);
    await page.waitForURL((url) => url.pathname.startsWith('/connect/verification/'));
    const status = page.getByTestId('verification-status');
    const button = page.getByTestId('verification-dc-api-button');
    await expect.poll(() => status.getAttribute('data-status')).toBe('CREATED');
    await expect.poll(() => button.textContent()).toBe('Use a wallet on this device');
    await button.click();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 15_000 }).toBe('VERIFIED');
    expect(asked).toEqual([{ protocol: 'openid4vp-v1-signed', origin: product.consoleUrl, format: 'mso_mdoc' }]);
    await snap(page, 'verification-holder-dc-api-mdoc-success-en');

    const attemptId = new URL(page.url()).pathname.split('/').pop();
    const result = await fetch(`${product.consoleUrl}/api/verifications/${verification.id}/attempts/${attemptId}`, {
      headers: integrator,
    }).then((r) => r.json());
    expect(result.status).toBe('VERIFIED');
    expect(result.checks.find((c: { code: string }) => c.code === 'KEY_BINDING')).toMatchObject({ passed: true });
    expect(problems).toEqual([]);
    await phone.close();
  });
});
