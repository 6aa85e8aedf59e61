import { zWalletMetadata } from '@openid4vc/openid4vp';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { registerOAuthErrorHandler } from '../../plugins/oauth-errors.ts';
import { publicCors } from '../../plugins/public-cors.ts';
import * as dcApi from './dc-api.ts';
import * as openid4vp from './openid4vp.service.ts';

/** The attempt id travels inside URLs the wallet treats as opaque: one that is not an attempt's is unknown (404). */
const zParams = z.object({ id: z.string().min(1).max(200) });
const zAttemptId = z.uuid();
const attemptId = (id: string, error: 'invalid_request' | 'invalid_request_uri') => {
  if (!zAttemptId.safeParse(id).success) throw new openid4vp.VerifierError(error, 'No such verification request.', 404);
  return id;
};

/** The wallet's answers come form-encoded (OpenID4VP 1.0 §5.10 and §8.2); other headers stay on the request. */
const zFormContentType = z
  .object({
    'content-type': z
      .string({ error: 'content-type must be application/x-www-form-urlencoded (OpenID4VP 1.0 §8.2).' })
      .refine(
        (value) => value.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded',
        'must be application/x-www-form-urlencoded (OpenID4VP 1.0 §8.2)',
      ),
  })
  .loose();

/** A JSON text inside a form parameter, checked by a schema. */
const zJsonText = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .max(20_000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/**
 * What a wallet may POST to the `request_uri` (OpenID4VP 1.0 §5.10): its metadata (checked against
 * @openid4vc/openid4vp's schema) and a nonce to find again in the request object. Both optional; a GET
 * works as well.
 */
const zRequestUriPost = z
  .object({
    wallet_metadata: zJsonText(zWalletMetadata).optional(),
    wallet_nonce: z.string().min(1).max(200).optional(),
  })
  .loose();

/**
 * The response endpoint's body (OpenID4VP 1.0 §8.2, §8.3.1): `response` (direct_post.jwt), or a plain answer
 * or a decline (`error`, `state`). @openid4vc/openid4vp reads the rest against the request; the bounds here
 * keep oversized values out.
 */
const zAuthorizationResponse = z
  .object({
    response: z.string().min(1).max(openid4vp.RESPONSE_MAX_CHARS).optional(),
    vp_token: z.string().max(openid4vp.RESPONSE_MAX_CHARS).optional(),
    state: z.string().max(500).optional(),
    error: z.string().max(500).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .loose();
/** The page's query: the origin it runs on, which must be the platform's own (OpenID4VP 1.0 A.2 `expected_origins`). */
const zDcApiRequestQuery = z.object({ origin: z.string().min(1).max(500) });

/**
 * The `data` of the browser's DigitalCredential, forwarded by the holder page (OpenID4VP 1.0 A.4): `response`
 * (dc_api.jwt, a JWE); a plain `vp_token` (dc_api) is read only to be refused as a downgrade.
 */
const zDcApiResponse = z
  .object({
    response: z.string().min(1).max(openid4vp.RESPONSE_MAX_CHARS).optional(),
    vp_token: z.unknown().optional(),
    // A wallet that declines (OpenID4VP 1.0 §8.5), as the response endpoint takes it.
    error: z.string().max(500).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .strict();

/**
 * OpenID4VP 1.0 endpoints outside /api (their URLs travel inside requests): the request object by
 * reference (`request_uri`, GET or POST) and the response endpoint (`direct_post` / `direct_post.jwt`).
 */
export function openid4vpRoutes(ctx: AppContext): FastifyPluginAsync {
  const deps = ctx.deps.verifier;
  // Request object and response endpoints: a stricter per-address limit (RATE_LIMIT_VERIFIER_PER_MINUTE).
  const limited = { config: { rateLimit: { max: ctx.config.rateLimits.verifier, timeWindow: '1 minute' } } };
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    // Wallets may run in a browser on another origin: the verifier endpoints are public and cookie-free.
    publicCors(app, { methods: ['GET', 'POST', 'OPTIONS'], allowedHeaders: ['content-type'] });
    // Request objects and answers are single-use: never cached (refusals included).
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    // Failures of these routes are OAuth errors `{error, error_description}` (OpenID4VP 1.0 §8.5), not problem+json.
    registerOAuthErrorHandler(app);
    app.get('/oid4vp/requests/:id', { ...limited, schema: { params: zParams } }, async (request, reply) =>
      reply
        .type('application/oauth-authz-req+jwt')
        .send(await openid4vp.requestObject(deps, attemptId(request.params.id, 'invalid_request_uri'))),
    );
    // request_uri_method=post: the wallet may POST its metadata and a nonce; the request object then carries it.
    app.post(
      '/oid4vp/requests/:id',
      { ...limited, bodyLimit: 32 * 1024, schema: { params: zParams, body: zRequestUriPost.nullish() } },
      async (request, reply) => {
        if (request.body && !zFormContentType.safeParse(request.headers).success) {
          throw new openid4vp.VerifierError('invalid_request', 'Post the wallet metadata form-encoded (§5.10).');
        }
        const jwt = await openid4vp.requestObject(deps, attemptId(request.params.id, 'invalid_request_uri'), {
          walletNonce: request.body?.wallet_nonce,
        });
        return reply.type('application/oauth-authz-req+jwt').send(jwt);
      },
    );

    app.post(
      '/oid4vp/responses/:id',
      {
        ...limited,
        // The largest response read, with room for the form encoding.
        bodyLimit: 2 * openid4vp.RESPONSE_MAX_CHARS,
        schema: { params: zParams, headers: zFormContentType, body: zAuthorizationResponse },
      },
      async (request, reply) => {
        const id = attemptId(request.params.id, 'invalid_request');
        const answer = await openid4vp.handleResponse(deps, id, request.body);
        return reply.send({ redirect_uri: answer.redirect_uri });
      },
    );
    // The Digital Credentials API (OpenID4VP 1.0 Appendix A): the holder page asks for the request to give the
    // browser, and forwards the wallet's answer. OAuth errors as the response endpoint's, same limit.
    app.get(
      '/oid4vp/dc-api/requests/:id',
      { ...limited, schema: { params: zParams, querystring: zDcApiRequestQuery } },
      async (request) =>
        dcApi.dcApiRequest(deps, attemptId(request.params.id, 'invalid_request'), request.query.origin),
    );
    app.post(
      '/oid4vp/dc-api/responses/:id',
      { ...limited, bodyLimit: 2 * openid4vp.RESPONSE_MAX_CHARS, schema: { params: zParams, body: zDcApiResponse } },
      async (request, reply) => {
        const id = attemptId(request.params.id, 'invalid_request');
        // A.4: a plain vp_token travels as JSON; the channel refuses it as direct_post.jwt refuses a plain form.
        const { vp_token: vpToken, ...rest } = request.body;
        const body = {
          ...rest,
          ...(vpToken !== undefined
            ? { vp_token: typeof vpToken === 'string' ? vpToken : JSON.stringify(vpToken) }
            : {}),
        };
        const answer = await dcApi.handleDcApiResponse(deps, id, body);
        return reply.send({ status: answer.status, redirect_uri: answer.redirect_uri });
      },
    );
    // Preflights: answered by @fastify/cors with these routes' CORS headers.
    app.options('/oid4vp/*', async (_request, reply) => reply.status(204).send());
  };
}
