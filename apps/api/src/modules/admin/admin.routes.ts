import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminCommands } from '../../cli/commands/index.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors/app-error.ts';
import { safeEqual } from '../../lib/crypto.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const zRunCommand = z.strictObject({
  command: z.string().max(60),
  args: z.record(z.string(), z.union([z.string().max(10_000), z.boolean()])),
});

/**
 * The admin CLI's way in while the server holds the (single-process) embedded database: loopback only,
 * with a token the server writes into DATA_DIR at start. Hidden (404) for everyone else.
 */
export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      const token = request.headers['x-admin-token'];
      const allowed =
        ctx.adminToken !== undefined &&
        LOOPBACK.has(request.socket.remoteAddress ?? '') &&
        typeof token === 'string' &&
        safeEqual(token, ctx.adminToken);
      if (!allowed) throw new AppError('NOT_FOUND');
    });
    app.post('/admin/run', { schema: { hide: true, body: zRunCommand } }, async (request) => {
      const command = adminCommands[request.body.command];
      if (!command) throw new AppError('REQUEST_INVALID', { detail: `Unknown command ${request.body.command}` });
      const output = await command.run(
        { db: ctx.database.db, config: ctx.config, secretBox: ctx.secretBox, jobs: ctx.jobs },
        request.body.args,
      );
      return { output };
    });
  };
}
