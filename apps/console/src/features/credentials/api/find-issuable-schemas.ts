import type { CredentialSchemaPage } from '@cp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** GET /api/schemas?page&limit: the schemas to issue with (issue_disabled ones are shown but cannot be chosen). */
export const findSchemas = (organizationId: string, page: number, limit: number) =>
  withCatalogue(
    'catalogue.getSchemaList',
    api.get<CredentialSchemaPage>('/schemas', { query: { page, limit }, identity: organizationId }),
  );

export const useSchemas = (organizationId: string | undefined, page: number, limit = 10) =>
  useQuery({
    queryKey: ['credential-schemas', organizationId ?? '', 'page', page, limit] as const,
    queryFn: () => findSchemas(organizationId ?? '', page, limit),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
