import type { MemberRole } from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as repository from './members.repository.ts';

export function findMembers(db: Database, organizationId: string, page: { page: number; limit: number }) {
  return repository.findMembers(db, organizationId, page);
}

/** A member as the activity log names them: their name, else their e-mail address. */
export const memberLabel = (member: { firstName: string | null; lastName: string | null; email: string | null }) =>
  [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email;

async function getMember(db: Database, organizationId: string, userId: string) {
  const member = await repository.findMember(db, organizationId, userId);
  if (!member) throw new AppError('MEMBER_NOT_FOUND');
  return member;
}

const lastAdmin = (isSelf: boolean) =>
  new AppError('ORGANIZATION_LAST_ADMIN', {
    detail: isSelf
      ? 'You are the last admin of this organization: make another member an admin first.'
      : 'This is the last admin of the organization: make another member an admin first.',
  });

/**
 * Changes a member's role. The last admin cannot be demoted: the check and the change run under the
 * organization's lock, so two admins demoting each other at the same moment leave one admin (409 for the
 * second), never none.
 */
export async function changeMemberRole(
  db: Database,
  scope: { organizationId: string; userId: string },
  memberUserId: string,
  role: MemberRole,
) {
  return db.transaction(async (tx) => {
    await organizationsService.lockOrganization(tx, scope.organizationId);
    const member = await getMember(tx, scope.organizationId, memberUserId);
    if (member.role === role) return member;
    if (member.role === 'admin' && (await repository.countAdmins(tx, scope.organizationId)) <= 1) {
      throw lastAdmin(memberUserId === scope.userId);
    }
    await repository.updateMemberRole(tx, scope.organizationId, memberUserId, role);
    await recordAuditEvent(
      tx,
      { organizationId: scope.organizationId, actor: { kind: 'user', userId: scope.userId } },
      {
        action: 'member.role_changed',
        target: { id: memberUserId, label: memberLabel(member) },
        details: { role, previous_role: member.role },
      },
    );
    return { ...member, role };
  });
}

/**
 * Removes a member (an admin removing anyone, or a member leaving). The last admin can neither be removed nor
 * leave (same lock as role changes). The removal is remembered (membership_exclusions) so that the identity
 * provider's `organizations` claim does not bring the person back at the next sign-in; only a new invitation
 * does. Their open sessions lose the organization at once: every call checks the membership.
 */
export async function removeMember(
  db: Database,
  scope: { organizationId: string; userId: string },
  memberUserId: string,
) {
  await db.transaction(async (tx) => {
    await organizationsService.lockOrganization(tx, scope.organizationId);
    const member = await getMember(tx, scope.organizationId, memberUserId);
    if (member.role === 'admin' && (await repository.countAdmins(tx, scope.organizationId)) <= 1) {
      throw lastAdmin(memberUserId === scope.userId);
    }
    await repository.deleteMembership(tx, scope.organizationId, memberUserId);
    await repository.insertExclusion(tx, scope.organizationId, memberUserId);
    // The actor is the member themself when they leave.
    await recordAuditEvent(
      tx,
      { organizationId: scope.organizationId, actor: { kind: 'user', userId: scope.userId } },
      { action: 'member.removed', target: { id: memberUserId, label: memberLabel(member) }, details: {} },
    );
  });
}

/**
 * Joins the user to the organization with `role` (an accepted invitation, inside its transaction) and lifts a
 * removal. Someone already a member keeps the role they have. Answers the role they now have.
 */
export async function addMember(db: Database, organizationId: string, userId: string, role: MemberRole) {
  await repository.deleteExclusion(db, organizationId, userId);
  return repository.insertMembership(db, organizationId, userId, role);
}

export function hasMemberWithEmail(db: Database, organizationId: string, email: string) {
  return repository.hasMemberWithEmail(db, organizationId, email);
}
