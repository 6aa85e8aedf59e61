import { zIssuerPolicy, zOrganization } from '@cp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { saveTokens } from '../../../lib/token-store.ts';
import { OrganizationIssuerPolicySetting } from './organization-issuer-policy-setting.tsx';

const organization = zOrganization.parse({
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Acme',
  description: null,
  did: null,
  logo: null,
  verified: true,
  verification_status: 'APPROVED',
  require_two_factor: false,
  created_at: '2026-01-01T00:00:00Z',
  role: 'admin',
});

const defaults = zIssuerPolicy.parse({ dpop_required: false, wallet_attestation_required: false, updated_at: null });

let puts: Array<{ body: unknown; identity: string | null }>;
let current = defaults;

beforeEach(() => {
  puts = [];
  current = defaults;
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === `/api/organizations/${organization.id}/issuer-policy`) {
        if (init.method === 'PUT') {
          const body = JSON.parse(init.body as string);
          puts.push({ body, identity: new Headers(init.headers).get('CurrentIdentity') });
          current = zIssuerPolicy.parse({ ...body, updated_at: '2026-11-26T19:00:00Z' });
        }
        return Response.json(current);
      }
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

function renderSetting(value = organization) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <OrganizationIssuerPolicySetting organization={value} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('OrganizationIssuerPolicySetting', () => {
  it('lets an admin require DPoP, keeping wallet attestation as it stands', async () => {
    const user = userEvent.setup({ delay: null });
    renderSetting();
    const dpop = await screen.findByRole('switch', { name: /Require DPoP/ });
    expect((dpop as HTMLInputElement).checked).toBe(false);
    await user.click(dpop);
    await waitFor(() =>
      expect(puts).toEqual([
        { body: { dpop_required: true, wallet_attestation_required: false }, identity: organization.id },
      ]),
    );
    await waitFor(() => expect((dpop as HTMLInputElement).checked).toBe(true));
    expect(notificationStore.get()?.title).toBe("DPoP is now required to collect this organization's credentials.");
  });

  it('lets an admin require wallet attestation, keeping DPoP as it stands, and links the wallet providers', async () => {
    current = zIssuerPolicy.parse({ ...defaults, dpop_required: true, updated_at: '2026-11-26T19:00:00Z' });
    const user = userEvent.setup({ delay: null });
    renderSetting();
    const attestation = await screen.findByRole('switch', { name: /Require wallet attestation/ });
    expect((attestation as HTMLInputElement).disabled).toBe(false);
    await user.click(attestation);
    await waitFor(() =>
      expect(puts).toEqual([
        { body: { dpop_required: true, wallet_attestation_required: true }, identity: organization.id },
      ]),
    );
    await waitFor(() => expect((attestation as HTMLInputElement).checked).toBe(true));
    expect(notificationStore.get()?.title).toBe(
      "Wallet attestation is now required to collect this organization's credentials.",
    );
    expect(screen.getByTestId('issuer-policy-wallet-providers-link').getAttribute('href')).toBe('/wallet-providers');
  });

  it('shows the policy to a member without letting them change it', async () => {
    current = zIssuerPolicy.parse({ ...defaults, dpop_required: true, updated_at: '2026-11-26T19:00:00Z' });
    renderSetting({ ...organization, role: 'member' });
    const dpop = await screen.findByRole('switch', { name: /Require DPoP/ });
    expect((dpop as HTMLInputElement).checked).toBe(true);
    expect((dpop as HTMLInputElement).disabled).toBe(true);
    const attestation = screen.getByRole('switch', { name: /Require wallet attestation/ });
    expect((attestation as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('issuer-policy-wallet-providers-link')).toBeNull();
    expect(screen.getByTestId('issuer-policy-admins-only')).toBeTruthy();
  });

  it('is written in Japanese, Spanish and Korean too', async () => {
    for (const [language, label] of [
      ['ja', /DPoP を必須にする/],
      ['es', /Exigir DPoP/],
      ['ko', /DPoP 필수/],
    ] as const) {
      await i18n.changeLanguage(language);
      const { unmount } = render(
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <OrganizationIssuerPolicySetting organization={organization} />
          </MemoryRouter>
        </QueryClientProvider>,
      );
      expect(await screen.findByRole('switch', { name: label })).toBeTruthy();
      unmount();
    }
  });
});
