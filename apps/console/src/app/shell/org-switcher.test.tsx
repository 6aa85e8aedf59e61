import type { Organization } from '@cp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_IDENTITY_KEY } from '../../lib/current-identity.ts';
import { saveTokens } from '../../lib/token-store.ts';
import { IdentityProvider } from '../providers/identity-provider.tsx';
import { OrgSwitcher } from './org-switcher.tsx';

const org = (id: string, name: string): Organization => ({
  id,
  name,
  description: null,
  did: null,
  logo: null,
  verified: false,
  verification_status: 'UNDEFINED',
  require_two_factor: false,
  created_at: '2026-01-01T00:00:00Z',
});
const A = org('11111111-1111-4111-8111-111111111111', 'Alpha');
const B = org('22222222-2222-4222-8222-222222222222', 'Beta');

let organizationCalls: Headers[];
/** What GET /api/organizations answers: the user's organizations as the API knows them at that moment. */
let listed: Organization[];
beforeEach(() => {
  organizationCalls = [];
  listed = [A, B];
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (path === '/api/organizations') {
        organizationCalls.push(new Headers(init.headers));
        return Response.json({ results: listed });
      }
      if (path === '/api/config') {
        return Response.json({
          account_center_url: null,
          organization_create_url: null,
          password_change_url: null,
          wallet_url: 'w',
          languages: [],
        });
      }
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderSwitcher() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>home</p> },
      { path: '/schemas', element: <OrgSwitcher /> },
    ],
    { initialEntries: ['/schemas'] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <IdentityProvider>
        <RouterProvider router={router} />
      </IdentityProvider>
    </QueryClientProvider>,
  );
  return router;
}

describe('OrgSwitcher', () => {
  it('shows the stored organization when it is still in the list', async () => {
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, B.id);
    renderSwitcher();
    expect(await within(await screen.findByTestId('org-switcher')).findByText('Beta')).toBeTruthy();
  });

  it('falls back to the first organization when the stored one is gone', async () => {
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, 'gone');
    renderSwitcher();
    expect(await within(await screen.findByTestId('org-switcher')).findByText('Alpha')).toBeTruthy();
    await waitFor(() => expect(window.localStorage.getItem(CURRENT_IDENTITY_KEY)).toBe(A.id));
  });

  it('stores the selected organization, reloads the list and goes to /', async () => {
    const user = userEvent.setup();
    const router = renderSwitcher();
    await within(await screen.findByTestId('org-switcher')).findByText('Alpha');
    await user.click(screen.getByRole('button', { name: /^Alpha\b.*Switch organization$/ }));
    // The menu's code comes on the first open (or once the browser is idle): it appears when it is in.
    expect(await screen.findByTestId(`org-option-${A.id}`)).toBeTruthy();
    await user.click(screen.getByTestId(`org-option-${B.id}`));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(window.localStorage.getItem(CURRENT_IDENTITY_KEY)).toBe(B.id);
    await waitFor(() => expect(organizationCalls.length).toBeGreaterThanOrEqual(2));
    // The list is the user's own: it names no organization (the stored one may have been left or lost).
    expect(organizationCalls.at(-1)?.has('CurrentIdentity')).toBe(false);
  });

  it('asks for the list again when the menu opens: an organization created elsewhere meanwhile is in it', async () => {
    listed = [A];
    const user = userEvent.setup();
    renderSwitcher();
    await within(await screen.findByTestId('org-switcher')).findByText('Alpha');
    expect(organizationCalls).toHaveLength(1);
    // Created at the account center, or joined in another tab, after the console read the list.
    listed = [A, B];
    await user.click(screen.getByRole('button', { name: /^Alpha\b.*Switch organization$/ }));
    expect(await screen.findByTestId(`org-option-${B.id}`)).toBeTruthy();
    expect(screen.getByTestId(`org-option-${A.id}`)).toBeTruthy();
    expect(organizationCalls).toHaveLength(2);
  });

  it('opens the local create form when no account center handles creation', async () => {
    const user = userEvent.setup();
    renderSwitcher();
    await within(await screen.findByTestId('org-switcher')).findByText('Alpha');
    await user.click(screen.getByTestId('org-switcher'));
    await waitFor(() => expect(screen.getByTestId('create-organization')).toBeTruthy());
    await user.click(screen.getByTestId('create-organization'));
    expect(await screen.findByRole('dialog', { name: 'Create an organization' })).toBeTruthy();
  });
});
