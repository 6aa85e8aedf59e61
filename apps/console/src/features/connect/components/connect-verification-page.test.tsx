import {
  type VerificationCheckCode,
  type VerificationConnect,
  type VerificationOutcome,
  verificationCheckCodes,
} from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, i18n } from '../../../i18n/index.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { VERIFICATION_POLL_MS } from '../api/get-verification-outcome.ts';
import { ConnectRedirectPage } from './connect-redirect-page.tsx';
import { ConnectVerificationPage } from './connect-verification-page.tsx';

const verificationId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const individualId = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const request = 'openid4vp://?client_id=x509_san_dns%3Averifier.test&request_uri=https%3A%2F%2Fverifier.test%2Fr%2F1';

const connect = (extra: Partial<VerificationConnect> = {}): VerificationConnect => ({
  id: individualId,
  status: 'CREATED',
  verification: { name: 'Proof of employment', description: 'Show that you work with us.' },
  verifier: { name: 'Acme', logo_url: null, verified: true, brand_color: null },
  requested_claims: ['first_name', 'job_title'],
  requested_claim_labels: [
    { name: 'first_name', label: { en: 'First name', ja: '名', es: 'Nombre', ko: '이름' } },
    { name: 'job_title', label: { en: 'Job title', ja: '職位', es: 'Cargo', ko: '직책' } },
  ],
  connection_url: request,
  ...extra,
});
const outcome = (extra: Partial<VerificationOutcome> = {}): VerificationOutcome => ({
  id: individualId,
  status: 'CREATED',
  verified_at: null,
  failed_checks: [],
  ...extra,
});

type Answer = { status: number; body: unknown };
let connectAnswer: Answer;
let verifyAnswer: Answer;
let createAnswer: Answer;
let requesterAnswer: Answer;
let posts: { path: string; body: Record<string, unknown> }[];
let verifyCalls: number;

beforeEach(() => {
  connectAnswer = { status: 200, body: connect() };
  verifyAnswer = { status: 200, body: outcome() };
  createAnswer = {
    status: 201,
    body: {
      id: individualId,
      verification_id: verificationId,
      customer_id: 'x',
      status: 'CREATED',
      created_at: '2026-11-22T10:00:00Z',
    },
  };
  requesterAnswer = {
    status: 200,
    body: {
      name: 'Globex Bank',
      logo_url: 'https://api.test/api/media/globex',
      verified: true,
      brand_color: '#003366',
    },
  };
  posts = [];
  verifyCalls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/config') return Response.json({ wallet_url: 'http://wallet.test/' });
      if (url.pathname === '/api/verifications/individuals' && init.method === 'POST') {
        posts.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
        return Response.json(createAnswer.body, { status: createAnswer.status });
      }
      if (url.pathname === `/api/verifications/${verificationId}/requester`) {
        return Response.json(requesterAnswer.body, { status: requesterAnswer.status });
      }
      if (url.pathname === `/api/verifications/${individualId}/connect`) {
        return Response.json(connectAnswer.body, { status: connectAnswer.status });
      }
      if (url.pathname === `/api/verifications/${individualId}/verify`) {
        verifyCalls++;
        return Response.json(verifyAnswer.body, { status: verifyAnswer.status });
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

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/connect/redirect/:id', element: <ConnectRedirectPage /> },
      { path: '/connect/verification/:id', element: <ConnectVerificationPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return router;
}

const status = () => screen.getByTestId('verification-status').getAttribute('data-status');

describe('ConnectRedirectPage', { timeout: 30_000 }, () => {
  it('generates a customer id of three 4-digit groups, posts once and moves on to the attempt', async () => {
    const router = renderAt(`/connect/redirect/${verificationId}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/connect/verification/${individualId}`));
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body.verification_id).toBe(verificationId);
    expect(posts[0]?.body.customer_id).toMatch(/^\d{4}-\d{4}-\d{4}$/);
    // Replaced, not pushed: going back does not open a second attempt.
    expect(router.state.historyAction).toBe('REPLACE');
    await screen.findByTestId('verification-qr');
  });

  it('passes the customer query parameter as the customer id', async () => {
    const router = renderAt(`/connect/redirect/${verificationId}?customer=crm-4711`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/connect/verification/${individualId}`));
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body.customer_id).toBe('crm-4711');
  });

  it('passes a signed link’s customer, expiry and signature through as they are', async () => {
    const signature = 'q1w2e3r4t5y6u7i8o9p0-_ASDFGHJKLzxcvbnm12';
    const router = renderAt(
      `/connect/redirect/${verificationId}?customer=crm-4711&expires=1893456000&signature=${signature}`,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`/connect/verification/${individualId}`));
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({
      verification_id: verificationId,
      customer_id: 'crm-4711',
      expires: 1893456000,
      signature,
    });
  });

  it('tells the holder that a link with a bad signature is not valid (403)', async () => {
    createAnswer = {
      status: 403,
      body: { type: 'x', title: 'Forbidden', status: 403, code: 'VERIFICATION_LINK_SIGNATURE_INVALID' },
    };
    renderAt(
      `/connect/redirect/${verificationId}?customer=crm-4711&expires=1893456000&signature=forged-signature-000000`,
    );
    await waitFor(() =>
      expect(screen.getByTestId('verification-redirect').getAttribute('data-status')).toBe('LINK_INVALID'),
    );
    expect(screen.getByText('This link is not valid')).toBeTruthy();
    expect(posts).toHaveLength(1);
  });

  it('tells the holder that an expired link needs a new one (410)', async () => {
    createAnswer = { status: 410, body: { type: 'x', title: 'Gone', status: 410, code: 'VERIFICATION_LINK_EXPIRED' } };
    renderAt(
      `/connect/redirect/${verificationId}?customer=crm-4711&expires=1600000000&signature=old-signature-0000000000`,
    );
    await waitFor(() =>
      expect(screen.getByTestId('verification-redirect').getAttribute('data-status')).toBe('LINK_EXPIRED'),
    );
    expect(screen.getByText('This link has expired')).toBeTruthy();
    expect(screen.getByText('Ask the organization that sent it for a new one.')).toBeTruthy();
  });

  it('does not open an attempt for a signed link without its customer', async () => {
    renderAt(`/connect/redirect/${verificationId}?expires=1893456000&signature=q1w2e3r4t5y6u7i8o9p0`);
    await waitFor(() =>
      expect(screen.getByTestId('verification-redirect').getAttribute('data-status')).toBe('LINK_INVALID'),
    );
    expect(posts).toHaveLength(0);
  });

  it('says clearly that a single-use link was already used', async () => {
    createAnswer = {
      status: 409,
      body: { type: 'x', title: 'Conflict', status: 409, code: 'VERIFICATION_ALREADY_USED' },
    };
    renderAt(`/connect/redirect/${verificationId}`);
    await waitFor(() => expect(screen.getByTestId('verification-redirect').getAttribute('data-status')).toBe('USED'));
    expect(screen.getByText('This verification link has already been used')).toBeTruthy();
    expect(posts).toHaveLength(1);
    // Who sent the link, in its own colours, so the holder knows whom to ask for a new one.
    await waitFor(() => expect(screen.getByTestId('verification-verifier').textContent).toBe('Globex Bank'));
    const band = screen.getByTestId('verification-verifier-band');
    expect(band.textContent).toContain('Requested by');
    expect(getComputedStyle(band).backgroundColor).toBe('rgb(0, 51, 102)');
    expect(getComputedStyle(band).color).toBe('rgb(255, 255, 255)');
    expect(screen.getByTestId('verification-verifier-logo').querySelector('img')?.getAttribute('src')).toBe(
      'https://api.test/api/media/globex',
    );
  });

  it('still explains the link when who asks cannot be read', async () => {
    requesterAnswer = { status: 404, body: { type: 'x', title: 'x', status: 404, code: 'VERIFICATION_NOT_FOUND' } };
    createAnswer = { status: 404, body: { type: 'x', title: 'x', status: 404, code: 'VERIFICATION_NOT_FOUND' } };
    renderAt(`/connect/redirect/${verificationId}`);
    await waitFor(() =>
      expect(screen.getByTestId('verification-redirect').getAttribute('data-status')).toBe('NOT_FOUND'),
    );
    await waitFor(() => expect(screen.queryByTestId('verification-verifier-band')).toBeNull());
  });

  it('explains a link that does not exist', async () => {
    createAnswer = { status: 404, body: { type: 'x', title: 'x', status: 404, code: 'VERIFICATION_NOT_FOUND' } };
    renderAt(`/connect/redirect/${verificationId}`);
    await waitFor(() =>
      expect(screen.getByTestId('verification-redirect').getAttribute('data-status')).toBe('NOT_FOUND'),
    );
    expect(screen.getByText('This verification does not exist')).toBeTruthy();
  });

  it('shows the Verification Error page when the call fails otherwise', async () => {
    createAnswer = { status: 500, body: { type: 'x', title: 'x', status: 500, code: 'INTERNAL' } };
    renderAt(`/connect/redirect/${verificationId}`);
    await waitFor(() => expect(screen.getByTestId('verification-redirect').getAttribute('data-status')).toBe('ERROR'));
    expect(screen.getByText('Verification Error')).toBeTruthy();
    expect(screen.getByText(/try again later or contact support/)).toBeTruthy();
  });
});

describe('ConnectVerificationPage', { timeout: 30_000 }, () => {
  it('shows the verifier, the claims, the QR code and both wallet links', async () => {
    renderAt(`/connect/verification/${individualId}`);
    await screen.findByTestId('verification-qr');
    expect(status()).toBe('CREATED');
    expect(screen.getByTestId('verification-verifier').textContent).toBe('Acme');
    expect(screen.getByTestId('verification-verifier-verified')).toBeTruthy();
    expect(screen.getByTestId('verification-name').textContent).toBe('Proof of employment');
    const claims = screen.getByTestId('verification-claims');
    expect(claims.textContent).toContain('Job title');
    expect(claims.textContent).toContain('First name');
    expect(claims.textContent).not.toContain('job_title');
    expect(screen.getByText('Acme asks you to share')).toBeTruthy();
    expect(screen.getByTestId('verification-verifier-band').textContent).toContain('Requested by');
    expect(screen.getByTestId('verification-qr').querySelector('svg')).toBeTruthy();
    expect(screen.getByTestId('verification-request-link').getAttribute('href')).toBe(request);
    await waitFor(() =>
      expect(screen.getByTestId('verification-open-wallet').getAttribute('href')).toBe(
        `http://wallet.test/present?request=${encodeURIComponent(request)}`,
      ),
    );
    expect(screen.getByText('Waiting for your wallet to scan the code…')).toBeTruthy();
  });

  it('draws the request in the verifier’s colour and labels the claims in Japanese', async () => {
    connectAnswer = {
      status: 200,
      body: connect({ verifier: { name: 'Acme', logo_url: null, verified: true, brand_color: '#ffcc00' } }),
    };
    renderAt(`/connect/verification/${individualId}`);
    await screen.findByTestId('verification-qr');
    const band = screen.getByTestId('verification-verifier-band');
    expect(getComputedStyle(band).backgroundColor).toBe('rgb(255, 204, 0)');
    expect(getComputedStyle(band).color).toBe('rgb(17, 17, 17)');
    // The button becomes a link once the wallet's address is known: read it again each time.
    const button = () => screen.getByTestId('verification-open-wallet');
    await waitFor(() => expect(getComputedStyle(button()).backgroundColor).toBe('rgb(255, 204, 0)'));
    await act(async () => {
      await changeLanguage('ja');
    });
    await waitFor(() => expect(screen.getByTestId('verification-claims').textContent).toContain('職位'));
    expect(screen.getByTestId('verification-claims').textContent).toContain('名');
  });

  it('opens the wallet in a new tab on a desktop and keeps following the attempt', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderAt(`/connect/verification/${individualId}`);
    await waitFor(() =>
      expect(screen.getByTestId('verification-open-wallet').getAttribute('href')).toContain(
        'http://wallet.test/present',
      ),
    );
    const button = screen.getByTestId('verification-open-wallet');
    expect(button.getAttribute('target')).toBe('_blank');
    expect(button.getAttribute('rel')).toContain('noopener');
    expect(screen.getByTestId('verification-request-link').getAttribute('target')).toBeNull();
    verifyAnswer = { status: 200, body: outcome({ status: 'VERIFIED', verified_at: '2026-11-22T10:01:00Z' }) };
    await act(async () => {
      await vi.advanceTimersByTimeAsync(VERIFICATION_POLL_MS + 100);
    });
    await waitFor(() => expect(status()).toBe('VERIFIED'));
  });

  it('moves by itself from CREATED to REQUESTED to VERIFIED, then stops polling', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderAt(`/connect/verification/${individualId}`);
    await screen.findByTestId('verification-qr');
    expect(status()).toBe('CREATED');

    verifyAnswer = { status: 200, body: outcome({ status: 'REQUESTED' }) };
    await act(async () => {
      await vi.advanceTimersByTimeAsync(VERIFICATION_POLL_MS + 100);
    });
    await waitFor(() => expect(status()).toBe('REQUESTED'));
    expect(screen.getByText('Waiting for your wallet')).toBeTruthy();
    expect(screen.queryByTestId('verification-qr')).toBeNull();

    verifyAnswer = { status: 200, body: outcome({ status: 'VERIFIED', verified_at: '2026-11-22T10:01:00Z' }) };
    await act(async () => {
      await vi.advanceTimersByTimeAsync(VERIFICATION_POLL_MS + 100);
    });
    await waitFor(() => expect(status()).toBe('VERIFIED'));
    expect(screen.getByText('Verification complete')).toBeTruthy();

    const calls = verifyCalls;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(VERIFICATION_POLL_MS * 3);
    });
    expect(verifyCalls).toBe(calls);
  });

  it('lets the holder bring the QR code back while the wallet holds the request', async () => {
    verifyAnswer = { status: 200, body: outcome({ status: 'REQUESTED' }) };
    renderAt(`/connect/verification/${individualId}`);
    const show = await screen.findByTestId('verification-show-qr');
    act(() => show.click());
    expect(await screen.findByTestId('verification-qr')).toBeTruthy();
    expect(status()).toBe('REQUESTED');
  });

  it('shows Verification Failed with the failed checks in plain words', async () => {
    verifyAnswer = { status: 200, body: outcome({ status: 'FAILED', failed_checks: ['STATUS', 'RULE', 'RULE'] }) };
    renderAt(`/connect/verification/${individualId}`);
    await waitFor(() => expect(status()).toBe('FAILED'));
    expect(screen.getByText('Verification Failed')).toBeTruthy();
    const items = screen.getByTestId('verification-failed-checks').querySelectorAll('li');
    expect(Array.from(items, (li) => li.textContent)).toEqual([
      'The credential has been revoked or suspended by its issuer.',
      "The information in your credential does not meet this verifier's requirements.",
    ]);
  });

  it('has a plain message for every check code in every language', () => {
    for (const language of ['en', 'ja', 'es', 'ko']) {
      const t = i18n.getFixedT(language);
      for (const code of verificationCheckCodes as readonly VerificationCheckCode[]) {
        const key = `connect.verification.checks.${code}`;
        expect(i18n.exists(key, language), `${language} ${code}`).toBe(true);
        expect(t(key)).not.toBe(key);
      }
    }
  });

  it('shows Verification Error when polling fails', async () => {
    verifyAnswer = { status: 500, body: { type: 'x', title: 'x', status: 500, code: 'INTERNAL' } };
    renderAt(`/connect/verification/${individualId}`);
    await waitFor(() => expect(status()).toBe('ERROR'));
    expect(screen.getByText('Verification Error')).toBeTruthy();
    expect(screen.getByText(/try again later or contact support/)).toBeTruthy();
  });

  it('explains an unknown attempt', async () => {
    connectAnswer = { status: 404, body: { type: 'x', title: 'x', status: 404, code: 'VERIFICATION_NOT_FOUND' } };
    verifyAnswer = connectAnswer;
    renderAt(`/connect/verification/${individualId}`);
    await waitFor(() => expect(status()).toBe('NOT_FOUND'));
    expect(screen.getByText('This verification does not exist')).toBeTruthy();
  });
});
