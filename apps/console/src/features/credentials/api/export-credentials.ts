import type { CredentialSort } from '@cp/contracts';
import { buildUrl } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { sendWithSession } from '../../../lib/send-with-session.ts';
import { type CredentialFilters, credentialListQuery } from './find-credentials.ts';

/** The file name the API gave (Content-Disposition), else a dated default. */
function fileNameOf(response: Response) {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? `credentials-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** The export's address: the list's filters and sort (what the user sees, every page of it). */
export const credentialsExportUrl = (filters: CredentialFilters, sort: CredentialSort) =>
  buildUrl('GET', '/credentials/export', credentialListQuery(filters, sort));

/**
 * GET /api/credentials/export with the list's filters and sort, saved as the CSV file the API names. The
 * call needs the session's Authorization header, so the file comes through fetch and is handed to the
 * browser as a download.
 */
export const downloadCredentialsCsv = (organizationId: string, filters: CredentialFilters, sort: CredentialSort) =>
  withCatalogue(
    'issuing.list.exportFailed',
    (async () => {
      const response = await sendWithSession(credentialsExportUrl(filters, sort), { method: 'GET' }, organizationId);
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response);
      link.dataset.testid = 'credentials-export-download';
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    })(),
  );
