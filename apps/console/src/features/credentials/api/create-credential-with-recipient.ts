import type { CreateCredentialWithRecipientRequest, Credential } from '@cp/contracts';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** POST /api/credentials/with-recipient → 201 Credential. */
export const createCredentialWithRecipient = (organizationId: string, body: CreateCredentialWithRecipientRequest) =>
  withCatalogue(
    'catalogue.createCredentialWithRecipient',
    api.post<Credential>('/credentials/with-recipient', body, { identity: organizationId }),
  );
