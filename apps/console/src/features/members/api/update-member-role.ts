import type { Member, MemberRole } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';
import { membersKey } from './find-members.ts';

/** PATCH /api/organizations/{id}/members/{userId}: 409 ORGANIZATION_LAST_ADMIN for the last admin. */
export const updateMemberRole = (organizationId: string, userId: string, role: MemberRole) =>
  withCatalogue(
    'members.errors.changeRole',
    api.patch<Member>(
      `/organizations/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}`,
      { role },
      { identity: organizationId },
    ),
  );

export const useUpdateMemberRole = (organizationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: MemberRole }) =>
      updateMemberRole(organizationId, userId, role),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: membersKey });
      // The user's own role may have changed: the menu and the pages follow the organization list.
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
    },
  });
};
