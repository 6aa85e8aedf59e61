import type { InvitationPage } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const invitationsKey = ['members', 'invitations'] as const;

/** GET /api/organizations/{id}/invitations?page&limit: pending invitations (admins only). */
export const findInvitations = (organizationId: string, page: number, limit: number): Promise<InvitationPage> =>
  withCatalogue(
    'members.errors.loadInvitations',
    api.get<InvitationPage>(`/organizations/${encodeURIComponent(organizationId)}/invitations`, {
      query: { page, limit },
      identity: organizationId,
    }),
  );

export const invitationsQuery = (organizationId: string | undefined, page: number, limit: number, enabled: boolean) =>
  queryOptions({
    queryKey: [...invitationsKey, organizationId, page, limit],
    queryFn: () => findInvitations(organizationId ?? '', page, limit),
    enabled: enabled && Boolean(organizationId),
    placeholderData: keepPreviousData,
  });

export const useInvitations = (organizationId: string | undefined, page: number, limit: number, enabled: boolean) =>
  useQuery(invitationsQuery(organizationId, page, limit, enabled));
