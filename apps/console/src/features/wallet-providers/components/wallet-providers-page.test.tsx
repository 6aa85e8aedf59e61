import { type Organization, type WalletProvider, zWalletProvider } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { WalletProvidersPage } from './wallet-providers-page.tsx';

const organization: Organization = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme',
  description: null,
  did: null,
  logo: null,
  verified: true,
  verification_status: 'APPROVED',
  require_two_factor: false,
  created_at: '2026-01-01T00:00:00Z',
};

/** Shaped as a PEM certificate (the console checks the shape; the API checks the certificate). */
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGU=\n-----END CERTIFICATE-----';

/** A wallet provider as the API answers it: parsed by the contract, so a fixture cannot drift from the API. */
const walletProvider = (id: string, extra: Partial<WalletProvider> = {}): WalletProvider =>
  zWalletProvider.parse({
    id,
    name: 'Example Wallet',
    subject: 'CN=Example Wallet Provider CA,O=Example,C=JP',
    fingerprint: `3fa2190c${'11'.repeat(24)}e6677ab1`,
    not_after: '2031-05-01T00:00:00Z',
    kind: 'CA',
    certificate_pem: PEM,
    created_at: '2026-03-01T10:00:00Z',
    ...extra,
  });

const exampleWallet = walletProvider('b1111111-1111-4111-8111-111111111111');

type Call = { method: string; url: URL; headers: Headers; body: unknown };
let calls: Call[];
let providers: WalletProvider[];
let createAnswer: { status: number; body: unknown } | null;

beforeEach(() => {
  calls = [];
  providers = [exampleWallet];
  createAnswer = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, headers: new Headers(init.headers), body });
      if (url.pathname === '/api/wallet-providers' && method === 'GET') {
        return Response.json({ results: providers, total: providers.length });
      }
      if (url.pathname === '/api/wallet-providers' && method === 'POST') {
        if (createAnswer) return Response.json(createAnswer.body, { status: createAnswer.status });
        const created = walletProvider('b3333333-3333-4333-8333-333333333333', { name: body.name, kind: 'SIGNING' });
        providers = [...providers, created];
        return Response.json(created, { status: 201 });
      }
      const one = url.pathname.match(/^\/api\/wallet-providers\/([^/]+)$/);
      if (one && method === 'DELETE') {
        providers = providers.filter((provider) => provider.id !== one[1]);
        return new Response(null, { status: 204 });
      }
      return Response.json({ status: 404, code: 'NOT_FOUND' }, { status: 404 });
    }),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

function renderPage() {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter([{ path: '/wallet-providers', element: <WalletProvidersPage /> }], {
    initialEntries: ['/wallet-providers'],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
  return { user: userEvent.setup() };
}

describe('WalletProvidersPage', { timeout: 30_000 }, () => {
  it('lists the providers with kind, subject, short fingerprint and expiry, for the current organization', async () => {
    renderPage();
    const row = await screen.findByTestId(`wallet-provider-row-${exampleWallet.id}`);
    expect(row.textContent).toContain('Example Wallet');
    expect(within(row).getByTestId(`wallet-provider-kind-${exampleWallet.id}`).textContent).toBe('CA certificate');
    expect(within(row).getByTestId(`wallet-provider-fingerprint-${exampleWallet.id}`).textContent).toBe(
      '3F:A2:19:0C…E6:67:7A:B1',
    );
    expect(within(row).getByTestId(`wallet-provider-expires-${exampleWallet.id}`).textContent).toBe('May 1, 2031');
    expect(calls[0]?.headers.get('CurrentIdentity')).toBe(organization.id);
  });

  it('adds a provider from a pasted certificate, after checking its shape', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId('wallet-provider-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a wallet provider' });
    await user.type(within(dialog).getByTestId('wallet-provider-name'), 'Pinned Wallet');
    await user.type(within(dialog).getByTestId('wallet-provider-certificate'), 'not a certificate');
    await user.click(within(dialog).getByTestId('wallet-provider-save'));
    expect(await within(dialog).findByText(/Must be one PEM certificate/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.clear(within(dialog).getByTestId('wallet-provider-certificate'));
    await user.click(within(dialog).getByTestId('wallet-provider-certificate'));
    await user.paste(PEM);
    await user.click(within(dialog).getByTestId('wallet-provider-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Pinned Wallet', certificate_pem: PEM });
    expect(await screen.findByTestId('wallet-provider-row-b3333333-3333-4333-8333-333333333333')).toBeTruthy();
    expect(notificationStore.get()?.title).toBe('Wallet provider “Pinned Wallet” added');
  });

  it('shows why the API refused a certificate, under the certificate, keeping the dialog open', async () => {
    createAnswer = {
      status: 422,
      body: {
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        code: 'WALLET_PROVIDER_INVALID',
        detail: 'This certificate has expired.',
        errors: [{ path: 'certificate_pem', message: 'This certificate has expired.' }],
      },
    };
    const { user } = renderPage();
    await user.click(await screen.findByTestId('wallet-provider-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a wallet provider' });
    await user.type(within(dialog).getByTestId('wallet-provider-name'), 'Old Wallet');
    await user.click(within(dialog).getByTestId('wallet-provider-certificate'));
    await user.paste(PEM);
    await user.click(within(dialog).getByTestId('wallet-provider-save'));
    expect(
      await within(dialog).findByText(/This certificate cannot vouch for wallets\.\s*This certificate has expired\./),
    ).toBeTruthy();
  });

  it('removes a provider only after confirmation', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`wallet-provider-delete-${exampleWallet.id}`));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this wallet provider?' });
    expect(confirm.textContent).toContain('“Example Wallet”');
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await user.click(screen.getByTestId('wallet-provider-delete-confirm'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    expect(await screen.findByTestId('wallet-providers-empty')).toBeTruthy();
  });

  it('is written in Japanese, Spanish and Korean too', async () => {
    for (const [language, title] of [
      ['ja', 'ウォレットプロバイダー'],
      ['es', 'Proveedores de billeteras'],
      ['ko', '월렛 제공자'],
    ] as const) {
      await i18n.changeLanguage(language);
      renderPage();
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
      document.body.innerHTML = '';
    }
  });
});
