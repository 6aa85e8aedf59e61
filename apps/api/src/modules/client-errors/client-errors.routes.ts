import { zClientErrorReport } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { CLIENT_ERROR_QUEUE } from './client-errors.worker.ts';

/**
 * Render crashes reported by the web apps. The chat webhook address stays on the server (never in a
 * bundle); delivery is a durable job so a slow or failing webhook never holds the request.
 */
export function clientErrorsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/errors',
      {
        config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
        schema: {
          tags: ['platform'],
          summary: 'Report a crash of a web app',
          body: zClientErrorReport,
          response: { 202: z.object({ accepted: z.boolean() }) },
        },
      },
      async (request, reply) => {
        request.log.warn({ report: { message: request.body.message, url: request.body.url } }, 'client crash');
        if (ctx.config.errorWebhookUrl) {
          await ctx.jobs.send(CLIENT_ERROR_QUEUE, { ...request.body, reported_at: new Date().toISOString() });
        }
        return reply.status(202).send({ accepted: true });
      },
    );
  };
}
