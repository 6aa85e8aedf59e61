import {
  type MemberRole,
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
  /** Organizations with their logos (one media query for the whole list) and the user's role in each. */
  const present = async (rows: { organization: OrganizationRow; role: MemberRole }[]) => {
    const logoIds = rows.flatMap((r) => (r.organization.logoMediaId ? [r.organization.logoMediaId] : []));
    const logos = new Map(
      (await mediaService.findMediaByIds(db, logoIds)).map((m) => [m.id, presentMedia(m, ctx.config.publicUrl)]),
    );
    return rows.map(({ organization, role }) =>
      presentOrganization(
        organization,
        (organization.logoMediaId && logos.get(organization.logoMediaId)) || null,
        ctx.config.publicUrl,
        role,
      ),
    );
  };
  const presentOne = async (organization: OrganizationRow, role: MemberRole) =>
    (await present([{ organization, role }]))[0]!;
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx));
    app.get(
      '/organizations',
      {
        config: { role: 'user' }, // the signed-in user's own list, with their role in each
        schema: {
          tags: ['organizations'],
          summary: "Organizations the user belongs to, with the user's role in each",
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
        config: { role: 'user' }, // anyone signed in may create one (and becomes its admin)
        schema: {
          tags: ['organizations'],
          summary: 'Create an organization (for providers without organizations)',
          body: zCreateOrganizationRequest,
          response: { 201: zOrganization },
        },
      },
      async (request, reply) => {
        const row = await organizationsService.createOrganization(db, requireUser(request).userId, request.body);
        return reply.status(201).send(await presentOne(row, 'admin'));
      },
    );
    app.get(
      '/organizations/:id',
      {
        config: { role: 'member', organizationParam: 'id' }, // every member reads the profile
        schema: {
          tags: ['organizations'],
          summary: 'Organization profile',
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zOrganization },
        },
      },
      async (request) => {
        const { organization, role } = await organizationsService.getOrganizationForMember(db, {
          organizationId: request.params.id,
          ...requireUser(request),
        });
        return presentOne(organization, role);
      },
    );
    app.put(
      '/organizations/:id',
      {
        config: { role: 'admin', organizationParam: 'id' }, // the profile (name, description, logo): admins
        schema: {
          tags: ['organizations'],
          summary: 'Update the organization profile (admins)',
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
          'admin',
        ),
    );
  };
}
