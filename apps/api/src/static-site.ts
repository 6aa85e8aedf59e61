import { existsSync } from 'node:fs';
import path from 'node:path';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Logger } from './lib/logger.ts';

/**
 * The wallet's security headers: its own scripts and styles only, but it talks to any issuer and verifier
 * (connect-src https/http), shows their logos (img-src), is never framed and never sends a referrer.
 */
const walletHelmet = (hsts: boolean): FastifyHelmetOptions => ({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // MUI (emotion) injects style elements at runtime.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
      connectSrc: ["'self'", 'https:', 'http:'],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      mediaSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
});

/**
 * Serves a built single-page app (the wallet) on its own port, index.html for client routes. `hsts`: the
 * wallet's public URL is https. `platformUrl`: the platform that serves the wallet (PUBLIC_URL), answered
 * at `/config.json` — public, so the wallet can fetch the platform's CA and trust anchors from it.
 */
export async function startStaticSite(
  dist: string,
  port: number,
  host: string,
  logger: Logger,
  options: { hsts?: boolean; platformUrl?: string } = {},
) {
  const app = Fastify({
    loggerInstance: logger.child({ app: 'wallet' }) as FastifyBaseLogger,
    disableRequestLogging: true,
  });
  await app.register(helmet, walletHelmet(options.hsts ?? false));
  if (options.platformUrl) {
    const config = JSON.stringify({ platform_url: options.platformUrl });
    app.get('/config.json', async (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('application/json').send(config),
    );
  }
  if (existsSync(path.join(dist, 'index.html'))) {
    await app.register(fastifyStatic, { root: dist, wildcard: false, preCompressed: true });
    app.setNotFoundHandler((request, reply) =>
      request.method === 'GET' && !path.extname(request.url.split('?')[0] ?? '')
        ? reply.sendFile('index.html')
        : reply.status(404).send({ status: 404, code: 'NOT_FOUND' }),
    );
  } else {
    app.get('/', async (_request, reply) => reply.type('text/plain').send('The wallet has not been built yet.'));
  }
  await app.listen({ port, host });
  return app;
}
