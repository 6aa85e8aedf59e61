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
import { presentMedia } from '../media/media.presenter.ts';
import * as mediaService from '../media/media.service.ts';
import { presentOrganization } from './organizations.presenter.ts';
import type { OrganizationRow } from './organizations.repository.ts';
import * as organizationsService from './organizations.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

export function organizationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  /** Organizations with their logos (one media query for the whole list). */
  const present = async (rows: OrganizationRow[]) => {
    const logoIds = rows.flatMap((r) => (r.logoMediaId ? [r.logoMediaId] : []));
    const logos = new Map(
      (await mediaService.findMediaByIds(db, logoIds)).map((m) => [m.id, presentMedia(m, ctx.config.publicUrl)]),
    );
    return rows.map((r) =>
      presentOrganization(r, (r.logoMediaId && logos.get(r.logoMediaId)) || null, ctx.config.publicUrl),
    );
  };
  const presentOne = async (row: OrganizationRow) => (await present([row]))[0]!;
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
        results: await present(await organizationsService.findOrganizationsForUser(db, requireUser(request).userId)),
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
        return reply.status(201).send(await presentOne(row));
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
        presentOne(
          await organizationsService.getOrganization(db, {
            organizationId: request.params.id,
            ...requireUser(request),
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
        presentOne(
          await organizationsService.updateOrganization(
            db,
            { organizationId: request.params.id, ...requireUser(request) },
            request.body,
          ),
        ),
    );
  };
}
