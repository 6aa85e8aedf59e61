import { z } from 'zod';
import { pageOf, zPageQuery } from './common.ts';
import { zCredentialMailLocale } from './credential-imports.ts';

/**
 * A member's role in an organization. `admin`: members and invitations, API keys, webhooks, trust anchors, the
 * organization profile and KYB. `member`: schemas, issuing and verifications. API keys act with member rights.
 */
export const memberRoles = ['admin', 'member'] as const;
export const zMemberRole = z.enum(memberRoles);
export type MemberRole = z.infer<typeof zMemberRole>;

/** `provider`: the identity provider's `organizations` claim brought the member; `local`: an invitation or the console. */
export const zMembershipSource = z.enum(['local', 'provider']);
export type MembershipSource = z.infer<typeof zMembershipSource>;

/** One member of an organization (`GET organizations/{id}/members`). */
export const zMember = z.object({
  user_id: z.uuid(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  role: zMemberRole,
  source: zMembershipSource,
  joined_at: z.iso.datetime({ offset: true }),
});
export type Member = z.infer<typeof zMember>;

export const zMemberPage = pageOf(zMember);
export type MemberPage = z.infer<typeof zMemberPage>;
export const zMemberListQuery = zPageQuery;

export const zMemberParams = z.object({ id: z.uuid(), userId: z.uuid() });

/** `PATCH organizations/{id}/members/{userId}`: the last admin cannot be demoted (409 ORGANIZATION_LAST_ADMIN). */
export const zUpdateMemberRequest = z.strictObject({ role: zMemberRole });
export type UpdateMemberRequest = z.infer<typeof zUpdateMemberRequest>;

/** How long an invitation link stays valid. */
export const INVITATION_TTL_DAYS = 7;
export const INVITATION_EMAIL_MAX = 320;

/** `POST organizations/{id}/invitations`. */
export const zCreateInvitationRequest = z.strictObject({
  email: z.email().max(INVITATION_EMAIL_MAX),
  role: zMemberRole,
  /**
   * The invitation e-mail's language (the inviter's console language). Without it, the best match of the
   * request's Accept-Language, else `en`.
   */
  locale: zCredentialMailLocale.optional(),
});
export type CreateInvitationRequest = z.infer<typeof zCreateInvitationRequest>;

/** A pending invitation as admins see it (never its token: stored as SHA-256 only). */
export const zInvitation = z.object({
  id: z.uuid(),
  email: z.string(),
  role: zMemberRole,
  invited_by: z
    .object({ user_id: z.uuid(), first_name: z.string().nullable(), last_name: z.string().nullable() })
    .nullable(),
  created_at: z.iso.datetime({ offset: true }),
  expires_at: z.iso.datetime({ offset: true }),
  /** PENDING until `expires_at`, then EXPIRED (resend to renew it). */
  status: z.enum(['PENDING', 'EXPIRED']),
});
export type Invitation = z.infer<typeof zInvitation>;

/** The answer of creating or resending an invitation: the only time its link is returned (also e-mailed). */
export const zSentInvitation = zInvitation.extend({ url: z.string() });
export type SentInvitation = z.infer<typeof zSentInvitation>;

export const zInvitationPage = pageOf(zInvitation);
export type InvitationPage = z.infer<typeof zInvitationPage>;
export const zInvitationListQuery = zPageQuery;

export const zInvitationParams = z.object({ id: z.uuid(), invitationId: z.uuid() });

/** The token of an invitation link: 32 random bytes, base64url (43 characters). */
export const zInvitationTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** `GET invitations/{token}` (public): what the invitation page shows, nothing more. */
export const zPublicInvitation = z.object({
  organization: z.object({ name: z.string(), logo_url: z.string().nullable() }),
  inviter: z.object({ first_name: z.string().nullable(), last_name: z.string().nullable() }).nullable(),
  role: zMemberRole,
  expires_at: z.iso.datetime({ offset: true }),
});
export type PublicInvitation = z.infer<typeof zPublicInvitation>;

/** `POST invitations/{token}/accept`: the organization joined, with the role the user has there now. */
export const zAcceptedInvitation = z.object({ organization_id: z.uuid(), role: zMemberRole });
export type AcceptedInvitation = z.infer<typeof zAcceptedInvitation>;
