import { isDatabaseUnavailable, migrationsApplied } from '@cp/db';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { problemBody } from '../../errors/app-error.ts';

/** Readiness answers within this time even when the database does not (a load balancer's probe waits less). */
export const READINESS_TIMEOUT_MS = 2000;

export type Readiness =
  | { ready: true; database: 'pglite' | 'postgresql' }
  | { ready: false; code: 'DATABASE_UNAVAILABLE' | 'MIGRATIONS_PENDING'; detail: string };

/** Database reachable (a `select 1` within the time limit) and every migration of this build applied. */
export async function checkReadiness(ctx: Pick<AppContext, 'database'>): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READINESS_TIMEOUT_MS);
  });
  try {
    const check = (async () => {
      await ctx.database.db.execute(sql`select 1`);
      return (await migrationsApplied(ctx.database)) ? ('ok' as const) : ('pending' as const);
    })();
    check.catch(() => undefined); // a late failure after the timeout is not unhandled
    const outcome = await Promise.race([check, timeout]);
    if (outcome === 'timeout') {
      return { ready: false, code: 'DATABASE_UNAVAILABLE', detail: 'The database did not answer in time.' };
    }
    if (outcome === 'pending') {
      return { ready: false, code: 'MIGRATIONS_PENDING', detail: 'Database migrations are not applied yet.' };
    }
    return { ready: true, database: ctx.database.kind };
  } catch (err) {
    return {
      ready: false,
      code: 'DATABASE_UNAVAILABLE',
      detail: isDatabaseUnavailable(err) ? 'The database is unreachable.' : 'The database check failed.',
    };
  } finally {
    clearTimeout(timer);
  }
}

const zProblem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  code: z.string(),
  detail: z.string().optional(),
});

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

    app.get(
      '/health/ready',
      {
        config: { rateLimit: false },
        schema: {
          tags: ['platform'],
          summary: 'Readiness: database reachable (short time limit) and migrations applied; 503 otherwise',
          response: {
            200: z.object({
              status: z.literal('ready'),
              database: z.enum(['pglite', 'postgresql']),
              role: z.enum(['all', 'api', 'worker']),
            }),
            503: zProblem,
          },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        const readiness = await checkReadiness(ctx);
        if (readiness.ready) {
          return { status: 'ready' as const, database: readiness.database, role: ctx.config.processRole };
        }
        return reply
          .status(503)
          .header('retry-after', '5')
          .type('application/problem+json')
          .send(problemBody(readiness.code, readiness.detail));
      },
    );
  };
}
