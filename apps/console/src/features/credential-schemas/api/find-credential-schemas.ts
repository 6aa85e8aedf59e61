import type { CredentialSchemaPage } from '@cp/contracts';
import { PAGE_SIZE_DEFAULT } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** Every cached schema query of an organization starts with this key (invalidated after create and delete). */
export const credentialSchemasKey = (organizationId: string) => ['credential-schemas', organizationId] as const;

/** GET /api/schemas?page&limit: the organization's schemas, then the platform's. */
export const findCredentialSchemas = (organizationId: string, page: number, limit = PAGE_SIZE_DEFAULT) =>
  withCatalogue(
    'catalogue.getSchemaList',
    api.get<CredentialSchemaPage>('/schemas', { query: { page, limit }, identity: organizationId }),
  );

export const credentialSchemasQuery = (organizationId: string, page: number, limit = PAGE_SIZE_DEFAULT) =>
  queryOptions({
    queryKey: [...credentialSchemasKey(organizationId), 'page', page, limit] as const,
    queryFn: () => findCredentialSchemas(organizationId, page, limit),
  });

export const useCredentialSchemas = (organizationId: string | undefined, page: number) =>
  useQuery({
    ...credentialSchemasQuery(organizationId ?? '', page),
    enabled: Boolean(organizationId),
    // The table keeps the current page while the next one loads.
    placeholderData: keepPreviousData,
  });
