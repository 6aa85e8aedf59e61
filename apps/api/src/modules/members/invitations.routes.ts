import { zAcceptedInvitation, zInvitationTokenParams, zPublicInvitation } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, requireUser } from '../../plugins/authenticate.ts';
import * as invitationsService from './invitations.service.ts';
import { presentPublicInvitation } from './members.presenter.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

/**
 * The invitee's side of an invitation link (`/invitations/{token}`): what it is (public: the link is the
 * secret) and accepting it (signed in, with the invited address). Both are limited per client address like
 * sign-in (RATE_LIMIT_SIGN_IN_PER_MINUTE), on top of the 32 random bytes of the token.
 */
export function invitationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const limited = { rateLimit: { max: ctx.config.rateLimits.signIn, timeWindow: '1 minute' } };
  return async (app) => {
    app.get(
      '/invitations/:token',
      {
        config: limited, // public: the unguessable link shows the organization, inviter, role and expiry only
        schema: {
          tags: ['members'],
          summary: 'What an invitation link is for (public): 404 unknown, 410 expired, used or revoked',
          params: zInvitationTokenParams,
          querystring: zQuery,
          response: { 200: zPublicInvitation },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return presentPublicInvitation(
          await invitationsService.getPublicInvitation(db, request.params.token),
          ctx.config.publicUrl,
        );
      },
    );

    app.post(
      '/invitations/:token/accept',
      {
        config: { ...limited, role: 'user' }, // any signed-in user whose e-mail is the invited address
        preHandler: authenticate(ctx),
        schema: {
          tags: ['members'],
          summary: 'Join the organization with the invitation (single use)',
          description:
            'Only the invited address may accept (case-insensitive): another signed-in user gets 403 ' +
            'INVITATION_EMAIL_MISMATCH, whose `errors[0].message` is the invited address, partly masked.',
          security: [{ bearer: [] }],
          params: zInvitationTokenParams,
          response: { 200: zAcceptedInvitation },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const accepted = await invitationsService.acceptInvitation(
          db,
          requireUser(request).userId,
          request.params.token,
        );
        return { organization_id: accepted.organizationId, role: accepted.role };
      },
    );
  };
}
