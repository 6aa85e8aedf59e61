import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors/app-error.ts';
import * as authService from '../modules/auth/auth.service.ts';
import * as organizationsService from '../modules/organizations/organizations.service.ts';

export interface Actor {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    organizationId: string | null;
  }
}

const zUuid = z.uuid();

/** preHandler: a valid access token of a session that is still open (logout ends it at once). */
export function authenticate(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw new AppError('AUTH_REQUIRED', { detail: 'Sign in to continue.' });
    const claims = await ctx.accessTokens.verify(match[1]);
    if (!(await authService.isSessionActive(ctx.database.db, claims.sessionId))) {
      throw new AppError('AUTH_TOKEN_INVALID', { detail: 'This session has ended.' });
    }
    request.actor = claims;
    // Whenever CurrentIdentity is sent, it must name an organization the actor belongs to.
    const organizationId = currentIdentity(request);
    if (organizationId) {
      await organizationsService.assertMember(ctx.database.db, organizationId, claims.userId);
      request.organizationId = organizationId;
    }
  };
}

function currentIdentity(request: FastifyRequest): string | undefined {
  const raw = request.headers.currentidentity;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  if (!zUuid.safeParse(value).success) {
    throw new AppError('REQUEST_INVALID', { detail: 'CurrentIdentity must be an organization id.' });
  }
  return value;
}

/**
 * For organization-scoped calls: the organization named by CurrentIdentity, whose membership
 * authenticate() has already checked; the header alone is never trusted.
 */
export function requireOrganization(request: FastifyRequest): { userId: string; organizationId: string } {
  if (!request.actor) throw new AppError('AUTH_REQUIRED');
  if (!request.organizationId) {
    throw new AppError('ORGANIZATION_IDENTITY_REQUIRED', { detail: 'The CurrentIdentity header is required.' });
  }
  return { userId: request.actor.userId, organizationId: request.organizationId };
}

export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('AUTH_REQUIRED');
  return request.actor;
}
