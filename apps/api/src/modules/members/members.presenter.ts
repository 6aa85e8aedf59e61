import type { Invitation, Member, PublicInvitation } from '@cp/contracts';
import { mediaUrl } from '../media/media.presenter.ts';
import type { InvitationRow } from './invitations.repository.ts';
import type { MemberRow } from './members.repository.ts';

export function presentMember(row: MemberRow): Member {
  return {
    user_id: row.userId,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    role: row.role,
    source: row.source === 'provider' ? 'provider' : 'local',
    joined_at: row.joinedAt.toISOString(),
  };
}

export function presentInvitation(row: {
  invitation: InvitationRow;
  inviterFirstName: string | null;
  inviterLastName: string | null;
}): Invitation {
  const { invitation } = row;
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invited_by: invitation.invitedByUserId
      ? { user_id: invitation.invitedByUserId, first_name: row.inviterFirstName, last_name: row.inviterLastName }
      : null,
    created_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
    status: invitation.expiresAt.getTime() <= Date.now() ? 'EXPIRED' : 'PENDING',
  };
}

/** The public view of an invitation link: nothing but what the invitation page shows. */
export function presentPublicInvitation(
  data: {
    invitation: InvitationRow;
    organization: { name: string; logoMediaId: string | null };
    inviter: { firstName: string | null; lastName: string | null } | null;
  },
  publicUrl: string,
): PublicInvitation {
  return {
    organization: {
      name: data.organization.name,
      logo_url: data.organization.logoMediaId ? mediaUrl(publicUrl, data.organization.logoMediaId) : null,
    },
    inviter: data.inviter ? { first_name: data.inviter.firstName, last_name: data.inviter.lastName } : null,
    role: data.invitation.role,
    expires_at: data.invitation.expiresAt.toISOString(),
  };
}
