import type { MemberRole } from '@cp/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors/app-error.ts';
import { apiKeyRateLimiterFor } from '../modules/api-keys/api-keys.rate-limit.ts';
import { verifyApiKey } from '../modules/api-keys/api-keys.service.ts';
import * as authService from '../modules/auth/auth.service.ts';
import * as organizationsService from '../modules/organizations/organizations.service.ts';

/** Who is calling: a signed-in user (console) or an organization's integration API key. */
export type Actor =
  | {
      kind: 'user';
      userId: string;
      sessionId: string;
      twoFactor: boolean;
      /**
       * The organization named in CurrentIdentity requires two-step sign-in and this session has one step: every
       * call acting for it (requireOrganization) answers 403; calls about the person (profile, organization list)
       * still work, so the console can say what to do.
       */
      organizationTwoFactorUnmet?: boolean;
    }
  | { kind: 'api_key'; apiKeyId: string; organizationId: string };

/**
 * Who may call a route, declared on the route (`config: { role }`) and checked by `authenticate` for the
 * organization the call acts for, in one place (`assertRole`):
 * - `admin`: an admin of the organization (members, invitations, API keys, webhooks, trust anchors, profile,
 *   KYB, link secrets). API keys are refused: they act with member rights.
 * - `member`: any member of the organization, or its API key where the route accepts keys.
 * - `user`: any signed-in user; the route acts for no organization (own profile, own organizations, joining).
 * A route that acts for an organization and declares nothing is treated as `admin`, so a forgotten
 * declaration fails closed (and `test/security-roles.test.ts` names it).
 */
export type RouteRole = 'admin' | 'member' | 'user';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    organizationId: string | null;
    /** The actor's role in `organizationId` (an API key: `member`); null when the call acts for none. */
    organizationRole: MemberRole | null;
  }
  interface FastifyContextConfig {
    role?: RouteRole;
    /**
     * The path parameter naming the organization the route acts for (`/organizations/:id`, `/kyb/:orgId`): its
     * membership and role are the ones checked, and a CurrentIdentity sent with it must name the same one.
     */
    organizationParam?: string;
  }
}

const zUuid = z.uuid();

export interface AuthenticateOptions {
  /** Accept HTTP Basic `key:secret` API keys (the endpoints integrators need). */
  allowApiKey?: boolean;
}

/**
 * preHandler: a valid access token of a session that is still open (logout ends it at once), or,
 * where allowed, an API key. Whenever CurrentIdentity is sent it must name one of the actor's
 * organizations; an API key always acts for its own organization.
 */
export function authenticate(ctx: AppContext, options: AuthenticateOptions = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1];
    if (basic) {
      if (!options.allowApiKey) {
        throw new AppError('AUTH_TOKEN_INVALID', { detail: 'This endpoint does not accept API keys.' });
      }
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const separator = decoded.indexOf(':');
      const principal =
        separator > 0
          ? await verifyApiKey(ctx.database.db, decoded.slice(0, separator), decoded.slice(separator + 1))
          : null;
      if (!principal) {
        reply.header('www-authenticate', 'Basic realm="api"');
        throw new AppError('AUTH_TOKEN_INVALID', { detail: 'The API key is invalid.' });
      }
      // Per-key limit (config.apiKeyRateLimitPerMinute), counted only for verified keys.
      const rate = await apiKeyRateLimiterFor(ctx).consume(principal.apiKeyId);
      if (!rate.allowed) {
        reply.header('retry-after', String(rate.retryAfterSeconds));
        throw new AppError('RATE_LIMITED', {
          detail: `Too many requests with this API key; retry in ${rate.retryAfterSeconds} s.`,
        });
      }
      const named = currentIdentity(request);
      if (named && named !== principal.organizationId) {
        throw new AppError('ORGANIZATION_ACCESS_DENIED', { detail: 'An API key acts for its own organization.' });
      }
      request.actor = { kind: 'api_key', ...principal };
      request.organizationId = principal.organizationId;
      request.organizationRole = 'member';
      await checkRouteRole(ctx, request);
      return;
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!bearer) throw new AppError('AUTH_REQUIRED', { detail: 'Sign in to continue.' });
    const claims = await ctx.accessTokens.verify(bearer);
    const ended = () => new AppError('AUTH_TOKEN_INVALID', { detail: 'This session has ended.' });
    let organizationId: string | undefined;
    let unreadable: unknown;
    try {
      organizationId = currentIdentity(request);
    } catch (err) {
      unreadable = err; // answered once the session is known to be active, as before
    }
    if (!organizationId) {
      if (!(await authService.isSessionActive(ctx.database.db, claims.sessionId))) throw ended();
      request.actor = { kind: 'user', ...claims };
      if (unreadable) throw unreadable;
    } else {
      // The session, the membership and the organization's two-step rule in one statement.
      const found = await authService.findSessionInOrganization(ctx.database.db, {
        sessionId: claims.sessionId,
        organizationId,
        userId: claims.userId,
      });
      if (!found.active) throw ended();
      request.actor = { kind: 'user', ...claims };
      if (!found.role) {
        throw new AppError('ORGANIZATION_ACCESS_DENIED', {
          detail: 'You are not a member of the organization named in CurrentIdentity.',
        });
      }
      request.organizationRole = found.role;
      request.organizationId = organizationId;
      if (!claims.twoFactor && found.requireTwoFactor) {
        request.actor = { ...request.actor, organizationTwoFactorUnmet: true };
      }
    }
    await checkRouteRole(ctx, request);
  };
}

/**
 * The route's declared role (see `RouteRole`), for the organization in its path when it names one
 * (`organizationParam`), else for CurrentIdentity's or the API key's.
 */
async function checkRouteRole(ctx: AppContext, request: FastifyRequest) {
  const { role, organizationParam } = request.routeOptions.config;
  if (organizationParam) {
    const fromPath = (request.params as Record<string, unknown>)[organizationParam];
    if (typeof fromPath !== 'string') throw new AppError('ORGANIZATION_NOT_FOUND');
    // Another organization than the one acted for is a foreign record: 404, as for any other.
    if (request.organizationId && request.organizationId !== fromPath) throw new AppError('ORGANIZATION_NOT_FOUND');
    if (!request.organizationId && request.actor?.kind === 'user') {
      const memberRole = await organizationsService.findMemberRole(ctx.database.db, fromPath, request.actor.userId);
      if (!memberRole) throw new AppError('ORGANIZATION_NOT_FOUND');
      request.organizationId = fromPath;
      request.organizationRole = memberRole;
    }
  }
  if (role === 'user' || role === 'member' || !request.organizationId) return;
  assertRole(request, 'admin');
}

/**
 * The one role check: refuses with 403 ORGANIZATION_ROLE_FORBIDDEN (nothing done) unless the actor has `role`
 * in the organization the call acts for. Routes declare it (`config: { role }`); a handler whose rule depends
 * on the request (removing someone else, uploading a logo) calls it directly.
 */
export function assertRole(request: FastifyRequest, role: MemberRole) {
  if (role === 'member' || request.organizationRole === 'admin') return;
  throw new AppError('ORGANIZATION_ROLE_FORBIDDEN', {
    detail:
      request.actor?.kind === 'api_key'
        ? 'API keys act with member rights; this needs an organization admin.'
        : 'Only an admin of the organization can do this.',
  });
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

/** The signed-in user; API keys are refused on user-only endpoints (profile, organizations list). */
export function requireUser(request: FastifyRequest): { userId: string; sessionId: string; twoFactor: boolean } {
  const actor = request.actor;
  if (!actor) throw new AppError('AUTH_REQUIRED');
  if (actor.kind !== 'user') {
    throw new AppError('AUTH_TOKEN_INVALID', { detail: 'This endpoint needs a signed-in user.' });
  }
  return { userId: actor.userId, sessionId: actor.sessionId, twoFactor: actor.twoFactor };
}

/**
 * For organization-scoped calls: the organization named by CurrentIdentity (membership already
 * checked by authenticate) or the API key's organization. The header alone is never trusted.
 */
export function requireOrganization(request: FastifyRequest): {
  organizationId: string;
  /** The acting user, or null for an API key. */
  userId: string | null;
  actor: Actor;
} {
  const actor = request.actor;
  if (!actor) throw new AppError('AUTH_REQUIRED');
  if (!request.organizationId) {
    throw new AppError('ORGANIZATION_IDENTITY_REQUIRED', { detail: 'The CurrentIdentity header is required.' });
  }
  if (actor.kind === 'user' && actor.organizationTwoFactorUnmet) throw organizationsService.twoFactorRequiredError();
  return { organizationId: request.organizationId, userId: actor.kind === 'user' ? actor.userId : null, actor };
}

/**
 * OpenAPI `security` of an endpoint that accepts API keys: HTTP Basic `key:secret` (scheme `apiKey`),
 * or a signed-in user's bearer token with CurrentIdentity. Use with `authenticate(ctx, { allowApiKey: true })`.
 */
export const apiKeyOrUserSecurity: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [], currentIdentity: [] }];

/** OpenAPI `security` of console-only endpoints (signed-in user acting for CurrentIdentity). */
export const userSecurity: Record<string, string[]>[] = [{ bearer: [], currentIdentity: [] }];
