import {
  type Invitation,
  type Member,
  type MemberRole,
  type Organization,
  zInvitation,
  zMember,
  zOrganization,
  zUserProfile,
} from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { createQueryClient } from '../../../lib/query-client.ts';

/** Fixtures parsed by the contracts, so a fixture cannot drift from the API. */
export const organizationAs = (role: MemberRole): Organization =>
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
    role,
  });

export const ME = 'a0000000-0000-4000-8000-000000000001';

export const member = (userId: string, extra: Partial<Member> = {}): Member =>
  zMember.parse({
    user_id: userId,
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    role: 'member',
    source: 'local',
    joined_at: '2026-03-01T10:00:00Z',
    ...extra,
  });

export const invitation = (id: string, extra: Partial<Invitation> = {}): Invitation =>
  zInvitation.parse({
    id,
    email: 'new.hire@example.com',
    role: 'member',
    invited_by: { user_id: ME, first_name: 'Ada', last_name: 'Lovelace' },
    created_at: '2026-11-20T10:00:00Z',
    expires_at: '2026-11-27T10:00:00Z',
    status: 'PENDING',
    ...extra,
  });

export const profile = zUserProfile.parse({
  id: ME,
  username: 'ada',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  job_title: null,
  avatar: null,
  is_platform_admin: false,
});

export function renderRoutes(
  routes: { path: string; element: ReactNode }[],
  initialEntry: string,
  org: Organization,
  overrides: Partial<IdentityState> = {},
) {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [org],
    current: org,
    selectOrganization: vi.fn(async () => {}),
    refresh: vi.fn(async () => {}),
    ...overrides,
  };
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
  return { router, identity, user: userEvent.setup() };
}

/** MUI's useMediaQuery reads window.matchMedia, which jsdom lacks (no match: the phone layout). */
export function showDesktopLayout() {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: true,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

export const problem = (status: number, code: string) =>
  Response.json({ type: 'about:blank', title: 'Error', status, code }, { status });
