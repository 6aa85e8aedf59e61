import type { KybApplicationState } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const kybApplicationKey = (organizationId: string) => ['kyb', organizationId] as const;

/** GET /api/kyb/{orgId}: the latest application (null when the organization never applied). */
export const getKybApplication = (organizationId: string) =>
  withCatalogue(
    'catalogue.verifyOrganization',
    api.get<KybApplicationState>(`/kyb/${encodeURIComponent(organizationId)}`, { identity: organizationId }),
  );

export const kybApplicationQuery = (organizationId: string) =>
  queryOptions({ queryKey: kybApplicationKey(organizationId), queryFn: () => getKybApplication(organizationId) });

export const useKybApplication = (organizationId: string | undefined, enabled = true) =>
  useQuery({ ...kybApplicationQuery(organizationId ?? ''), enabled: Boolean(organizationId) && enabled });
