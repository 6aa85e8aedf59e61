import { useMutation, useQueryClient } from '@tanstack/react-query';
import { presentWithDigitalCredentials } from '../api/present-with-digital-credentials.ts';

/** Presents through the browser; once the API has the answer, the page's outcome is read again at once. */
export const usePresentWithDigitalCredentials = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => presentWithDigitalCredentials(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['verification-outcome', id] }),
  });
};
