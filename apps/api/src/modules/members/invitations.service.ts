import {
  type CreateInvitationRequest,
  type CredentialMailLocale,
  INVITATION_TTL_DAYS,
  type MemberRole,
} from '@cp/contracts';
import type { Database, SecretBox } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as usersService from '../users/users.service.ts';
import { invitationMail } from './invitation-mail.ts';
import * as repository from './invitations.repository.ts';
import * as membersService from './members.service.ts';

export interface InvitationDeps {
  db: Database;
  publicUrl: string;
  /** Seals the link's token into the e-mail job (the database keeps only its SHA-256). */
  secretBox: SecretBox;
  /** Queues the e-mail of one invitation link (a durable job, one per link). */
  enqueueMail: (job: InvitationMailJob) => Promise<void>;
}

/** The e-mail job: the token travels sealed under the master key, never in clear in the job table. */
export interface InvitationMailJob {
  invitationId: string;
  sealedToken: string;
}

const sealName = (invitationId: string) => `invitation-token:${invitationId}`;

export const invitationUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/$/, '')}/invitations/${token}`;

/** `alice@example.com` → `al***@example.com`: enough to recognize one's own address, not to learn someone's. */
export function maskEmail(email: string) {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  return `${local.slice(0, local.length > 3 ? 2 : 1)}***${email.slice(at)}`;
}

/** A new link for the invitation: the token (32 random bytes, base64url), its SHA-256 and a 7-day expiry. */
function newLink() {
  const token = randomToken(32);
  return {
    token,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000),
  };
}

async function sendLink(deps: InvitationDeps, invitationId: string, token: string) {
  await deps.enqueueMail({ invitationId, sealedToken: deps.secretBox.seal(token, sealName(invitationId)) });
  return invitationUrl(deps.publicUrl, token);
}

/**
 * Invites an address (replacing the invitation already pending for it) and e-mails the link in `locale`.
 * Someone who is already a member answers 409 ORGANIZATION_ALREADY_MEMBER.
 */
export async function createInvitation(
  deps: InvitationDeps,
  scope: { organizationId: string; userId: string },
  input: CreateInvitationRequest & { locale: CredentialMailLocale },
) {
  const email = input.email.trim();
  if (await membersService.hasMemberWithEmail(deps.db, scope.organizationId, email)) {
    throw new AppError('ORGANIZATION_ALREADY_MEMBER', { detail: `${email} is already a member of the organization.` });
  }
  const link = newLink();
  const row = await deps.db.transaction(async (tx) => {
    const invitation = await repository.upsertPendingInvitation(tx, scope.organizationId, {
      email,
      role: input.role,
      tokenHash: link.tokenHash,
      locale: input.locale,
      invitedByUserId: scope.userId,
      expiresAt: link.expiresAt,
    });
    await recordAuditEvent(
      tx,
      { organizationId: scope.organizationId, actor: { kind: 'user', userId: scope.userId } },
      { action: 'member.invited', target: { id: invitation.id, label: email }, details: { role: input.role } },
    );
    return invitation;
  });
  const url = await sendLink(deps, row.id, link.token);
  return { invitation: await getPendingInvitation(deps.db, scope.organizationId, row.id), url };
}

export function findPendingInvitations(db: Database, organizationId: string, page: { page: number; limit: number }) {
  return repository.findPendingInvitations(db, organizationId, page);
}

async function getPendingInvitation(db: Database, organizationId: string, invitationId: string) {
  const row = await repository.findPendingInvitation(db, organizationId, invitationId);
  if (!row) throw new AppError('INVITATION_NOT_FOUND');
  return row;
}

/** Revokes a pending invitation: its link answers 410 from now on. */
export async function revokeInvitation(
  db: Database,
  scope: { organizationId: string; userId: string },
  invitationId: string,
) {
  const invitation = await getPendingInvitation(db, scope.organizationId, invitationId);
  await db.transaction(async (tx) => {
    if (!(await repository.revokeInvitation(tx, scope.organizationId, invitationId))) {
      throw new AppError('INVITATION_NOT_FOUND');
    }
    await recordAuditEvent(
      tx,
      { organizationId: scope.organizationId, actor: { kind: 'user', userId: scope.userId } },
      { action: 'invitation.revoked', target: { id: invitationId, label: invitation.invitation.email }, details: {} },
    );
  });
}

/** A new link (and 7 more days) for a pending invitation, e-mailed again; the previous link stops working. */
export async function resendInvitation(
  deps: InvitationDeps,
  organizationId: string,
  invitationId: string,
  locale: CredentialMailLocale,
) {
  const link = newLink();
  const row = await repository.renewInvitationToken(deps.db, organizationId, invitationId, {
    tokenHash: link.tokenHash,
    expiresAt: link.expiresAt,
    locale,
  });
  if (!row) throw new AppError('INVITATION_NOT_FOUND');
  const url = await sendLink(deps, row.id, link.token);
  return { invitation: await getPendingInvitation(deps.db, organizationId, row.id), url };
}

/** The invitation of a link if it can still be accepted: 404 unknown (or replaced), 410 expired, used or revoked. */
async function getUsableInvitation(db: Database, token: string) {
  const invitation = await repository.findInvitationByTokenHash(db, sha256(token));
  if (!invitation) throw new AppError('INVITATION_NOT_FOUND', { detail: 'This invitation link is not valid.' });
  if (invitation.acceptedAt) {
    throw new AppError('INVITATION_ALREADY_USED', { detail: 'This invitation has already been accepted.' });
  }
  if (invitation.revokedAt) throw new AppError('INVITATION_REVOKED', { detail: 'This invitation was withdrawn.' });
  if (invitation.expiresAt.getTime() <= Date.now()) {
    throw new AppError('INVITATION_EXPIRED', { detail: 'This invitation has expired.' });
  }
  return invitation;
}

/** What the public invitation page shows: the organization's name and logo, the inviter's name, role, expiry. */
export async function getPublicInvitation(db: Database, token: string) {
  const invitation = await getUsableInvitation(db, token);
  const organization = await organizationsService.getPublicOrganization(db, invitation.organizationId);
  const inviter = invitation.invitedByUserId
    ? await usersService.getUser(db, invitation.invitedByUserId).catch(() => null)
    : null;
  return { invitation, organization, inviter };
}

/**
 * Joins the signed-in user to the invitation's organization with its role. Only the invited address may
 * accept (compared case-insensitively; the provider need not have verified it: holding the link, which was
 * e-mailed to that address, shows the person reads its mail). Single use: the invitation is claimed by one
 * conditional update, so of two accepts only one joins. Accepting lifts an earlier removal.
 */
export async function acceptInvitation(db: Database, userId: string, token: string) {
  const invitation = await getUsableInvitation(db, token);
  const user = await usersService.getUser(db, userId);
  if (!user.email || user.email.trim().toLowerCase() !== invitation.email.trim().toLowerCase()) {
    const invited = maskEmail(invitation.email);
    throw new AppError('INVITATION_EMAIL_MISMATCH', {
      detail: `This invitation is for ${invited}: sign in with that address to accept it.`,
      errors: [{ path: 'invitation.email', message: invited }],
    });
  }
  return db.transaction(async (tx) => {
    const claimed = await repository.claimInvitation(tx, invitation.id, invitation.tokenHash, userId);
    if (!claimed) {
      throw new AppError('INVITATION_ALREADY_USED', { detail: 'This invitation has already been accepted.' });
    }
    const role: MemberRole = await membersService.addMember(tx, claimed.organizationId, userId, claimed.role);
    await recordAuditEvent(
      tx,
      { organizationId: claimed.organizationId, actor: { kind: 'user', userId } },
      {
        action: 'member.joined',
        target: { id: userId, label: membersService.memberLabel({ ...user, email: user.email }) },
        details: { role },
      },
    );
    return { organizationId: claimed.organizationId, role };
  });
}

export interface InvitationMailDeps {
  db: Database;
  publicUrl: string;
  secretBox: SecretBox;
  mailer: Pick<Mailer, 'send'>;
}

/**
 * The e-mail job: sends the link if it is still the invitation's current one and can be accepted (a resend,
 * revocation or acceptance in the meantime makes the job a no-op). One job per link (singleton), retried only
 * when sending failed; a process dying between the SMTP server's acceptance and the job's completion is the
 * one window for a second copy, which then carries the same Message-ID.
 */
export async function sendInvitationMail(deps: InvitationMailDeps, job: InvitationMailJob) {
  const token = deps.secretBox.open(job.sealedToken, sealName(job.invitationId));
  const invitation = await repository.findInvitationById(deps.db, job.invitationId);
  if (
    !invitation ||
    invitation.tokenHash !== sha256(token) ||
    invitation.acceptedAt ||
    invitation.revokedAt ||
    invitation.expiresAt.getTime() <= Date.now()
  ) {
    return 'skipped' as const;
  }
  const organization = await organizationsService.getPublicOrganization(deps.db, invitation.organizationId);
  const inviter = invitation.invitedByUserId
    ? await usersService.getUser(deps.db, invitation.invitedByUserId).catch(() => null)
    : null;
  await deps.mailer.send(
    invitationMail({
      invitationId: invitation.id,
      tokenTag: invitation.tokenHash.slice(0, 12),
      locale: invitation.locale as CredentialMailLocale,
      to: invitation.email,
      organizationName: organization.name,
      organizationLogoUrl: organization.logoMediaId
        ? `${deps.publicUrl.replace(/\/$/, '')}/api/media/${organization.logoMediaId}`
        : null,
      inviter: inviter ? { firstName: inviter.firstName, lastName: inviter.lastName } : null,
      role: invitation.role,
      url: invitationUrl(deps.publicUrl, token),
      expiresAt: invitation.expiresAt,
    }),
  );
  return 'sent' as const;
}
