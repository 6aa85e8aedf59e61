import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { rateLimit: false },
        schema: {
          tags: ['platform'],
          summary: 'Liveness and database reachability',
          response: {
            200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgresql']) }),
            503: z.object({ status: z.literal('error'), database: z.enum(['pglite', 'postgresql']) }),
          },
        },
      },
      async (_request, reply) => {
        try {
          await ctx.database.db.execute(sql`select 1`);
          return { status: 'ok' as const, database: ctx.database.kind };
        } catch (err) {
          ctx.logger.error({ err }, 'health check: database unreachable');
          return reply.status(503).send({ status: 'error' as const, database: ctx.database.kind });
        }
      },
    );
  };
}
