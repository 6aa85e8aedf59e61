import { zUpdateUserProfileRequest, zUserProfile } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, requireUser } from '../../plugins/authenticate.ts';
import * as kybService from '../kyb/kyb.service.ts';
import { mediaUrl } from '../media/media.presenter.ts';
import { presentUserProfile } from './users.presenter.ts';
import type { UserRow } from './users.repository.ts';
import * as usersService from './users.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

export function usersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const present = (row: UserRow) =>
    presentUserProfile(row, {
      isPlatformAdmin: kybService.isPlatformAdmin(ctx.config, row),
      avatarUrl: row.avatarMediaId ? mediaUrl(ctx.config.publicUrl, row.avatarMediaId) : null,
    });
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx));
    app.get(
      '/users',
      {
        config: { role: 'user' }, // the signed-in user's own profile
        schema: { tags: ['users'], summary: 'Own profile', querystring: zQuery, response: { 200: zUserProfile } },
      },
      async (request) => present(await usersService.getUser(ctx.database.db, requireUser(request).userId)),
    );
    app.put(
      '/users',
      {
        config: { role: 'user' }, // the signed-in user's own profile
        schema: {
          tags: ['users'],
          summary: 'Update own profile',
          body: zUpdateUserProfileRequest,
          response: { 200: zUserProfile },
        },
      },
      async (request) =>
        present(await usersService.updateUserProfile(ctx.database.db, requireUser(request).userId, request.body)),
    );
  };
}
