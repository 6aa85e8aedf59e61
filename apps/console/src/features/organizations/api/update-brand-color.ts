import type { Organization } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_BASE } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { sendWithSession } from '../../../lib/send-with-session.ts';
import { organizationsKey } from './find-organizations.ts';

/**
 * PUT /api/organizations/{id} with `brand_color` only: a `#rrggbb` colour, or null to go back to the product's
 * colours. Sent as it is rather than through the JSON client, which drops null values from bodies (spec §5),
 * so that it could never say "reset".
 */
export const updateBrandColor = (id: string, brandColor: string | null) =>
  withCatalogue(
    'catalogue.updateOrganization',
    sendWithSession(
      `${API_BASE}/organizations/${encodeURIComponent(id)}`,
      {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' },
        body: JSON.stringify({ brand_color: brandColor }),
      },
      id,
    ).then((response) => response.json() as Promise<Organization>),
  );

export const useUpdateBrandColor = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (brandColor: string | null) => updateBrandColor(id, brandColor),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: organizationsKey });
    },
  });
};
