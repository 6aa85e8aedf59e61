import type { NotifyViaSchemaRequest } from '@cp/contracts';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** POST /api/credentials/notify/via-schema: e-mails every never-e-mailed credential of the schema. */
export const notifyViaSchema = (organizationId: string, body: NotifyViaSchemaRequest) =>
  withCatalogue(
    'catalogue.notifyRecipients',
    api.post<{ queued: number }>('/credentials/notify/via-schema', body, { identity: organizationId }),
  );
