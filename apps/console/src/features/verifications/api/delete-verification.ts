import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { verificationsKey } from './find-verifications.ts';

/** DELETE /api/verifications/{id}: its link stops working. The spec's catalogue has no message for it. */
export const deleteVerification = (organizationId: string, id: string) =>
  withCatalogue(
    'verifications.list.deleteFailed',
    api.delete<void>(`/verifications/${encodeURIComponent(id)}`, { identity: organizationId }),
  );

export const useDeleteVerification = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteVerification(organizationId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: verificationsKey(organizationId) }),
  });
};
