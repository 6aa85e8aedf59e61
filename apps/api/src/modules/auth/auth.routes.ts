import {
  zCompleteAuthRequest,
  zLogoutRequest,
  zLogoutResponse,
  zRefreshRequest,
  zStartAuthRequest,
  zStartAuthResponse,
  zTokenResponse,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import * as authService from './auth.service.ts';

/** OpenID Connect Back-Channel Logout 1.0 §2.5: the provider POSTs the token form-encoded. */
const zBackchannelLogoutRequest = z.object({ logout_token: z.string().min(1).max(8192) });

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps.auth;
  // Sign-in and token rotation: a stricter per-address limit (RATE_LIMIT_SIGN_IN_PER_MINUTE).
  const strict = { config: { rateLimit: { max: ctx.config.rateLimits.signIn, timeWindow: '1 minute' } } };
  return async (app) => {
    app.post(
      '/auth',
      {
        ...strict,
        schema: {
          tags: ['auth'],
          summary: 'Start sign-in at the identity provider',
          body: zStartAuthRequest.optional(),
          response: { 200: zStartAuthResponse },
        },
      },
      async (request) => authService.startAuth(deps, request.body ?? {}),
    );
    app.post(
      '/auth/session',
      {
        ...strict,
        schema: {
          tags: ['auth'],
          summary: 'Exchange the authorization code for API tokens',
          body: zCompleteAuthRequest,
          response: { 200: zTokenResponse },
        },
      },
      async (request) => authService.completeAuth(deps, request.body),
    );
    app.post(
      '/auth/refresh',
      {
        ...strict,
        schema: {
          tags: ['auth'],
          summary: 'Rotate the refresh token',
          body: zRefreshRequest,
          response: { 200: zTokenResponse },
        },
      },
      async (request) => authService.refreshSession(deps, request.body.refresh_token),
    );
    app.post(
      '/auth/backchannel-logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'OpenID Connect Back-Channel Logout: end the sessions named in the logout token',
          description:
            "Called by the identity provider, not by browsers: register it as the console client's " +
            "`backchannel_logout_uri`. The form field `logout_token` is verified with the provider's keys. With a " +
            '`sid`, the console sessions opened from that provider session end; with only a `sub`, every session ' +
            'of the user. Their access tokens stop working at once.',
          consumes: ['application/x-www-form-urlencoded'],
          body: zBackchannelLogoutRequest,
          response: { 200: z.null() },
        },
      },
      async (request, reply) => {
        await authService.backchannelLogout(deps, request.body.logout_token);
        // §2.8: 200 OK, not cached.
        return reply.status(200).header('cache-control', 'no-store').send(null);
      },
    );
    app.post(
      '/auth/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'End the session (revokes the refresh-token family)',
          description:
            "Answers `logout_url`: the identity provider's end-session address (OpenID Connect RP-Initiated Logout), " +
            "where the console sends the browser so the provider's session ends too and it returns to `/intro`; null " +
            'when the provider has none.',
          body: zLogoutRequest.optional(),
          response: { 200: zLogoutResponse },
        },
      },
      async (request, reply) => {
        let sessionId: string | undefined;
        const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
        if (bearer)
          sessionId = await ctx.accessTokens.verify(bearer).then(
            (c) => c.sessionId,
            () => undefined,
          );
        const refreshToken = request.body?.refresh_token;
        const answer = await authService.logout(deps, {
          ...(refreshToken ? { refreshToken } : {}),
          ...(sessionId ? { sessionId } : {}),
        });
        return reply.status(200).header('cache-control', 'no-store').send(answer);
      },
    );
  };
}
