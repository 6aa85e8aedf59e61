import { zOrganization } from '@cp/contracts';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppShell, preloadAppShell } from '../../../app/shell/app-shell.tsx';
import { i18n } from '../../../i18n/index.ts';
import { api } from '../../../lib/api-client.ts';
import { CURRENT_IDENTITY_KEY } from '../../../lib/current-identity.ts';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { getTokens, saveTokens } from '../../../lib/token-store.ts';
import { clearTwoFactorRequired } from '../../../lib/two-factor-required.ts';

const strict = zOrganization.parse({
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Strict Bank',
  description: null,
  did: null,
  logo: null,
  verified: true,
  verification_status: 'APPROVED',
  require_two_factor: true,
  created_at: '2026-01-01T00:00:00Z',
});
const relaxed = zOrganization.parse({
  ...strict,
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Relaxed Co',
  require_two_factor: false,
});

let logoutUrl: string | null;
let calls: string[];
let assign: ReturnType<typeof vi.fn>;

// As the router does before it renders the shell: jsdom has no matchMedia, so the shell is the phone's, whose top bar
// is a chunk of its own.
beforeAll(() => preloadAppShell());

beforeEach(() => {
  calls = [];
  logoutUrl =
    'http://id.test/session/end?client_id=console&post_logout_redirect_uri=http%3A%2F%2Flocalhost%2Fintro&state=s';
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const identity = new Headers(init.headers).get('CurrentIdentity');
      calls.push(`${init.method ?? 'GET'} ${url.pathname} ${identity ?? ''}`.trim());
      if (url.pathname === '/api/config') {
        return Response.json({
          account_center_url: 'http://id.test',
          organization_create_url: null,
          password_change_url: null,
          wallet_url: 'http://wallet.test',
          languages: ['en'],
          upload_max_bytes: 1,
          upload_max_files: 1,
        });
      }
      if (url.pathname === '/api/users') {
        return Response.json({ id: 'u', first_name: 'Ada', last_name: 'L', email: 'ada@example.com', avatar: null });
      }
      if (url.pathname === '/api/schemas') {
        if (identity === strict.id) {
          return Response.json(
            { type: 'x', title: 'Forbidden', status: 403, code: 'ORGANIZATION_TWO_FACTOR_REQUIRED', detail: 'x' },
            { status: 403 },
          );
        }
        return Response.json({ results: [], total: 0, page: 1, limit: 10 });
      }
      if (url.pathname === '/api/auth/logout') return Response.json({ logout_url: logoutUrl });
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearTwoFactorRequired();
  i18n.changeLanguage('en');
});

/** A page of the organization, as every signed-in page is: one organization-scoped call. */
function SchemasProbe() {
  const query = useQuery({
    queryKey: ['probe', window.localStorage.getItem(CURRENT_IDENTITY_KEY)],
    queryFn: () => api.get<{ total: number }>('/schemas', { query: { page: 1, limit: 10 } }),
    retry: false,
  });
  return <p>{query.isSuccess ? 'schemas page' : 'loading page'}</p>;
}

function renderShell(current = strict) {
  window.localStorage.setItem(CURRENT_IDENTITY_KEY, current.id);
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [strict, relaxed],
    current,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(
    [
      { element: <AppShell />, children: [{ path: '/schemas', element: <SchemasProbe /> }] },
      { path: '/intro', element: <p>intro page</p> },
    ],
    { initialEntries: ['/schemas'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
  return router;
}

describe('the two-step sign-in screen', () => {
  it('replaces the page when the organization answers 403 ORGANIZATION_TWO_FACTOR_REQUIRED', async () => {
    renderShell();
    const screenCard = await screen.findByTestId('two-factor-required');
    expect(screenCard.textContent).toContain('Strict Bank requires two-step sign-in');
    expect(screenCard.textContent).toContain('This session was opened with your password only.');
    expect((await screen.findByTestId('two-factor-open-account')).getAttribute('href')).toBe('http://id.test/account');
    expect(screenCard.textContent).toContain('Turn on two-step sign-in in your account.');
    expect(screen.queryByText('schemas page')).toBeNull();
    // Its own screen, not the generic failure notification.
    expect(notificationStore.get()).toBeNull();
  });

  it('leaves the pages of an organization that does not require it alone', async () => {
    renderShell(relaxed);
    expect(await screen.findByText('schemas page')).toBeTruthy();
    expect(screen.queryByTestId('two-factor-required')).toBeNull();
  });

  it('signs out of the console and of the provider from its button', async () => {
    const user = userEvent.setup({ delay: null });
    renderShell();
    await user.click(await screen.findByTestId('two-factor-sign-out'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(logoutUrl));
    expect(calls.some((call) => call.startsWith('POST /api/auth/logout'))).toBe(true);
    expect(getTokens().accessToken).toBeNull();
  });

  it('goes to /intro when the provider has no end-session address', async () => {
    const user = userEvent.setup({ delay: null });
    logoutUrl = null;
    const router = renderShell();
    await user.click(await screen.findByTestId('two-factor-sign-out'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/intro'));
    expect(assign).not.toHaveBeenCalled();
  });

  it('is written in Japanese too', async () => {
    i18n.changeLanguage('ja');
    renderShell();
    expect((await screen.findByTestId('two-factor-required')).textContent).toContain(
      'Strict Bank では2段階認証が必要です',
    );
  });
});
