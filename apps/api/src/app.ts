import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { setGlobalConfig } from '@openid4vc/oauth2';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { AppContext } from './context.ts';
import { AppError, problemBody } from './errors/app-error.ts';
import { fastifyRateLimitStore } from './lib/rate-limit-store.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { auditEventsRoutes } from './modules/audit-events/audit-events.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { clientErrorsRoutes } from './modules/client-errors/client-errors.routes.ts';
import { credentialSchemasRoutes } from './modules/credential-schemas/credential-schemas.routes.ts';
import { credentialsRoutes } from './modules/credentials/credentials.routes.ts';
import { registerDevMailbox } from './modules/dev-mailbox/dev-mailbox.routes.ts';
import { configRoutes } from './modules/health/config.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { issuerRoutes } from './modules/issuer/issuer.routes.ts';
import { issuerPolicyRoutes } from './modules/issuer-policy/issuer-policy.routes.ts';
import { kybRoutes } from './modules/kyb/kyb.routes.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { invitationsRoutes } from './modules/members/invitations.routes.ts';
import { membersRoutes } from './modules/members/members.routes.ts';
import { organizationKeysRoutes } from './modules/organization-keys/organization-keys.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { trustAnchorsRoutes } from './modules/trust-anchors/trust-anchors.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { openid4vpRoutes } from './modules/verifications/openid4vp.routes.ts';
import { verificationsRoutes } from './modules/verifications/verifications.routes.ts';
import { walletProvidersRoutes } from './modules/wallet-providers/wallet-providers.routes.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';

/** One registered route, as the route table of `routeTable` keeps it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
  /** The route's `config` (its declared `role`, see plugins/authenticate.ts). */
  config: Record<string, unknown> | undefined;
}

const routeTables = new WeakMap<object, RegisteredRoute[]>();

/** Every route an app registered (the security tests walk it so that no new route goes unchecked). */
export function routeTable(app: FastifyInstance): readonly RegisteredRoute[] {
  return routeTables.get(app) ?? [];
}

/** Everything that is not one of the console's static files. */
const LIMITED_PREFIXES = ['/api/', '/oid4vp/', '/orgs/', '/.well-known/', '/vct/', '/dev/'];

/** Whether a parsed request part holds a NUL character anywhere (walked without recursion: any depth is fine). */
function containsNul(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, nested] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        stack.push(nested);
      }
    }
  }
  return false;
}

/** Builds the HTTP application (API under /api, the console's files at /). Tests call this directly. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  // @openid4vc refuses http:// URLs in protocol documents and proofs (`aud`, endpoints) unless told otherwise;
  // a platform served over plain http (development, tests) has http URLs of its own.
  setGlobalConfig({ allowInsecureUrls: !ctx.config.publicUrl.startsWith('https:') });
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: ctx.config.trustProxy,
    // Ids that are not uuids, odd query strings and the like are validation errors, never crashes.
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  const routes: RegisteredRoute[] = [];
  routeTables.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        schema: route.schema as Record<string, unknown> | undefined,
        config: route.config as Record<string, unknown> | undefined,
      });
    }
  });
  // PostgreSQL text cannot hold NUL characters: refuse them as a bad request instead of failing in the database.
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      throw new AppError('REQUEST_INVALID', { detail: 'Text must not contain NUL characters.' });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('actor', null);
  app.decorateRequest('organizationId', null);
  app.decorateRequest('organizationRole', null);
  const hasConsole = existsSync(path.join(ctx.config.consoleDist, 'index.html'));
  registerErrorHandler(app, { spaFallback: hasConsole });

  // Helmet's headers, its middleware built once: @fastify/helmet builds it again for every request (it parses
  // the CSP each time, ≈ 1 % of a presentation's CPU). No route has helmet options of its own or uses reply.helmet.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        // MUI (emotion) injects style elements at runtime.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Holder pages (/connect/*) carry link secrets in their URLs: never send them on as a referrer.
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only when the platform is served over https (a plain-http deployment must stay reachable).
    strictTransportSecurity: ctx.config.publicUrl.startsWith('https:')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined));
  });
  // CORS off (the console and its API are same-origin); the public wallet-facing routes turn it on for
  // themselves (plugins/public-cors.ts). Registered before the rate limiter so that its 429s carry the headers.
  await app.register(cors, { origin: false });
  await app.register(rateLimit, {
    max: ctx.config.rateLimitPerMinute,
    timeWindow: '1 minute',
    // REDIS_URL set: counted in Redis, shared by every API process (the store falls back to this process's
    // memory while Redis is unreachable, so an outage neither refuses every request nor lifts the limits).
    // Unset: the plugin's own in-memory store.
    ...(ctx.rateLimitStore.kind === 'redis' ? { store: fastifyRateLimitStore(ctx.rateLimitStore) } : {}),
    // The console's own files (HTML and hashed chunks) are cheap and cached: a page load fetches dozens,
    // so they do not count against the per-address limit meant for the API and protocol endpoints.
    allowList: (request) =>
      (request.method === 'GET' || request.method === 'HEAD') &&
      !LIMITED_PREFIXES.some((p) => request.url.startsWith(p)),
    errorResponseBuilder: (_request, context) => ({
      ...problemBody('RATE_LIMITED', `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s.`),
      statusCode: 429,
    }),
  });
  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Credential Platform API', version: '0.1.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          currentIdentity: { type: 'apiKey', in: 'header', name: 'CurrentIdentity' },
          apiKey: {
            type: 'http',
            scheme: 'basic',
            description:
              "An organization's integration API key: HTTP Basic with the key id as user name and the secret as " +
              'password. The key acts for its own organization (no CurrentIdentity needed). Example: ' +
              '`curl -u ck_xxxxxxxxxxxxxxxxxxxxxxxx:cs_yourSecret https://platform.example/api/integrations/whoami`. ' +
              'Create keys in the console (Integrations). Each key has its own per-minute rate limit (429 when exceeded).',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      await api.register(healthRoutes(ctx));
      await api.register(configRoutes(ctx));
      await api.register(authRoutes(ctx));
      await api.register(usersRoutes(ctx));
      await api.register(organizationsRoutes(ctx));
      await api.register(issuerPolicyRoutes(ctx));
      await api.register(membersRoutes(ctx));
      await api.register(invitationsRoutes(ctx));
      await api.register(clientErrorsRoutes(ctx));
      await api.register(adminRoutes(ctx));
      await api.register(credentialSchemasRoutes(ctx));
      await api.register(credentialsRoutes(ctx));
      await api.register(mediaRoutes(ctx));
      await api.register(kybRoutes(ctx));
      await api.register(apiKeysRoutes(ctx));
      await api.register(verificationsRoutes(ctx));
      await api.register(trustAnchorsRoutes(ctx));
      await api.register(walletProvidersRoutes(ctx));
      await api.register(webhooksRoutes(ctx));
      await api.register(auditEventsRoutes(ctx));
    },
    { prefix: '/api' },
  );

  // Issuer-facing public documents live outside /api: their URLs are fixed by the standards.
  await app.register(organizationKeysRoutes(ctx));
  await app.register(issuerRoutes(ctx));
  await app.register(openid4vpRoutes(ctx));
  if (ctx.mailbox) registerDevMailbox(app, ctx.mailbox);
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: ctx.config.consoleDist,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz next to each file (scripts/compress-dist.mjs).
      preCompressed: true,
    });
  }
  return app;
}
