import { type MemberRole, zOrganization } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { OrganizationProfilePage } from './organization-profile-page.tsx';

const ID = '11111111-1111-4111-8111-111111111111';
const organizationAs = (role: MemberRole) =>
  zOrganization.parse({
    id: ID,
    name: 'Acme',
    description: 'We issue diplomas.',
    did: `did:web:example.com:orgs:${ID}`,
    logo: null,
    verified: false,
    verification_status: 'UNDEFINED',
    require_two_factor: false,
    created_at: '2026-01-01T00:00:00Z',
    role,
  });

let role: MemberRole;
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (path === `/api/organizations/${ID}`) return Response.json(organizationAs(role));
      if (path === `/api/kyb/${ID}`) return Response.json({ application: null });
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organizationAs(role)],
    current: organizationAs(role),
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter([{ path: '/organization/:id', element: <OrganizationProfilePage /> }], {
    initialEntries: [`/organization/${ID}`],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
}

describe('OrganizationProfilePage by role', { timeout: 30_000 }, () => {
  it('shows a member the profile read-only, saying who can change it, with no save or KYB apply', async () => {
    role = 'member';
    renderPage();
    expect((await screen.findByTestId('organization-read-only')).textContent).toContain(
      'Only admins can edit the organization profile',
    );
    expect((screen.getByTestId('organization-name') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByTestId('organization-description') as HTMLTextAreaElement).readOnly).toBe(true);
    expect(screen.queryByTestId('organization-save')).toBeNull();
    expect(screen.queryByTestId('logo-upload-input')).toBeNull();
    expect(screen.queryByTestId('kyb-apply-button')).toBeNull();
    expect(screen.getByTestId('kyb-apply-admin-only')).toBeTruthy();
  });

  it('lets an admin edit and apply', async () => {
    role = 'admin';
    renderPage();
    expect(await screen.findByTestId('organization-save')).toBeTruthy();
    expect(screen.queryByTestId('organization-read-only')).toBeNull();
    expect((screen.getByTestId('organization-name') as HTMLInputElement).readOnly).toBe(false);
    expect(screen.getByTestId('logo-upload-input')).toBeTruthy();
    expect(screen.getByTestId('kyb-apply-button')).toBeTruthy();
  });
});
