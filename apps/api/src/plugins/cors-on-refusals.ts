import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Response headers a cross-origin script may read on a 429 (Fetch standard: only the CORS-safelisted
 * ones are readable otherwise): when to retry, and the limit's state.
 */
const RATE_LIMIT_EXPOSED = 'retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset';

/**
 * Public endpoints set their CORS headers in their handlers, but some answers never reach a handler: the
 * rate limiter's 429 (it refuses in `onRequest`) and errors thrown to the error handler (unknown
 * organization, malformed id). Without CORS headers a wallet in a browser sees an opaque network error.
 * Registered in a routes plugin, this gives every answer of that plugin that lacks them the plugin's own
 * CORS headers, and lets the page read Retry-After on a 429.
 */
export function corsOnRefusals(app: FastifyInstance, cors: (reply: FastifyReply) => FastifyReply) {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('access-control-allow-origin')) cors(reply);
    if (reply.statusCode === 429) reply.header('access-control-expose-headers', RATE_LIMIT_EXPOSED);
    return payload;
  });
}
