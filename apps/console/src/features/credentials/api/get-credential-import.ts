import type { CredentialImport } from '@cp/contracts';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** GET /api/credentials/import/{id}: the progress, counts and row errors of a CSV import. */
export const getCredentialImport = (organizationId: string, id: string) =>
  withCatalogue(
    'catalogue.importCsv',
    api.get<CredentialImport>(`/credentials/import/${encodeURIComponent(id)}`, { identity: organizationId }),
  );
