import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Logger } from './lib/logger.ts';

/** Serves a built single-page app (the wallet) on its own port, index.html for client routes. */
export async function startStaticSite(dist: string, port: number, host: string, logger: Logger) {
  const app = Fastify({
    loggerInstance: logger.child({ app: 'wallet' }) as FastifyBaseLogger,
    disableRequestLogging: true,
  });
  if (existsSync(path.join(dist, 'index.html'))) {
    await app.register(fastifyStatic, { root: dist, wildcard: false });
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
