import type { CredentialConnect } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, i18n } from '../../../i18n/index.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { CONNECT_POLL_MS } from '../api/get-credential-connect.ts';
import { ConnectCredentialPage } from './connect-credential-page.tsx';

const id = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const offer = 'openid-credential-offer://?credential_offer_uri=http%3A%2F%2Flocalhost%2Foffer%2F1';

const connect = (extra: Partial<CredentialConnect> = {}): CredentialConnect => ({
  id,
  status: 'ISSUED',
  credential_name: 'Gold membership',
  recipient: { first_name: 'Ada', last_name: 'Lovelace' },
  issuer: { name: 'Acme', logo_url: null, verified: true, brand_color: null },
  claim_labels: [
    {
      name: 'clearance_level',
      label: { en: 'Clearance level', ja: 'クリアランスレベル', es: 'Nivel de acreditación', ko: '보안 등급' },
    },
    { name: 'holder_name', label: { en: 'Holder name', ja: 'Holder name', es: 'Holder name', ko: 'Holder name' } },
  ],
  connection_url: offer,
  expires_at: '2026-03-08T10:00:00Z',
  tx_code_required: false,
  ...extra,
});

let answer: { status: number; body: unknown };
let connectCalls: number;

beforeEach(() => {
  answer = { status: 200, body: connect() };
  connectCalls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/config') return Response.json({ wallet_url: 'http://wallet.test' });
      if (url.pathname === `/api/credentials/${id}/connect`) {
        connectCalls++;
        return Response.json(answer.body, { status: answer.status });
      }
      return Response.json({ status: 404 }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  i18n.changeLanguage('en');
  window.localStorage.clear();
});

function renderPage() {
  const router = createMemoryRouter([{ path: '/connect/credential/:id', element: <ConnectCredentialPage /> }], {
    initialEntries: [`/connect/credential/${id}`],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const status = () => screen.getByTestId('claim-status').getAttribute('data-status');

describe('ConnectCredentialPage', { timeout: 30_000 }, () => {
  it('shows the issuer, the QR code, the wallet button and the raw offer link', async () => {
    renderPage();
    await screen.findByTestId('claim-qr');
    expect(status()).toBe('ISSUED');
    expect(screen.getByTestId('claim-issuer').textContent).toBe('Acme');
    expect(screen.getByTestId('claim-issuer-verified')).toBeTruthy();
    // No brand colour: a neutral band and the product's button.
    expect(screen.getByTestId('claim-issuer-band').getAttribute('data-brand-color')).toBe('');
    expect(screen.getByTestId('claim-credential-name').textContent).toBe('Gold membership');
    expect(screen.getByTestId('claim-qr').querySelector('svg')).toBeTruthy();
    expect(screen.getByTestId('claim-offer-link').getAttribute('href')).toBe(offer);
    await waitFor(() =>
      expect(screen.getByTestId('claim-open-wallet').getAttribute('href')).toBe(
        `http://wallet.test/receive?offer=${encodeURIComponent(offer)}`,
      ),
    );
    expect(screen.queryByTestId('claim-pin-hint')).toBeNull();
  });

  it('says who issued it, with its logo, its verified badge and its brand colour (text chosen for contrast)', async () => {
    answer = {
      status: 200,
      body: connect({
        issuer: { name: 'Acme', logo_url: 'https://api.test/api/media/logo-1', verified: true, brand_color: '#ffcc00' },
      }),
    };
    renderPage();
    await screen.findByTestId('claim-qr');
    const band = screen.getByTestId('claim-issuer-band');
    expect(band.textContent).toContain('Issued by');
    expect(band.textContent).toContain('Acme');
    expect(screen.getByTestId('claim-issuer-verified').textContent).toBe('Verified organization');
    const logo = screen.getByTestId('claim-issuer-logo').querySelector('img');
    expect(logo?.getAttribute('src')).toBe('https://api.test/api/media/logo-1');
    expect(logo?.getAttribute('alt')).toBe('Acme logo');
    // A light yellow: near-black text, on the band and on the wallet button alike.
    expect(getComputedStyle(band).backgroundColor).toBe('rgb(255, 204, 0)');
    expect(getComputedStyle(band).color).toBe('rgb(17, 17, 17)');
    // The button becomes a link once the wallet's address is known: read it again each time.
    const button = () => screen.getByTestId('claim-open-wallet');
    await waitFor(() => expect(getComputedStyle(button()).backgroundColor).toBe('rgb(255, 204, 0)'));
    expect(getComputedStyle(button()).color).toBe('rgb(17, 17, 17)');
    // The product's name is not what the holder reads first.
    expect(screen.queryByText('Credential Console')).toBeNull();
  });

  it('puts white text on a dark brand colour, and shows the initial without a logo', async () => {
    answer = {
      status: 200,
      body: connect({ issuer: { name: 'navy Institute', logo_url: null, verified: false, brand_color: '#003366' } }),
    };
    renderPage();
    await screen.findByTestId('claim-qr');
    const band = screen.getByTestId('claim-issuer-band');
    expect(getComputedStyle(band).backgroundColor).toBe('rgb(0, 51, 102)');
    expect(getComputedStyle(band).color).toBe('rgb(255, 255, 255)');
    expect(screen.getByTestId('claim-issuer-logo').textContent).toBe('N');
    expect(screen.queryByTestId('claim-issuer-verified')).toBeNull();
  });

  it('lists what the credential contains by label, never by claim name, in the page language', async () => {
    renderPage();
    await screen.findByTestId('claim-qr');
    const labels = screen.getByTestId('claim-labels');
    expect(labels.textContent).toContain('Clearance level');
    expect(labels.textContent).toContain('Holder name');
    expect(labels.textContent).not.toContain('clearance_level');
    await act(async () => {
      await changeLanguage('ja');
    });
    await waitFor(() => expect(screen.getByTestId('claim-labels').textContent).toContain('クリアランスレベル'));
    expect(screen.getByTestId('claim-issuer-band').textContent).toContain('発行者');
  });

  it('opens the wallet in a new tab on a desktop, so this page stays and keeps polling', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPage();
    await waitFor(() =>
      expect(screen.getByTestId('claim-open-wallet').getAttribute('href')).toContain('http://wallet.test/receive'),
    );
    const button = screen.getByTestId('claim-open-wallet');
    expect(button.getAttribute('target')).toBe('_blank');
    expect(button.getAttribute('rel')).toContain('noopener');
    // Another wallet on this device: the custom scheme stays in this tab (the OS hands it to the app).
    expect(screen.getByTestId('claim-offer-link').getAttribute('target')).toBeNull();
    // Still here, still polling: it moves to "received" by itself.
    const before = connectCalls;
    answer = { status: 200, body: connect({ status: 'CLAIMED', connection_url: null }) };
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CONNECT_POLL_MS + 100);
    });
    expect(connectCalls).toBeGreaterThan(before);
    await waitFor(() => expect(status()).toBe('CLAIMED'));
  });

  it('opens the wallet in the same tab on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('pointer: coarse'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    renderPage();
    await waitFor(() =>
      expect(screen.getByTestId('claim-open-wallet').getAttribute('href')).toContain('http://wallet.test/receive'),
    );
    expect(screen.getByTestId('claim-open-wallet').getAttribute('target')).toBeNull();
  });

  it('shows the PIN hint when the offer needs a transaction code', async () => {
    answer = { status: 200, body: connect({ tx_code_required: true }) };
    renderPage();
    expect(await screen.findByTestId('claim-pin-hint')).toBeTruthy();
  });

  it('switches to the success state by itself once claimed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPage();
    await screen.findByTestId('claim-qr');
    answer = { status: 200, body: connect({ status: 'CLAIMED', connection_url: null }) };
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CONNECT_POLL_MS + 100);
    });
    await waitFor(() => expect(status()).toBe('CLAIMED'));
    expect(screen.getByText('Credential received')).toBeTruthy();
    // Still the issuer's page.
    expect(screen.getByTestId('claim-issuer').textContent).toBe('Acme');
    const calls = connectCalls;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CONNECT_POLL_MS * 2);
    });
    expect(connectCalls).toBe(calls);
  });

  it('explains an expired offer', async () => {
    answer = { status: 200, body: connect({ status: 'EXPIRED', connection_url: null }) };
    renderPage();
    await waitFor(() => expect(status()).toBe('EXPIRED'));
    expect(screen.getByText('This offer has expired')).toBeTruthy();
    expect(screen.queryByTestId('claim-qr')).toBeNull();
  });

  it('explains a revoked credential', async () => {
    answer = { status: 200, body: connect({ status: 'REVOKED', connection_url: null }) };
    renderPage();
    await waitFor(() => expect(status()).toBe('REVOKED'));
    expect(screen.getByText('This credential was revoked')).toBeTruthy();
  });

  it('explains an unknown id', async () => {
    answer = { status: 404, body: { status: 404, code: 'CREDENTIAL_NOT_FOUND' } };
    renderPage();
    await waitFor(() => expect(status()).toBe('NOT_FOUND'));
    expect(screen.getByText('This credential offer does not exist')).toBeTruthy();
  });
});
