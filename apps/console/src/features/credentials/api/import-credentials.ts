import { API_BASE } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { sendWithSession } from '../../../lib/send-with-session.ts';

export interface ImportStarted {
  id: string;
  total_count: number;
  status: string;
}

/** POST /api/credentials/import (multipart: file, schema_id, name, description) → 202 {id, total_count, status}. */
export const importCredentials = (
  organizationId: string,
  input: { file: File; schemaId: string; name?: string; description?: string },
) => {
  const body = new FormData();
  body.set('schema_id', input.schemaId);
  if (input.name?.trim()) body.set('name', input.name.trim());
  if (input.description?.trim()) body.set('description', input.description.trim());
  body.set('file', input.file, input.file.name);
  return withCatalogue(
    'catalogue.importCsv',
    sendWithSession(`${API_BASE}/credentials/import`, { method: 'POST', body }, organizationId).then(
      async (response) => (await response.json()) as ImportStarted,
    ),
  );
};
