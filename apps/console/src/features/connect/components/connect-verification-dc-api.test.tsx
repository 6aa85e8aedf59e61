import type { VerificationConnect, VerificationOutcome } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { ConnectVerificationPage } from './connect-verification-page.tsx';

/**
 * The holder page with the Digital Credentials API (OpenID4VP 1.0 Appendix A): the button only where the browser
 * has `DigitalCredential` and allows `openid4vp-v1-signed`; the request from the API handed to
 * `navigator.credentials.get`, the wallet's `data` forwarded as it is, then the outcome; a closed sheet or a
 * refusal leaves the QR code there.
 */

const individualId = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const request = 'openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fverifier.test%2Fr%2F1';
const signedRequest = 'eyJhbGciOiJFUzI1NiJ9.eyJub25jZSI6Im4ifQ.c2ln';
const walletData = { response: 'eyJhbGciOiJFQ0RILUVTIn0..aXY.Y2lwaGVy.dGFn' };

const connect: VerificationConnect = {
  id: individualId,
  status: 'CREATED',
  verification: { name: 'Proof of employment', description: null },
  verifier: { name: 'Acme', logo_url: null, verified: true, brand_color: null },
  requested_claims: ['first_name'],
  requested_claim_labels: [{ name: 'first_name', label: { en: 'First name', ja: '名', es: 'Nombre', ko: '이름' } }],
  connection_url: request,
};

let outcome: VerificationOutcome;
let responseAnswer: { status: number; body: unknown };
let requestUrls: string[];
let posted: unknown[];
let credentialsGet: ReturnType<typeof vi.fn>;

beforeEach(() => {
  outcome = { id: individualId, status: 'CREATED', verified_at: null, failed_checks: [] };
  responseAnswer = { status: 200, body: { status: 'VERIFIED', redirect_uri: 'x' } };
  requestUrls = [];
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/config') return Response.json({ wallet_url: 'http://wallet.test/' });
      if (url.pathname === `/api/verifications/${individualId}/connect`) return Response.json(connect);
      if (url.pathname === `/api/verifications/${individualId}/verify`) return Response.json(outcome);
      if (url.pathname === `/oid4vp/dc-api/requests/${individualId}`) {
        requestUrls.push(url.href);
        return Response.json({ protocol: 'openid4vp-v1-signed', data: { request: signedRequest } });
      }
      if (url.pathname === `/oid4vp/dc-api/responses/${individualId}` && init.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        if (responseAnswer.status === 200)
          outcome = { ...outcome, status: 'VERIFIED', verified_at: '2026-11-28T00:00:00Z' };
        return Response.json(responseAnswer.body, { status: responseAnswer.status });
      }
      return Response.json({ status: 404 }, { status: 404 });
    }),
  );
  credentialsGet = vi.fn(async () => ({ type: 'digital', protocol: 'openid4vp-v1-signed', data: walletData }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'credentials');
  i18n.changeLanguage('en');
});

/** A browser with the Digital Credentials API: `DigitalCredential` and `navigator.credentials.get`. */
function installDigitalCredentials(options: { allows?: boolean; withAllowsProtocol?: boolean } = {}) {
  const { allows = true, withAllowsProtocol = true } = options;
  vi.stubGlobal(
    'DigitalCredential',
    withAllowsProtocol
      ? { userAgentAllowsProtocol: (protocol: string) => allows && protocol === 'openid4vp-v1-signed' }
      : {},
  );
  Object.defineProperty(navigator, 'credentials', { value: { get: credentialsGet }, configurable: true });
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/connect/verification/:id', element: <ConnectVerificationPage /> }], {
    initialEntries: [`/connect/verification/${individualId}`],
  });
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

const status = () => screen.getByTestId('verification-status').getAttribute('data-status');

describe('ConnectVerificationPage with the Digital Credentials API', { timeout: 30_000 }, () => {
  it('shows exactly the QR code and the wallet links when the browser has no DigitalCredential', async () => {
    Object.defineProperty(navigator, 'credentials', { value: { get: credentialsGet }, configurable: true });
    renderPage();
    await screen.findByTestId('verification-qr');
    expect(screen.getByTestId('verification-open-wallet')).toBeTruthy();
    expect(screen.queryByTestId('verification-dc-api')).toBeNull();
    expect(screen.queryByText('Use a wallet on this device')).toBeNull();
  });

  it('offers no button when the browser does not allow openid4vp-v1-signed', async () => {
    installDigitalCredentials({ allows: false });
    renderPage();
    await screen.findByTestId('verification-qr');
    expect(screen.queryByTestId('verification-dc-api')).toBeNull();
  });

  it('offers the button above the QR code, and the QR code stays', async () => {
    installDigitalCredentials();
    renderPage();
    const button = await screen.findByTestId('verification-dc-api-button');
    expect(button.textContent).toBe('Use a wallet on this device');
    expect(screen.getByTestId('verification-qr')).toBeTruthy();
    expect(screen.getByTestId('verification-open-wallet')).toBeTruthy();
  });

  it('trusts DigitalCredential alone where the browser cannot say which protocols it allows', async () => {
    installDigitalCredentials({ withAllowsProtocol: false });
    renderPage();
    await screen.findByTestId('verification-dc-api-button');
  });

  it('asks the browser with the API’s signed request, forwards the wallet’s answer and shows the outcome', async () => {
    installDigitalCredentials();
    renderPage();
    fireEvent.click(await screen.findByTestId('verification-dc-api-button'));
    await waitFor(() => expect(status()).toBe('VERIFIED'));
    expect(requestUrls).toHaveLength(1);
    expect(new URL(requestUrls[0]!).searchParams.get('origin')).toBe(window.location.origin);
    expect(credentialsGet).toHaveBeenCalledTimes(1);
    expect(credentialsGet.mock.calls[0]![0]).toEqual({
      digital: { requests: [{ protocol: 'openid4vp-v1-signed', data: { request: signedRequest } }] },
      mediation: 'required',
    });
    expect(posted).toEqual([walletData]);
    expect(screen.getByText('Verification complete')).toBeTruthy();
  });

  it('reads the answer of a browser that gives data as JSON text', async () => {
    credentialsGet = vi.fn(async () => ({ protocol: 'openid4vp-v1-signed', data: JSON.stringify(walletData) }));
    installDigitalCredentials();
    renderPage();
    fireEvent.click(await screen.findByTestId('verification-dc-api-button'));
    await waitFor(() => expect(posted).toEqual([walletData]));
  });

  it('says the sheet was closed when the holder cancels, keeps the QR code and lets them try again', async () => {
    credentialsGet = vi.fn(async () => {
      throw new DOMException('The user closed the sheet', 'AbortError');
    });
    installDigitalCredentials();
    renderPage();
    fireEvent.click(await screen.findByTestId('verification-dc-api-button'));
    const alert = await screen.findByTestId('verification-dc-api-error');
    expect(alert.getAttribute('data-reason')).toBe('CANCELLED');
    expect(alert.textContent).toMatch(/closed before anything was shared/);
    expect(screen.getByTestId('verification-qr')).toBeTruthy();
    expect(posted).toEqual([]);
    expect(status()).toBe('CREATED');
    const button = screen.getByTestId('verification-dc-api-button') as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(credentialsGet).toHaveBeenCalledTimes(2));
  });

  it('says the browser failed on another error, in Japanese', async () => {
    await i18n.changeLanguage('ja');
    credentialsGet = vi.fn(async () => {
      throw new DOMException('No wallet', 'NetworkError');
    });
    installDigitalCredentials();
    renderPage();
    fireEvent.click(await screen.findByText('この端末のウォレットを使う'));
    const alert = await screen.findByTestId('verification-dc-api-error');
    expect(alert.getAttribute('data-reason')).toBe('BROWSER_ERROR');
    expect(alert.textContent).toMatch(/ブラウザがこの端末のウォレットから応答を受け取れませんでした/);
    expect(screen.getByTestId('verification-qr')).toBeTruthy();
  });

  it('says the answer was not accepted when the API refuses it, and the QR code stays', async () => {
    responseAnswer = { status: 400, body: { error: 'invalid_request', error_description: 'cannot be decrypted' } };
    installDigitalCredentials();
    renderPage();
    fireEvent.click(await screen.findByTestId('verification-dc-api-button'));
    const alert = await screen.findByTestId('verification-dc-api-error');
    expect(alert.getAttribute('data-reason')).toBe('REFUSED');
    expect(screen.getByTestId('verification-qr')).toBeTruthy();
    expect(status()).toBe('CREATED');
  });
});
