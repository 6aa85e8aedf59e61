import type { CredentialSchema } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** GET /api/schemas/{id}: the schema chosen in the wizard (after a reload, from the address). */
export const getSchema = (organizationId: string, id: string) =>
  withCatalogue(
    'catalogue.getSchema',
    api.get<CredentialSchema>(`/schemas/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const useSchema = (organizationId: string | undefined, id: string | null) =>
  useQuery({
    queryKey: ['credential-schemas', organizationId ?? '', 'one', id] as const,
    queryFn: () => getSchema(organizationId ?? '', id ?? ''),
    enabled: Boolean(organizationId && id),
  });
