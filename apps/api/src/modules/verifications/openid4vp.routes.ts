import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicCors } from '../../plugins/public-cors.ts';
import * as openid4vp from './openid4vp.service.ts';

const zParams = z.object({ id: z.uuid() });

function verifierError(reply: FastifyReply, err: unknown) {
  if (err instanceof openid4vp.VerifierError) {
    return reply.status(err.status).send({ error: err.error, error_description: err.description });
  }
  throw err;
}

/**
 * OpenID4VP 1.0 endpoints outside /api (their URLs travel inside requests): the request object by
 * reference (`request_uri`, GET or POST) and the response endpoint (`direct_post` / `direct_post.jwt`).
 */
export function openid4vpRoutes(ctx: AppContext): FastifyPluginAsync {
  const deps = ctx.deps.verifier;
  const id = (params: unknown) => {
    const parsed = zParams.safeParse(params);
    if (!parsed.success) throw new openid4vp.VerifierError('invalid_request', 'Malformed request id.', 404);
    return parsed.data.id;
  };
  // Request object and response endpoints: a stricter per-address limit (RATE_LIMIT_VERIFIER_PER_MINUTE).
  const limited = { config: { rateLimit: { max: ctx.config.rateLimits.verifier, timeWindow: '1 minute' } } };
  return async (app) => {
    // Wallets may run in a browser on another origin: the verifier endpoints are public and cookie-free.
    publicCors(app, { methods: ['GET', 'POST', 'OPTIONS'], allowedHeaders: ['content-type'] });
    // Request objects and answers are single-use: never cached (refusals included).
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    const serveRequest = async (params: unknown, reply: FastifyReply) => {
      try {
        const jwt = await openid4vp.requestObject(deps, id(params));
        return reply.type('application/oauth-authz-req+jwt').send(jwt);
      } catch (err) {
        return verifierError(reply, err);
      }
    };
    app.get('/oid4vp/requests/:id', limited, async (request, reply) => serveRequest(request.params, reply));
    // request_uri_method=post: the wallet may POST its metadata; the request object is the same.
    app.post('/oid4vp/requests/:id', limited, async (request, reply) => serveRequest(request.params, reply));

    app.post('/oid4vp/responses/:id', limited, async (request, reply) => {
      try {
        const answer = await openid4vp.handleResponse(deps, id(request.params), request.body);
        return reply.send({ redirect_uri: answer.redirect_uri });
      } catch (err) {
        return verifierError(reply, err);
      }
    });
    // Preflights: answered by @fastify/cors with these routes' CORS headers.
    app.options('/oid4vp/*', async (_request, reply) => reply.status(204).send());
  };
}
