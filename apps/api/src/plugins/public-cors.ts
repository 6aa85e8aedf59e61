import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's own CORS options (read by @fastify/cors over the ones it was registered with). */
    cors?: FastifyCorsOptions;
  }
}

/**
 * Response headers a cross-origin script may read (Fetch standard: only the CORS-safelisted ones are readable
 * otherwise): when to retry after a 429, and the limit's state.
 */
const RATE_LIMIT_EXPOSED = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * CORS for the public, cookie-free endpoints that wallets and verifiers in browsers on other origins call
 * (issuer, verifier, published keys). @fastify/cors is registered once in app.ts with CORS off (the console
 * is same-origin); this turns it on for every route of the calling routes plugin. Its hook runs in
 * `onRequest`, before the rate limiter's and before any handler, so 429s and errors thrown past a handler
 * (unknown organization, malformed id) carry the headers too: without them a wallet in a browser sees an
 * opaque network error. Preflights are answered by the plugin (204, no Origin required, as before).
 */
export function publicCors(
  app: FastifyInstance,
  options: Pick<FastifyCorsOptions, 'methods' | 'allowedHeaders'> & { exposedHeaders?: string[] } = {
    methods: ['GET'],
  },
) {
  const cors: FastifyCorsOptions = {
    origin: '*',
    credentials: false,
    maxAge: 600,
    strictPreflight: false,
    ...options,
    exposedHeaders: [...RATE_LIMIT_EXPOSED, ...(options.exposedHeaders ?? [])],
  };
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, cors };
  });
}
