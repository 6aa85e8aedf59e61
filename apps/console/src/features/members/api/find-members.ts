import type { MemberPage } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

export const membersKey = ['members'] as const;

/** GET /api/organizations/{id}/members?page&limit: the team, admins first (every member may read it). */
export const findMembers = (organizationId: string, page: number, limit: number): Promise<MemberPage> =>
  withCatalogue(
    'members.errors.load',
    api.get<MemberPage>(`/organizations/${encodeURIComponent(organizationId)}/members`, {
      query: { page, limit },
      identity: organizationId,
    }),
  );

export const membersQuery = (organizationId: string | undefined, page: number, limit: number) =>
  queryOptions({
    queryKey: [...membersKey, organizationId, page, limit],
    queryFn: () => findMembers(organizationId ?? '', page, limit),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });

export const useMembers = (organizationId: string | undefined, page: number, limit: number) =>
  useQuery(membersQuery(organizationId, page, limit));
