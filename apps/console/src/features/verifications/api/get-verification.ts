import type { Verification } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { verificationsKey } from './find-verifications.ts';

/** GET /api/verifications/{id}: the verification being edited. */
export const getVerification = (organizationId: string, id: string) =>
  withCatalogue(
    'catalogue.getVerifications',
    api.get<Verification>(`/verifications/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const verificationQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: [...verificationsKey(organizationId), 'one', id] as const,
    queryFn: () => getVerification(organizationId, id),
    // A deleted verification: the edit page says so (RecordLoadError).
    meta: { showsNotFound: true },
  });

export const useVerification = (organizationId: string | undefined, id: string | undefined) =>
  useQuery({ ...verificationQuery(organizationId ?? '', id ?? ''), enabled: Boolean(organizationId && id) });
