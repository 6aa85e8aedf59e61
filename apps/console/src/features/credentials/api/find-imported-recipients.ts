import type { Credential } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialsKey } from './find-credentials.ts';

export const IMPORTED_PAGE_SIZE = 10;

export interface ImportedRecipientsPage {
  results: Credential[];
  total: number;
  page: number;
  limit: number;
}

/** GET /api/credentials?filter.import_id=: the credentials (recipients) a CSV import created. */
export const findImportedRecipients = (organizationId: string, importId: string, page: number) =>
  withCatalogue(
    'catalogue.getCredentials',
    api.get<ImportedRecipientsPage>('/credentials', {
      query: { page, limit: IMPORTED_PAGE_SIZE },
      filters: { import_id: importId },
      identity: organizationId,
    }),
  );

// Under the organization's credentials key: sending (which invalidates it) refreshes these too.
export const importedRecipientsQuery = (organizationId: string, importId: string, page: number) =>
  queryOptions({
    queryKey: [...credentialsKey(organizationId), 'import', importId, page] as const,
    queryFn: () => findImportedRecipients(organizationId, importId, page),
  });

export const useImportedRecipients = (organizationId: string, importId: string, page: number) =>
  useQuery({
    ...importedRecipientsQuery(organizationId, importId, page),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });

/** The first page of each import: how many recipients each holds, and the first of them (for the preview). */
export const useImportedRecipientTotals = (organizationId: string, importIds: string[]) =>
  useQueries({
    queries: importIds.map((id) => ({
      ...importedRecipientsQuery(organizationId, id, 1),
      enabled: Boolean(organizationId),
    })),
  });
