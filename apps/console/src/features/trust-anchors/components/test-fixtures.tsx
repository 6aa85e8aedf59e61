import { type Organization, type TrustAnchor, zTrustAnchor } from '@cp/contracts';
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

/** Shaped as a PEM certificate (the console checks the shape; the API checks the certificate). */
export const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGU=\n-----END CERTIFICATE-----';

/** A trust anchor as the API answers it: parsed by the contract, so a fixture cannot drift from the API. */
export const trustAnchor = (id: string, extra: Partial<TrustAnchor> = {}): TrustAnchor =>
  zTrustAnchor.parse({
    id,
    kind: 'CERTIFICATE',
    name: 'Example Root CA',
    subject: 'CN=Example Root CA,O=Example,C=JP',
    fingerprint: `3fa2190c${'11'.repeat(24)}e6677ab1`,
    not_after: '2031-05-01T00:00:00Z',
    certificate_pem: PEM,
    list_url: null,
    list_certificate_count: null,
    list_fetched_at: null,
    list_error: null,
    created_at: '2026-03-01T10:00:00Z',
    ...extra,
  });

export function renderRoutes(routes: { path: string; element: ReactNode }[], initialEntry: string) {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
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
