import {
  zApiKey,
  zApiKeyPage,
  zCreateApiKeyRequest,
  zCreatedApiKey,
  zIdParams,
  zIntegrationWhoami,
  zPageQuery,
  zUpdateApiKeyRequest,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import {
  apiKeyOrUserSecurity,
  authenticate,
  requireOrganization,
  requireUser,
  userSecurity,
} from '../../plugins/authenticate.ts';
import { apiBaseUrl, presentApiKey, presentCreatedApiKey } from './api-keys.presenter.ts';
import * as apiKeysService from './api-keys.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

/**
 * Integration API keys (spec §7 `integrations/keys`). Only a signed-in member manages them: an API key
 * cannot list, create or delete keys (authenticate refuses Basic credentials here).
 */
export function apiKeysRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const baseUrl = apiBaseUrl(ctx.config.publicUrl);
  const userOnly = authenticate(ctx);
  const member = (request: Parameters<typeof requireUser>[0]) => {
    const { userId } = requireUser(request);
    return {
      organizationId: requireOrganization(request).organizationId,
      userId,
      actor: { kind: 'user', userId } as const,
    };
  };

  return async (app) => {
    app.get(
      '/integrations/keys',
      {
        config: { role: 'admin' }, // API keys: admins only
        preHandler: userOnly,
        schema: {
          tags: ['integrations'],
          summary: "The organization's API keys (never their secrets)",
          security: userSecurity,
          querystring: zPageQuery,
          response: { 200: zApiKeyPage },
        },
      },
      async (request) => {
        const { organizationId } = member(request);
        const { page, limit } = request.query;
        const { rows, total } = await apiKeysService.findApiKeys(db, organizationId, { page, limit });
        return { results: rows.map((row) => presentApiKey(row, baseUrl)), total, page, limit };
      },
    );

    app.post(
      '/integrations/keys',
      {
        config: { role: 'admin' }, // API keys: admins only
        preHandler: userOnly,
        schema: {
          tags: ['integrations'],
          summary: 'Create an API key',
          description: 'The answer carries `secret`: the only time it is shown. It is stored as a SHA-256 hash.',
          security: userSecurity,
          body: zCreateApiKeyRequest,
          response: { 201: zCreatedApiKey },
        },
      },
      async (request, reply) => {
        const { row, secret } = await apiKeysService.createApiKey(db, member(request), request.body);
        return reply.status(201).send(presentCreatedApiKey(row, baseUrl, secret));
      },
    );

    app.put(
      '/integrations/keys/:id',
      {
        config: { role: 'admin' }, // API keys: admins only
        preHandler: userOnly,
        schema: {
          tags: ['integrations'],
          summary: 'Rename an API key',
          security: userSecurity,
          params: zIdParams,
          body: zUpdateApiKeyRequest,
          response: { 200: zApiKey },
        },
      },
      async (request) => {
        const { organizationId, actor } = member(request);
        return presentApiKey(
          await apiKeysService.renameApiKey(db, organizationId, request.params.id, request.body, actor),
          baseUrl,
        );
      },
    );

    app.delete(
      '/integrations/keys/:id',
      {
        config: { role: 'admin' }, // API keys: admins only
        preHandler: userOnly,
        schema: {
          tags: ['integrations'],
          summary: 'Delete an API key (it stops working at once)',
          security: userSecurity,
          params: zIdParams,
          querystring: zQuery,
          response: { 204: z.null().describe('Deleted') },
        },
      },
      async (request, reply) => {
        const { organizationId, actor } = member(request);
        await apiKeysService.deleteApiKey(db, organizationId, request.params.id, actor);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/integrations/whoami',
      {
        config: { role: 'member' }, // any member or key checks what it acts for
        preHandler: authenticate(ctx, { allowApiKey: true }),
        schema: {
          tags: ['integrations'],
          summary: 'Check a credential: the organization it acts for',
          description:
            'Integrators call it to test their key: `curl -u <key>:<secret> <base_url>/integrations/whoami` answers ' +
            '`{"organization_id":"…","actor":"api_key"}`. A signed-in user gets the CurrentIdentity organization.',
          security: apiKeyOrUserSecurity,
          querystring: zQuery,
          response: { 200: zIntegrationWhoami },
        },
      },
      async (request) => {
        const { organizationId, actor } = requireOrganization(request);
        return { organization_id: organizationId, actor: actor.kind };
      },
    );
  };
}
