import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

export function kybRoutes(_ctx: AppContext): FastifyPluginAsyncZod {
  return async () => {};
}
