import type { CreateCredentialSchemaRequest, CredentialSchema } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { credentialSchemasKey } from './find-credential-schemas.ts';

/** POST /api/schemas: publishes the schema (it cannot be edited afterwards). */
export const createCredentialSchema = (organizationId: string, body: CreateCredentialSchemaRequest) =>
  withCatalogue('catalogue.createSchema', api.post<CredentialSchema>('/schemas', body, { identity: organizationId }));

export const useCreateCredentialSchema = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCredentialSchemaRequest) => createCredentialSchema(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialSchemasKey(organizationId) }),
  });
};
