import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors/app-error.ts';
import { safeEqual } from '../../lib/crypto.ts';
import * as adminService from './admin.service.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const zAdminCreateUser = z.strictObject({
  email: z.email().max(320),
  password: z.string().min(1).max(256),
  username: z.string().min(1).max(60).optional(),
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
});
export const zAdminCreateOrganization = z.strictObject({
  name: z.string().trim().min(1).max(120),
  description: z.string().max(160).optional(),
  member_email: z.email().max(320),
  verified: z.boolean().optional(),
});

/**
 * The admin CLI's way in while the server holds the (single-process) embedded database: loopback only,
 * with a token the server writes into DATA_DIR at start. Hidden (404) for everyone else.
 */
export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps: adminService.AdminDeps = {
    db: ctx.database.db,
    accountCenterIssuer: ctx.config.accountCenter.enabled ? ctx.config.accountCenter.publicUrl : undefined,
  };
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
    app.post('/admin/users', { schema: { hide: true, body: zAdminCreateUser } }, async (request) =>
      adminService.createUser(deps, {
        email: request.body.email,
        password: request.body.password,
        username: request.body.username,
        firstName: request.body.first_name,
        lastName: request.body.last_name,
      }),
    );
    app.post('/admin/organizations', { schema: { hide: true, body: zAdminCreateOrganization } }, async (request) => {
      const row = await adminService.createOrganization(deps, {
        name: request.body.name,
        description: request.body.description,
        memberEmail: request.body.member_email,
        verified: request.body.verified ?? false,
      });
      return { id: row.id, name: row.name };
    });
    app.get('/admin/organizations', { schema: { hide: true } }, async () => ({
      results: await adminService.listOrganizations(deps),
    }));
  };
}
