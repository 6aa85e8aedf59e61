import type { CredentialMailPreview, CredentialMailPreviewRequest } from '@cp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** POST /api/credentials/mail-preview: the e-mail exactly as it will be sent (the API's renderer). */
export const previewCredentialMail = (organizationId: string, body: CredentialMailPreviewRequest) =>
  withCatalogue(
    'issuing.preview.failed',
    api.post<CredentialMailPreview>('/credentials/mail-preview', body, { identity: organizationId }),
  );

export const useCredentialMailPreview = (organizationId: string, body: CredentialMailPreviewRequest | null) =>
  useQuery({
    queryKey: ['credential-mail-preview', organizationId, body] as const,
    queryFn: () => previewCredentialMail(organizationId, body as CredentialMailPreviewRequest),
    enabled: Boolean(organizationId && body),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
