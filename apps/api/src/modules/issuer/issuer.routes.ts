import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicCors } from '../../plugins/public-cors.ts';
import * as issuerService from './issuer.service.ts';

const zOrgParams = z.object({ id: z.uuid() });
const zOfferParams = z.object({ id: z.uuid(), offerId: z.uuid() });
const zVctParams = z.object({ id: z.uuid(), slug: z.string().min(1).max(200) });

function oauthError(reply: FastifyReply, err: unknown) {
  if (err instanceof issuerService.OAuthError) {
    if (err.status === 401) reply.header('www-authenticate', `Bearer error="${err.error}"`);
    return reply
      .status(err.status)
      .header('cache-control', 'no-store')
      .send({ error: err.error, error_description: err.description });
  }
  throw err;
}

/**
 * OpenID4VCI 1.0 issuer per organization, at the organization's issuer URL `<PUBLIC_URL>/orgs/<id>`:
 * metadata, the offer by reference, token (pre-authorized code), nonce and credential endpoints, the
 * SD-JWT VC type metadata and the Token Status List.
 */
export function issuerRoutes(ctx: AppContext): FastifyPluginAsync {
  const deps = ctx.deps.issuer;
  const params = <T extends z.ZodType>(schema: T, value: unknown): z.infer<T> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw Object.assign(new Error('Invalid path'), { statusCode: 400 });
    return parsed.data;
  };
  // Token, nonce and credential endpoints: a stricter per-address limit (RATE_LIMIT_ISSUER_PER_MINUTE).
  const limited = { config: { rateLimit: { max: ctx.config.rateLimits.issuer, timeWindow: '1 minute' } } };
  return async (app) => {
    // Wallets may run in a browser on another origin: the issuer endpoints are public and cookie-free.
    publicCors(app, { methods: ['GET', 'POST', 'OPTIONS'], allowedHeaders: ['authorization', 'content-type', 'dpop'] });
    const issuerMetadata = async (id: string, reply: FastifyReply) =>
      reply.header('cache-control', 'public, max-age=60').send(await issuerService.credentialIssuerMetadata(deps, id));
    const asMetadata = async (id: string, reply: FastifyReply) =>
      reply
        .header('cache-control', 'public, max-age=300')
        .send(await issuerService.authorizationServerMetadata(deps, id));

    // OpenID4VCI §12.2.2 inserts the well-known segment before the issuer path; some wallets append it.
    app.get('/.well-known/openid-credential-issuer/orgs/:id', async (request, reply) =>
      issuerMetadata(params(zOrgParams, request.params).id, reply),
    );
    app.get('/orgs/:id/.well-known/openid-credential-issuer', async (request, reply) =>
      issuerMetadata(params(zOrgParams, request.params).id, reply),
    );
    app.get('/.well-known/oauth-authorization-server/orgs/:id', async (request, reply) =>
      asMetadata(params(zOrgParams, request.params).id, reply),
    );
    app.get('/orgs/:id/.well-known/oauth-authorization-server', async (request, reply) =>
      asMetadata(params(zOrgParams, request.params).id, reply),
    );

    app.get('/orgs/:id/credential-offer/:offerId', async (request, reply) => {
      const { id, offerId } = params(zOfferParams, request.params);
      const offer = await issuerService.credentialOffer(deps, id, offerId);
      reply.header('cache-control', 'no-store');
      if (!offer) return reply.status(404).send({ error: 'invalid_request', error_description: 'No such open offer.' });
      return offer;
    });

    for (const path of ['/orgs/:id/token', '/orgs/:id/nonce', '/orgs/:id/credential']) {
      // Preflights: answered by @fastify/cors with this route's CORS headers.
      app.options(path, async (_request, reply) => reply.status(204).send());
    }

    app.post('/orgs/:id/token', limited, async (request, reply) => {
      const { id } = params(zOrgParams, request.params);
      try {
        const body = (request.body ?? {}) as Record<string, unknown>;
        return reply
          .header('cache-control', 'no-store')
          .send(await issuerService.exchangePreAuthorizedCode(deps, id, body));
      } catch (err) {
        return oauthError(reply, err);
      }
    });

    app.post('/orgs/:id/nonce', limited, async (request, reply) => {
      const { id } = params(zOrgParams, request.params);
      return reply.header('cache-control', 'no-store').send({ c_nonce: await issuerService.issueNonce(deps, id) });
    });

    app.post('/orgs/:id/credential', limited, async (request, reply) => {
      const { id } = params(zOrgParams, request.params);
      try {
        const answer = await issuerService.requestCredential(deps, id, request.headers.authorization, request.body);
        return reply.header('cache-control', 'no-store').send(answer);
      } catch (err) {
        return oauthError(reply, err);
      }
    });

    app.get('/orgs/:id/vct/:slug', async (request, reply) => {
      const { id, slug } = params(zVctParams, request.params);
      const metadata = await issuerService.typeMetadata(deps, id, slug);
      reply.header('cache-control', 'public, max-age=300');
      if (!metadata) return reply.status(404).send({ error: 'not_found' });
      return metadata;
    });

    // The platform schemas' shared types (KYC, certificates): one `vct` whoever issues them.
    app.get('/vct/:slug', async (request, reply) => {
      const { slug } = params(z.object({ slug: z.string().min(1).max(200) }), request.params);
      const metadata = await issuerService.typeMetadata(deps, null, slug);
      reply.header('cache-control', 'public, max-age=300');
      if (!metadata) return reply.status(404).send({ error: 'not_found' });
      return metadata;
    });

    app.get('/orgs/:id/status-list', async (request, reply) => {
      const { id } = params(zOrgParams, request.params);
      const token = await issuerService.statusListToken(deps, id);
      // Checked against the list's revision on every request: a revocation is visible at once (the
      // token's `ttl` still tells relying parties how long they may cache it).
      return reply.header('cache-control', 'no-cache').type('application/statuslist+jwt').send(token);
    });
  };
}
