import type { CredentialSchema } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialSchemasKey } from './find-credential-schemas.ts';

/** GET /api/schemas/{id}. */
export const getCredentialSchema = (organizationId: string, id: string) =>
  withCatalogue(
    'catalogue.getSchema',
    api.get<CredentialSchema>(`/schemas/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const credentialSchemaQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: [...credentialSchemasKey(organizationId), 'one', id] as const,
    queryFn: () => getCredentialSchema(organizationId, id),
    // A deleted schema: the duplicate page says so (RecordLoadError).
    meta: { showsNotFound: true },
  });

export const useCredentialSchema = (organizationId: string | undefined, id: string | undefined) =>
  useQuery({ ...credentialSchemaQuery(organizationId ?? '', id ?? ''), enabled: Boolean(organizationId && id) });
