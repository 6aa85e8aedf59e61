import {
  type CredentialSchema,
  type Organization,
  type Verification,
  type VerificationIndividual,
  zVerification,
  zVerificationIndividual,
} from '@cp/contracts';
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

export const ageAttribute = { id: 'a0000000-0000-4000-8000-000000000001', name: 'age', type: 'NUMBER' } as const;
export const nameAttribute = { id: 'a0000000-0000-4000-8000-000000000002', name: 'full_name', type: 'TEXT' } as const;
export const memberAttribute = {
  id: 'a0000000-0000-4000-8000-000000000003',
  name: 'is_member',
  type: 'BOOLEAN',
} as const;

export const membership: CredentialSchema = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Membership',
  description: null,
  slug: 'membership-22222222',
  deleteable: true,
  issue_disabled: false,
  created: null,
  created_at: '2026-03-01T10:00:00Z',
  attributes: [
    { ...ageAttribute, description: null },
    { ...nameAttribute, description: null },
    { ...memberAttribute, description: null },
  ],
};

export const kyc: CredentialSchema = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'KYC',
  description: null,
  slug: 'kyc',
  deleteable: false,
  issue_disabled: true,
  created: null,
  created_at: '2026-01-01T00:00:00Z',
  attributes: [
    { id: 'b0000000-0000-4000-8000-000000000001', name: 'date_of_birth', description: null, type: 'DATETIME' },
  ],
};

/** A verification's reference to the platform's Work Certificate schema, stored in English. */
export const workCertificateReference: NonNullable<Verification['schema']> = {
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Work Certificate',
  slug: 'work-certificate',
  deleteable: false,
  attributes: [{ id: 'c0000000-0000-4000-8000-000000000001', name: 'job_title', type: 'TEXT' }],
};

/** A verification as the API answers it: parsed by the contract, so a fixture cannot drift from the API. */
export const verification = (id: string, extra: Partial<Verification> = {}): Verification =>
  zVerification.parse({
    id,
    name: 'Age check',
    description: 'Entrance',
    status: 'ACTIVE',
    present_id: `PR-${id.slice(0, 6)}`,
    type: 'MULTI',
    user: { id: '44444444-4444-4444-8444-444444444444', first_name: 'Ada', last_name: 'Lovelace' },
    created_at: '2026-03-02T10:00:00Z',
    updated_at: '2026-03-02T10:00:00Z',
    schema: {
      id: membership.id,
      name: membership.name,
      attributes: [ageAttribute, nameAttribute, memberAttribute],
    },
    credential: null,
    attributes: [{ attribute_id: ageAttribute.id, name: 'age', operator: 'BIGGER', value: '18', type: 'NUMBER' }],
    trust_policy: 'PLATFORM_VERIFIED',
    trusted_issuers: [],
    requested_claims: ['age', 'full_name'],
    requested_attribute_ids: [ageAttribute.id, nameAttribute.id],
    usage: { total: 5, verified: 3, failed: 2 },
    link: `/connect/redirect/${id}`,
    ...extra,
  });

/** One holder's attempt as the API answers it (parsed by the contract). */
export const individual = (id: string, extra: Partial<VerificationIndividual> = {}): VerificationIndividual =>
  zVerificationIndividual.parse({
    id,
    verification_id: '55555555-5555-4555-8555-555555555555',
    customer_id: '4821-0937-5520',
    status: 'VERIFIED',
    connection_url: `http://localhost/connect/verification/${id}`,
    created_at: '2026-03-03T10:00:00Z',
    verified_at: '2026-03-03T10:01:00Z',
    presented_claims: {},
    issuer: null,
    customer_verified: false,
    issuer_trust: null,
    checks: [],
    validation_error: null,
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
