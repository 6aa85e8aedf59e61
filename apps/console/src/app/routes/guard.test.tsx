import type { Organization } from '@cp/contracts';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { IdentityContext, type IdentityState, type IdentityStatus } from '../../lib/identity-context.ts';
import { decideGuard } from './guard.ts';
import { RouteGuard } from './route-guard.tsx';

const ORG = '11111111-1111-4111-8111-111111111111';

describe('decideGuard (spec §2)', () => {
  it('shows a blank page while the organization list loads', () => {
    expect(decideGuard('/credentials', 'loading', null)).toEqual({ kind: 'blank' });
    expect(decideGuard('/intro', 'loading', null)).toEqual({ kind: 'blank' });
  });

  it.each<IdentityStatus>(['idle', 'failed'])('sends every private path to /intro when %s', (status) => {
    for (const path of ['/', '/credentials', '/settings', '/organization/x', '/schemas/create/1', '/no-such-page']) {
      expect(decideGuard(path, status, null)).toEqual({ kind: 'redirect', to: '/intro' });
    }
    expect(decideGuard('/intro', status, null)).toEqual({ kind: 'render' });
  });

  it('leaves /oauth/socious and /connect/* open to everyone', () => {
    for (const status of ['idle', 'loading', 'failed', 'succeeded'] as const) {
      expect(decideGuard('/oauth/socious', status, null)).toEqual({ kind: 'render' });
      expect(decideGuard('/connect/credential/1', status, null)).toEqual({ kind: 'render' });
      expect(decideGuard('/connect/verification/1', status, null)).toEqual({ kind: 'render' });
      expect(decideGuard('/connect/redirect/1', status, null)).toEqual({ kind: 'render' });
    }
  });

  it('opens invitation links to visitors and to people signed in without an organization yet', () => {
    for (const status of ['idle', 'loading', 'failed', 'succeeded'] as const) {
      expect(decideGuard('/invitations/abc', status, null)).toEqual({ kind: 'render' });
    }
    expect(decideGuard('/invitations', 'idle', null)).toEqual({ kind: 'redirect', to: '/intro' });
  });

  it("sends a signed-in user from /intro to the current organization's credential list", () => {
    expect(decideGuard('/intro', 'succeeded', ORG)).toEqual({ kind: 'redirect', to: `/credentials/${ORG}` });
  });

  it('lands on the credential list, not the profile prompt, when there is an organization to act for', () => {
    // Sign-in, the create-organization form and `/` all lead to /credentials.
    expect(decideGuard('/credentials', 'succeeded', ORG)).toEqual({ kind: 'redirect', to: `/credentials/${ORG}` });
    expect(decideGuard('/credentials/', 'succeeded', ORG)).toEqual({ kind: 'redirect', to: `/credentials/${ORG}` });
    expect(decideGuard(`/credentials/${ORG}`, 'succeeded', ORG)).toEqual({ kind: 'render' });
    expect(decideGuard('/credentials/create', 'succeeded', ORG)).toEqual({ kind: 'render' });
  });

  it('renders private pages when signed in with organizations', () => {
    expect(decideGuard('/settings', 'succeeded', ORG)).toEqual({ kind: 'render' });
  });

  it('invites to create an organization when signed in with none', () => {
    expect(decideGuard('/intro', 'succeeded', null)).toEqual({ kind: 'redirect', to: '/credentials' });
    expect(decideGuard('/credentials', 'succeeded', null)).toEqual({ kind: 'no-organization' });
    expect(decideGuard('/settings', 'succeeded', null)).toEqual({ kind: 'no-organization' });
    // A platform administrator without an organization still reaches the review queue.
    expect(decideGuard('/admin/kyb', 'succeeded', null)).toEqual({ kind: 'render' });
  });
});

const organization: Organization = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme',
  description: null,
  did: null,
  logo: null,
  verified: false,
  verification_status: 'UNDEFINED',
  require_two_factor: false,
  created_at: '2026-01-01T00:00:00Z',
};

function renderAt(path: string, status: IdentityStatus, organizations: Organization[] = [organization]) {
  const identity: IdentityState = {
    status,
    organizations,
    current: organizations[0] ?? null,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(
    [
      {
        element: <RouteGuard />,
        children: [
          { path: '/intro', element: <p>intro page</p> },
          { path: '/credentials', element: <p>credentials page</p> },
          { path: '/credentials/:orgId', element: <p>credential list</p> },
          { path: '/settings', element: <p>settings page</p> },
          { path: '/connect/credential/:id', element: <p>connect page</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <IdentityContext.Provider value={identity}>
      <RouterProvider router={router} />
    </IdentityContext.Provider>,
  );
  return router;
}

describe('RouteGuard', () => {
  it('redirects a signed-out visitor to /intro', async () => {
    const router = renderAt('/settings', 'idle');
    expect(await screen.findByText('intro page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/intro');
  });

  it("redirects a signed-in user away from /intro to the organization's credential list", async () => {
    const router = renderAt('/intro', 'succeeded');
    expect(await screen.findByText('credential list')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/credentials/${organization.id}`);
  });

  it('takes a signed-in user with an organization from /credentials on to its credential list', async () => {
    const router = renderAt('/credentials', 'succeeded');
    expect(await screen.findByText('credential list')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/credentials/${organization.id}`);
    expect(screen.queryByText('credentials page')).toBeNull();
  });

  it('renders nothing but a blank placeholder while loading', async () => {
    renderAt('/settings', 'loading');
    expect(await screen.findByTestId('guard-blank')).toBeTruthy();
    expect(screen.queryByText('settings page')).toBeNull();
  });

  it('lets a signed-out visitor open a holder page', async () => {
    const router = renderAt('/connect/credential/abc', 'idle');
    expect(await screen.findByText('connect page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/connect/credential/abc');
  });
});
