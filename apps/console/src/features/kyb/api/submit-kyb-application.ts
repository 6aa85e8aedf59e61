import type { KybApplication } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadMedia } from '../../../components/file-uploader.tsx';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { kybApplicationKey } from './get-kyb-application.ts';

/** Uploads the documents (purpose kyb_document), then POST /api/kyb/{orgId} with their ids. */
export const submitKybApplication = (organizationId: string, files: File[]) =>
  withCatalogue(
    'catalogue.verifyOrganization',
    (async () => {
      const documents: string[] = [];
      for (const file of files) documents.push((await uploadMedia(file, 'kyb_document', organizationId)).id);
      return api.post<KybApplication>(
        `/kyb/${encodeURIComponent(organizationId)}`,
        { documents },
        { identity: organizationId },
      );
    })(),
  );

export const useSubmitKybApplication = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) => submitKybApplication(organizationId, files),
    onSuccess: async () => {
      // The organization's verification_status changed too (PENDING).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: kybApplicationKey(organizationId) }),
        queryClient.invalidateQueries({ queryKey: ['organizations'] }),
      ]);
    },
  });
};
