import type { IssuerPolicy } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const issuerPolicyKey = (id: string) => ['organizations', id, 'issuer-policy'] as const;

/** GET /api/organizations/{id}/issuer-policy: what the organization's issuer demands of wallets (HAIP 1.0). */
export const getIssuerPolicy = (id: string) =>
  withCatalogue(
    'catalogue.getOrganization',
    api.get<IssuerPolicy>(`/organizations/${encodeURIComponent(id)}/issuer-policy`, { identity: id }),
  );

export const issuerPolicyQuery = (id: string) =>
  queryOptions({ queryKey: issuerPolicyKey(id), queryFn: () => getIssuerPolicy(id) });

export const useIssuerPolicy = (id: string) => useQuery(issuerPolicyQuery(id));
