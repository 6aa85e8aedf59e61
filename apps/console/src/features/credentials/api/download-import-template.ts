import { API_BASE } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { sendWithSession } from '../../../lib/send-with-session.ts';

/** GET /api/credentials/import/template?schema_id=: the CSV header and a sample row, saved as a file. */
export const downloadImportTemplate = (organizationId: string, schemaId: string, fileName: string) =>
  withCatalogue(
    'catalogue.downloadSampleCsv',
    (async () => {
      const query = new URLSearchParams({ schema_id: schemaId, t: String(Date.now()) });
      const response = await sendWithSession(
        `${API_BASE}/credentials/import/template?${query}`,
        { method: 'GET' },
        organizationId,
      );
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    })(),
  );
