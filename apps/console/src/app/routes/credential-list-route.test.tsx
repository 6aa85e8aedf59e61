import type { Organization } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { IdentityContext, type IdentityState } from '../../lib/identity-context.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { saveTokens } from '../../lib/token-store.ts';
import { CredentialListRoute } from './credential-list-route.tsx';
import { RouteGuard } from './route-guard.tsx';

const complete: Organization = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme University',
  description: 'Degrees and certificates since 1850.',
  did: 'did:web:localhost:orgs:11111111-1111-4111-8111-111111111111',
  logo: {
    id: '22222222-2222-4222-8222-222222222222',
    url: '/api/media/22222222-2222-4222-8222-222222222222',
    filename: 'logo.png',
    created_at: '2026-01-01T00:00:00Z',
  },
  verified: true,
  verification_status: 'APPROVED',
  require_two_factor: false,
  created_at: '2026-01-01T00:00:00Z',
};

/** The credential list's own heading: the list rendered, whatever it holds. */
const findList = () => screen.findByRole('heading', { level: 1, name: i18n.t('pages.credentials') });

const page = (results: unknown[] = []) => Response.json({ results, total: results.length, page: 1, limit: 10 });

beforeEach(() => {
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => page()),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  i18n.changeLanguage('en');
});

/** Signing in lands on `/credentials`; the guard and the list route do the rest, as in the app. */
function signInAs(organization: Organization, entry = '/credentials') {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(
    [
      {
        element: <RouteGuard />,
        children: [
          { path: '/credentials', element: <p>complete your profile page</p> },
          { path: '/credentials/:orgId', element: <CredentialListRoute /> },
          { path: '/organization/:id', element: <p>organization profile page</p> },
        ],
      },
    ],
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

describe('landing after sign-in', () => {
  it('shows a complete, verified organization its credential list with no profile prompt', async () => {
    const { router } = signInAs(complete);
    expect(await findList()).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/credentials/${complete.id}`);
    expect(screen.queryByText('complete your profile page')).toBeNull();
    expect(screen.queryByTestId('profile-hint')).toBeNull();
  });

  it('shows an organization without a description or logo the list, with a hint naming what is missing', async () => {
    const { router, user } = signInAs({ ...complete, description: null, logo: null });
    expect(await findList()).toBeTruthy();
    const hint = screen.getByTestId('profile-hint');
    expect(hint.getAttribute('data-missing')).toBe('description logo');
    expect(hint.textContent).toContain('Add a description and a logo');
    await user.click(within(hint).getByTestId('profile-hint-complete'));
    expect(await screen.findByText('organization profile page')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/organization/${complete.id}`);
  });

  it('names only the logo when the description is there (a blank description counts as none)', async () => {
    signInAs({ ...complete, logo: null });
    expect((await screen.findByTestId('profile-hint')).getAttribute('data-missing')).toBe('logo');
  });

  it('treats a description of spaces as missing', async () => {
    signInAs({ ...complete, description: '   ' });
    expect((await screen.findByTestId('profile-hint')).getAttribute('data-missing')).toBe('description');
  });

  it('lets the hint be dismissed, for that organization, across visits', async () => {
    const incomplete = { ...complete, logo: null };
    const { user } = signInAs(incomplete);
    await user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('profile-hint')).toBeNull();
    expect(await findList()).toBeTruthy();

    // Another visit remembers it; another organization still gets its own hint.
    cleanup();
    signInAs(incomplete);
    expect(await findList()).toBeTruthy();
    expect(screen.queryByTestId('profile-hint')).toBeNull();
    cleanup();
    signInAs({ ...incomplete, id: '33333333-3333-4333-8333-333333333333' });
    expect(await screen.findByTestId('profile-hint')).toBeTruthy();
  });

  it('speaks Japanese', async () => {
    i18n.changeLanguage('ja');
    signInAs({ ...complete, description: null });
    expect((await screen.findByTestId('profile-hint')).textContent).toContain('組織プロフィールを完成させましょう');
  });
});
