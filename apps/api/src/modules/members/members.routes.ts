import {
  zCreateInvitationRequest,
  zIdParams,
  zInvitationListQuery,
  zInvitationPage,
  zInvitationParams,
  zMember,
  zMemberListQuery,
  zMemberPage,
  zMemberParams,
  zSentInvitation,
  zUpdateMemberRequest,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import {
  assertRole,
  authenticate,
  requireOrganization,
  requireUser,
  userSecurity,
} from '../../plugins/authenticate.ts';
import { credentialMailLocaleFromAcceptLanguage } from '../credentials/credential-mail.ts';
import * as invitationsService from './invitations.service.ts';
import { presentInvitation, presentMember } from './members.presenter.ts';
import * as membersService from './members.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });
const zResendRequest = z.strictObject({ locale: zCreateInvitationRequest.shape.locale }).optional();

/**
 * The team of an organization (`/organizations/{id}/members`, `/organizations/{id}/invitations`). The path's
 * organization is the one acted for (`organizationParam`): a CurrentIdentity naming another answers 404.
 * Reading the member list is for every member; everything else is for admins, except leaving.
 */
export function membersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const invitations = ctx.deps.invitations;
  /** The acting user in the path's organization (authenticate checked membership and role). */
  const scopeOf = (request: Parameters<typeof requireUser>[0]) => ({
    userId: requireUser(request).userId,
    organizationId: requireOrganization(request).organizationId,
  });
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx));

    app.get(
      '/organizations/:id/members',
      {
        config: { role: 'member', organizationParam: 'id' }, // every member sees the team
        schema: {
          tags: ['members'],
          summary: "The organization's members, admins first",
          security: userSecurity,
          params: zIdParams,
          querystring: zMemberListQuery,
          response: { 200: zMemberPage },
        },
      },
      async (request) => {
        const { organizationId } = scopeOf(request);
        const { page, limit } = request.query;
        const { rows, total } = await membersService.findMembers(db, organizationId, { page, limit });
        return { results: rows.map(presentMember), total, page, limit };
      },
    );

    app.patch(
      '/organizations/:id/members/:userId',
      {
        config: { role: 'admin', organizationParam: 'id' }, // changing roles: admins
        schema: {
          tags: ['members'],
          summary: "Change a member's role (the last admin cannot be demoted: 409 ORGANIZATION_LAST_ADMIN)",
          security: userSecurity,
          params: zMemberParams,
          body: zUpdateMemberRequest,
          response: { 200: zMember },
        },
      },
      async (request) => {
        const member = await membersService.changeMemberRole(
          db,
          scopeOf(request),
          request.params.userId,
          request.body.role,
        );
        return presentMember(member);
      },
    );

    app.delete(
      '/organizations/:id/members/:userId',
      {
        config: { role: 'member', organizationParam: 'id' }, // leaving: any member; removing others: admins (below)
        schema: {
          tags: ['members'],
          summary: 'Remove a member (admins), or leave (your own user id); the last admin can do neither',
          description:
            'A removed member is not brought back by the identity provider at the next sign-in; a new invitation ' +
            'brings them back. 409 ORGANIZATION_LAST_ADMIN for the last admin.',
          security: userSecurity,
          params: zMemberParams,
          querystring: zQuery,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request);
        if (request.params.userId !== scope.userId) assertRole(request, 'admin');
        await membersService.removeMember(db, scope, request.params.userId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/organizations/:id/invitations',
      {
        config: { role: 'admin', organizationParam: 'id' }, // invitations: admins
        schema: {
          tags: ['members'],
          summary: 'Pending invitations (expired ones included, until resent or revoked), newest first',
          security: userSecurity,
          params: zIdParams,
          querystring: zInvitationListQuery,
          response: { 200: zInvitationPage },
        },
      },
      async (request) => {
        const { organizationId } = scopeOf(request);
        const { page, limit } = request.query;
        const { rows, total } = await invitationsService.findPendingInvitations(db, organizationId, { page, limit });
        return { results: rows.map(presentInvitation), total, page, limit };
      },
    );

    app.post(
      '/organizations/:id/invitations',
      {
        config: { role: 'admin', organizationParam: 'id' }, // invitations: admins
        schema: {
          tags: ['members'],
          summary: 'Invite someone by e-mail with a role (replaces the pending invitation of that address)',
          description:
            'E-mails the link `<PUBLIC_URL>/invitations/<token>` (valid 7 days) in `locale`, else in the best ' +
            'match of Accept-Language. The answer carries `url`: the only time the link is returned. 409 ' +
            'ORGANIZATION_ALREADY_MEMBER when the address is a member already.',
          security: userSecurity,
          params: zIdParams,
          body: zCreateInvitationRequest,
          response: { 201: zSentInvitation },
        },
      },
      async (request, reply) => {
        const locale =
          request.body.locale ?? credentialMailLocaleFromAcceptLanguage(request.headers['accept-language']);
        const { invitation, url } = await invitationsService.createInvitation(invitations, scopeOf(request), {
          ...request.body,
          locale,
        });
        return reply.status(201).send({ ...presentInvitation(invitation), url });
      },
    );

    app.delete(
      '/organizations/:id/invitations/:invitationId',
      {
        config: { role: 'admin', organizationParam: 'id' }, // invitations: admins
        schema: {
          tags: ['members'],
          summary: 'Revoke a pending invitation (its link answers 410)',
          security: userSecurity,
          params: zInvitationParams,
          querystring: zQuery,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await invitationsService.revokeInvitation(db, scopeOf(request), request.params.invitationId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/organizations/:id/invitations/:invitationId/resend',
      {
        config: { role: 'admin', organizationParam: 'id' }, // invitations: admins
        schema: {
          tags: ['members'],
          summary: 'A new link (valid 7 more days) e-mailed again; the previous link stops working',
          security: userSecurity,
          params: zInvitationParams,
          body: zResendRequest,
          response: { 200: zSentInvitation },
        },
      },
      async (request) => {
        const locale =
          request.body?.locale ?? credentialMailLocaleFromAcceptLanguage(request.headers['accept-language']);
        const { invitation, url } = await invitationsService.resendInvitation(
          invitations,
          scopeOf(request).organizationId,
          request.params.invitationId,
          locale,
        );
        return { ...presentInvitation(invitation), url };
      },
    );
  };
}
