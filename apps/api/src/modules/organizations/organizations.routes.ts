import {
  zCreateOrganizationRequest,
  zIdParams,
  zOrganization,
  zOrganizationList,
  zUpdateOrganizationRequest,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, requireUser } from '../../plugins/authenticate.ts';
import { presentOrganization } from './organizations.presenter.ts';
import * as organizationsService from './organizations.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

export function organizationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx));
    app.get(
      '/organizations',
      {
        schema: {
          tags: ['organizations'],
          summary: 'Organizations the user belongs to',
          querystring: zQuery,
          response: { 200: zOrganizationList },
        },
      },
      async (request) => ({
        results: (await organizationsService.findOrganizationsForUser(db, requireUser(request).userId)).map(
          presentOrganization,
        ),
      }),
    );
    app.post(
      '/organizations',
      {
        schema: {
          tags: ['organizations'],
          summary: 'Create an organization (for providers without organizations)',
          body: zCreateOrganizationRequest,
          response: { 201: zOrganization },
        },
      },
      async (request, reply) => {
        const row = await organizationsService.createOrganization(db, requireUser(request).userId, request.body);
        return reply.status(201).send(presentOrganization(row));
      },
    );
    app.get(
      '/organizations/:id',
      {
        schema: {
          tags: ['organizations'],
          summary: 'Organization profile',
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zOrganization },
        },
      },
      async (request) =>
        presentOrganization(
          await organizationsService.getOrganization(db, {
            organizationId: request.params.id,
            userId: requireUser(request).userId,
          }),
        ),
    );
    app.put(
      '/organizations/:id',
      {
        schema: {
          tags: ['organizations'],
          summary: 'Update the organization profile',
          params: zIdParams,
          body: zUpdateOrganizationRequest,
          response: { 200: zOrganization },
        },
      },
      async (request) =>
        presentOrganization(
          await organizationsService.updateOrganization(
            db,
            { organizationId: request.params.id, userId: requireUser(request).userId },
            request.body,
          ),
        ),
    );
  };
}
