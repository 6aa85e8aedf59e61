import type { Credential, CredentialSchema, Organization } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { createQueryClient } from '../../../lib/query-client.ts';

export const organization: Organization = {
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

export const schema = (id: string, name: string, extra: Partial<CredentialSchema> = {}): CredentialSchema => ({
  id,
  name,
  description: `${name} description`,
  slug: name.toLowerCase(),
  deleteable: true,
  issue_disabled: false,
  created: null,
  created_at: '2026-03-01T10:00:00Z',
  attributes: [],
  ...extra,
});

export const credential = (id: string, extra: Partial<Credential> = {}): Credential => ({
  id,
  name: 'Membership',
  description: null,
  status: 'ISSUED',
  claims: { member_id: 'M-1' },
  recipient: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  organization: { id: organization.id, name: organization.name },
  schema: { id: '22222222-2222-4222-8222-222222222222', name: 'Membership' },
  created_at: '2026-03-01T10:00:00Z',
  issued_at: '2026-03-01T10:00:00Z',
  claimed_at: null,
  revoked_at: null,
  expired_at: '2026-03-08T10:00:00Z',
  emailed_at: null,
  connect_url: `http://localhost/connect/credential/${id}`,
  ...extra,
});

export function renderRoutes(
  routes: { path: string; element: ReactNode }[],
  initialEntry: string,
  org: Organization = organization,
) {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [org],
    current: org,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}
