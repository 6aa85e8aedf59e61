import { readFileSync } from 'node:fs';
import { pemCertificates } from '@cp/credentials';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { httpFetcher, type ResourceFetcher } from '../../lib/resource-fetcher.ts';
import { corsOnRefusals } from '../../plugins/cors-on-refusals.ts';
import { credentialDeps } from '../credentials/credentials.routes.ts';
import * as issuerService from '../issuer/issuer.service.ts';
import * as keysService from '../organization-keys/organization-keys.service.ts';
import { webhookDeps } from '../webhooks/webhooks.service.ts';
import * as openid4vp from './openid4vp.service.ts';
import { platformAnchors, verifierTrust } from './verifier-trust.ts';

const zParams = z.object({ id: z.uuid() });
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

function verifierError(reply: FastifyReply, err: unknown) {
  if (err instanceof openid4vp.VerifierError) {
    return cors(reply).status(err.status).send({ error: err.error, error_description: err.description });
  }
  throw err;
}

/**
 * OpenID4VP 1.0 endpoints outside /api (their URLs travel inside requests): the request object by
 * reference (`request_uri`, GET or POST) and the response endpoint (`direct_post` / `direct_post.jwt`).
 */
export function openid4vpRoutes(ctx: AppContext): FastifyPluginAsync {
  const deps = verifierDeps(ctx);
  const id = (params: unknown) => {
    const parsed = zParams.safeParse(params);
    if (!parsed.success) throw new openid4vp.VerifierError('invalid_request', 'Malformed request id.', 404);
    return parsed.data.id;
  };
  // Request object and response endpoints: a stricter per-address limit (RATE_LIMIT_VERIFIER_PER_MINUTE).
  const limited = { config: { rateLimit: { max: ctx.config.rateLimits.verifier, timeWindow: '1 minute' } } };
  return async (app) => {
    corsOnRefusals(app, cors);
    const serveRequest = async (params: unknown, reply: FastifyReply) => {
      try {
        const jwt = await openid4vp.requestObject(deps, id(params));
        return cors(reply).type('application/oauth-authz-req+jwt').send(jwt);
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
        return cors(reply).send({ redirect_uri: answer.redirect_uri });
      } catch (err) {
        return verifierError(reply, err);
      }
    });
    app.options('/oid4vp/*', async (_request, reply) => cors(reply).status(204).send());
  };
}
