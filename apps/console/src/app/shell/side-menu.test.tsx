import { type MemberRole, type Organization, zOrganization } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdentityContext, type IdentityState } from '../../lib/identity-context.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { saveTokens } from '../../lib/token-store.ts';
import { AdminOnlyRoute } from '../routes/admin-only-route.tsx';
import { SideMenu } from './side-menu.tsx';

const organizationAs = (role: MemberRole | undefined): Organization =>
  zOrganization.parse({
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Acme',
    description: null,
    did: null,
    logo: null,
    verified: true,
    verification_status: 'APPROVED',
    require_two_factor: false,
    created_at: '2026-01-01T00:00:00Z',
    ...(role ? { role } : {}),
  });

beforeEach(() => {
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (path === '/api/users') {
        return Response.json({
          id: 'a0000000-0000-4000-8000-000000000001',
          username: 'ada',
          email: 'ada@example.com',
          first_name: 'Ada',
          last_name: 'Lovelace',
          job_title: null,
          avatar: null,
          is_platform_admin: false,
        });
      }
      if (path === '/api/config') {
        return Response.json({ account_center_url: null, organization_create_url: null, wallet_url: 'w' });
      }
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string, organization: Organization) {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(
    [
      { path: '/members', element: <SideMenu /> },
      {
        path: '/integrations',
        element: (
          <AdminOnlyRoute>
            <p>integrations page</p>
          </AdminOnlyRoute>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
}

const navKeys = () =>
  within(screen.getByRole('navigation', { name: 'Main navigation' }))
    .getAllByRole('link')
    .map((link) => link.getAttribute('data-testid'));

describe('the side menu by role', { timeout: 30_000 }, () => {
  it('hides the admin-only destinations (integrations, trust anchors) from a member', async () => {
    renderAt('/members', organizationAs('member'));
    await screen.findByTestId('nav-members');
    expect(navKeys()).toEqual([
      'nav-credentials',
      'nav-schemas',
      'nav-verifications',
      'nav-organization',
      'nav-members',
      'nav-settings',
    ]);
    expect(screen.getByTestId('nav-members').getAttribute('href')).toBe('/members');
  });

  it('shows them to an admin (and to an organization answered without a role, as before roles)', async () => {
    for (const role of ['admin', undefined] as const) {
      renderAt('/members', organizationAs(role));
      await screen.findAllByTestId('nav-members');
      expect(navKeys()).toEqual([
        'nav-credentials',
        'nav-schemas',
        'nav-verifications',
        'nav-trust-anchors',
        'nav-wallet-providers',
        'nav-integrations',
        'nav-organization',
        'nav-members',
        'nav-activity',
        'nav-settings',
      ]);
      cleanup();
    }
  });

  it('is one named navigation landmark whose lists hold list items only (WAI-ARIA list structure)', async () => {
    renderAt('/members', organizationAs('admin'));
    await screen.findByTestId('nav-members');
    const navigation = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(screen.getAllByRole('navigation')).toEqual([navigation]);
    for (const list of within(navigation).getAllByRole('list')) {
      for (const child of Array.from(list.children)) expect(child.tagName).toBe('LI');
    }
    expect(screen.getByTestId('logout').closest('li')).not.toBeNull();
    expect(screen.getByTestId('nav-members').getAttribute('aria-current')).toBe('page');
  });

  it("tells a member who opens an admin page why it isn't for them", async () => {
    renderAt('/integrations', organizationAs('member'));
    const notice = await screen.findByTestId('admin-only');
    expect(notice.textContent).toContain('Only admins can open this page');
    expect(notice.textContent).toContain('Your role in Acme is Member');
    expect(screen.queryByText('integrations page')).toBeNull();
  });

  it('opens admin pages for an admin', async () => {
    renderAt('/integrations', organizationAs('admin'));
    expect(await screen.findByText('integrations page')).toBeTruthy();
  });
});
