import { readFileSync } from 'node:fs';
import { pemCertificates } from '@cp/credentials';
import { zWalletMetadata } from '@openid4vc/openid4vp';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { httpFetcher, type ResourceFetcher } from '../../lib/resource-fetcher.ts';
import { corsOnRefusals } from '../../plugins/cors-on-refusals.ts';
import { registerOAuthErrorHandler } from '../../plugins/oauth-errors.ts';
import { credentialDeps } from '../credentials/credentials.routes.ts';
import * as issuerService from '../issuer/issuer.service.ts';
import * as keysService from '../organization-keys/organization-keys.service.ts';
import { webhookDeps } from '../webhooks/webhooks.service.ts';
import * as openid4vp from './openid4vp.service.ts';
import { platformAnchors, verifierTrust } from './verifier-trust.ts';

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
const OWN_STATUS_LIST = /^\/orgs\/([0-9a-f-]{36})\/status-list$/;
const OWN_DID_DOCUMENT = /^\/orgs\/([0-9a-f-]{36})\/did\.json$/;
const OWN_ISSUER_METADATA = /^\/\.well-known\/jwt-vc-issuer\/orgs\/([0-9a-f-]{36})$/;

/**
 * The verifier's fetcher: this platform's own documents (status lists, did:web documents, JWT VC Issuer
 * Metadata) are read from the database, the same ones its routes serve, without a round trip through the
 * load balancer; anything else over HTTP.
 */
function platformFetcher(ctx: AppContext): ResourceFetcher {
  const http = httpFetcher({
    allowHttp: !ctx.config.isProduction,
    allowPrivateNetworks: ctx.config.outbound.allowPrivateNetworks,
  });
  const issuerDeps: issuerService.IssuerDeps = {
    db: ctx.database.db,
    keys: ctx.keys,
    credentials: credentialDeps(ctx),
    publicUrl: ctx.config.publicUrl,
    statusListTtlSeconds: ctx.config.credentialEngine.statusListTtlSeconds,
    statusListSize: ctx.config.credentialEngine.statusListSize,
  };
  const origin = new URL(ctx.config.publicUrl).origin;
  return {
    async text(url, accept) {
      const parsed = new URL(url);
      if (parsed.origin === origin && !parsed.search) {
        const statusList = OWN_STATUS_LIST.exec(parsed.pathname)?.[1];
        if (statusList) return issuerService.statusListToken(issuerDeps, statusList);
        const didDocument = OWN_DID_DOCUMENT.exec(parsed.pathname)?.[1];
        if (didDocument) return JSON.stringify(await keysService.didDocument(ctx.keys, didDocument));
        const metadata = OWN_ISSUER_METADATA.exec(parsed.pathname)?.[1];
        if (metadata) return JSON.stringify(await keysService.issuerMetadata(ctx.keys, metadata));
      }
      return http.text(url, accept);
    },
  };
}

export function verifierDeps(ctx: AppContext): openid4vp.VerifierDeps {
  const platformList = ctx.config.credentialEngine.verifierTrustAnchorsFile;
  return {
    db: ctx.database.db,
    keys: ctx.keys,
    secretBox: ctx.secretBox,
    publicUrl: ctx.config.publicUrl,
    webhooks: webhookDeps(ctx),
    trust: verifierTrust({
      db: ctx.database.db,
      publicUrl: ctx.config.publicUrl,
      fetcher: platformFetcher(ctx),
      // The platform CA, and the platform-wide list (read once at boot); each organization adds its own.
      platformAnchors: platformAnchors(
        ctx.keys.ca.certificatePem,
        platformList ? pemCertificates(readFileSync(platformList, 'utf8')) : [],
      ),
      allowHttp: !ctx.config.isProduction,
    }),
  };
}

/** Wallets may run in a browser on another origin: the verifier endpoints are public and cookie-free. */
function cors(reply: FastifyReply) {
  return reply
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', 'GET, POST, OPTIONS')
    .header('access-control-allow-headers', 'content-type')
    .header('access-control-max-age', '600')
    .header('cache-control', 'no-store');
}

/**
 * OpenID4VP 1.0 endpoints outside /api (their URLs travel inside requests): the request object by
 * reference (`request_uri`, GET or POST) and the response endpoint (`direct_post` / `direct_post.jwt`).
 */
export function openid4vpRoutes(ctx: AppContext): FastifyPluginAsync {
  const deps = verifierDeps(ctx);
  // Request object and response endpoints: a stricter per-address limit (RATE_LIMIT_VERIFIER_PER_MINUTE).
  const limited = { config: { rateLimit: { max: ctx.config.rateLimits.verifier, timeWindow: '1 minute' } } };
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    corsOnRefusals(app, cors);
    // Failures of these routes are OAuth errors `{error, error_description}` (OpenID4VP 1.0 §8.5), not problem+json.
    registerOAuthErrorHandler(app, cors);
    app.get('/oid4vp/requests/:id', { ...limited, schema: { params: zParams } }, async (request, reply) =>
      cors(reply)
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
        return cors(reply).type('application/oauth-authz-req+jwt').send(jwt);
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
        return cors(reply).send({ redirect_uri: answer.redirect_uri });
      },
    );
    app.options('/oid4vp/*', async (_request, reply) => cors(reply).status(204).send());
  };
}
