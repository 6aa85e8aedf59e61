import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialSchemasKey } from './find-credential-schemas.ts';

/** DELETE /api/schemas/{id}: credentials already issued from the schema stay valid. */
export const deleteCredentialSchema = (organizationId: string, id: string) =>
  withCatalogue(
    'catalogue.deleteSchema',
    api.delete<void>(`/schemas/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const useDeleteCredentialSchema = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteCredentialSchema(organizationId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialSchemasKey(organizationId) }),
  });
};
