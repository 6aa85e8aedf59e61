import { NOTIFY_MAX_CREDENTIAL_IDS, type NotifyViaSchemaRequest, type NotifyViaSchemaResponse } from '@cp/contracts';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** POST /api/credentials/notify/via-schema: e-mails exactly the named credentials; answers how many it queued. */
export const notifyViaSchema = (organizationId: string, body: NotifyViaSchemaRequest) =>
  withCatalogue(
    'catalogue.notifyRecipients',
    api.post<NotifyViaSchemaResponse>('/credentials/notify/via-schema', body, { identity: organizationId }),
  );

/**
 * E-mails the credentials of one wizard run: the typed recipients' ids in batches (the API takes at most
 * NOTIFY_MAX_CREDENTIAL_IDS a call) and each CSV import by its id. Answers the number of e-mails queued.
 */
export async function notifyRecipients(
  organizationId: string,
  input: Omit<NotifyViaSchemaRequest, 'credential_ids' | 'import_id'> & {
    credentialIds: string[];
    importIds: string[];
  },
) {
  const { credentialIds, importIds, ...common } = input;
  let queued = 0;
  for (let i = 0; i < credentialIds.length; i += NOTIFY_MAX_CREDENTIAL_IDS) {
    const batch = credentialIds.slice(i, i + NOTIFY_MAX_CREDENTIAL_IDS);
    queued += (await notifyViaSchema(organizationId, { ...common, credential_ids: batch })).queued;
  }
  for (const importId of importIds) {
    queued += (await notifyViaSchema(organizationId, { ...common, import_id: importId })).queued;
  }
  return queued;
}
