import type { CredentialConnect } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
  issuer: { name: 'Acme', logo_url: null, verified: true },
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
