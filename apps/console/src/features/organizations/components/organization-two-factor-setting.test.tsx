import { zOrganization } from '@cp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { saveTokens } from '../../../lib/token-store.ts';
import { OrganizationTwoFactorSetting } from './organization-two-factor-setting.tsx';

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
});

let puts: Array<{ body: unknown; identity: string | null }>;
let answer: 'ok' | 'own-session' | 'error';

beforeEach(() => {
  puts = [];
  answer = 'ok';
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/config') {
        return Response.json({
          account_center_url: 'http://id.test/',
          organization_create_url: null,
          password_change_url: null,
          wallet_url: 'http://wallet.test',
          languages: ['en'],
          upload_max_bytes: 1,
          upload_max_files: 1,
        });
      }
      if (url.pathname === `/api/organizations/${organization.id}` && init.method === 'PUT') {
        const body = JSON.parse(init.body as string);
        puts.push({ body, identity: new Headers(init.headers).get('CurrentIdentity') });
        if (answer === 'own-session') {
          return Response.json(
            { type: 'x', title: 'Conflict', status: 409, code: 'ORGANIZATION_TWO_FACTOR_SESSION_REQUIRED' },
            { status: 409 },
          );
        }
        if (answer === 'error') {
          return Response.json({ type: 'x', title: 'Error', status: 500, code: 'INTERNAL' }, { status: 500 });
        }
        return Response.json({ ...organization, require_two_factor: body.require_two_factor });
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
      <OrganizationTwoFactorSetting organization={value} />
    </QueryClientProvider>,
  );
  return screen.getByRole('switch');
}

describe('OrganizationTwoFactorSetting', () => {
  it('explains the setting and turns it on for the organization', async () => {
    const user = userEvent.setup({ delay: null });
    const toggle = renderSetting();
    expect(screen.getByRole('switch', { name: /Require two-step sign-in/ })).toBe(toggle);
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(/Integrations \(API keys\) are not affected/)).toBeTruthy();
    expect(toggle.getAttribute('aria-describedby')).toBe('two-factor-explanation');
    await user.click(toggle);
    await waitFor(() => expect(puts).toEqual([{ body: { require_two_factor: true }, identity: organization.id }]));
    await waitFor(() =>
      expect(notificationStore.get()?.title).toBe('Two-step sign-in is now required for this organization.'),
    );
    expect(screen.queryByTestId('two-factor-own-session-required')).toBeNull();
  });

  it('says to turn on two-step sign-in first when the own session is one-step (409), and stays off', async () => {
    const user = userEvent.setup({ delay: null });
    answer = 'own-session';
    const toggle = renderSetting();
    await user.click(toggle);
    const alert = await screen.findByTestId('two-factor-own-session-required');
    expect(alert.textContent).toContain('Turn on two-step sign-in in your own account');
    expect(alert.querySelector('a')?.getAttribute('href')).toBe('http://id.test/account');
    expect((toggle as HTMLInputElement).checked).toBe(false);
  });

  it('turns it off (sending false) and reports other failures as an update failure', async () => {
    const user = userEvent.setup({ delay: null });
    const toggle = renderSetting({ ...organization, require_two_factor: true });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    answer = 'error';
    await user.click(toggle);
    await waitFor(() => expect(puts.at(-1)?.body).toEqual({ require_two_factor: false }));
    await waitFor(() =>
      expect(notificationStore.get()?.title).toBe('Your Organization update failed. Please try again.'),
    );
    expect(screen.queryByTestId('two-factor-own-session-required')).toBeNull();
  });

  it('is written in Japanese too', async () => {
    await i18n.changeLanguage('ja');
    renderSetting();
    expect(screen.getByRole('switch', { name: /2段階認証を必須にする/ })).toBeTruthy();
  });
});
