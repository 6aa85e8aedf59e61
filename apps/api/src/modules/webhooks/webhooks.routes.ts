import {
  zCreatedWebhook,
  zCreateWebhookRequest,
  zIdParams,
  zPageQuery,
  zUpdateWebhookRequest,
  zWebhook,
  zWebhookDelivery,
  zWebhookDeliveryPage,
  zWebhookPage,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import { presentCreatedWebhook, presentWebhook, presentWebhookDelivery } from './webhooks.presenter.ts';
import * as webhooksService from './webhooks.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

const signingDescription =
  'Each delivery is a JSON `POST` of `{id, type, created_at, organization_id, data}` signed as Standard Webhooks: ' +
  'headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (unix seconds) and ' +
  '`webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed by the ' +
  'base64-decoded part of the secret after `whsec_`. Answer 2xx within 10 s; anything else is retried with ' +
  'backoff (10 s, 30 s, 2 min, 10 min, 1 h, 6 h) and then marked FAILED. Redirects are not followed. ' +
  'In production the endpoint must be on a public address: a loopback, private or link-local IP (or localhost) ' +
  'is refused with 400 REQUEST_INVALID, and a host name that resolves to one fails the delivery.';

/**
 * Webhook endpoints of an organization (integrations): a signed-in member or an API key of the organization.
 * Every query is scoped by the organization; another organization's endpoint answers 404.
 */
export function webhooksRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const deps = ctx.deps.webhooks;
  const preHandler = authenticate(ctx, { allowApiKey: true });

  return async (app) => {
    app.get(
      '/webhooks',
      {
        config: { role: 'admin' }, // webhooks: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['webhooks'],
          summary: "The organization's webhook endpoints (never their secrets)",
          security: apiKeyOrUserSecurity,
          querystring: zPageQuery,
          response: { 200: zWebhookPage },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        const { page, limit } = request.query;
        const { rows, total } = await webhooksService.findWebhooks(db, organizationId, { page, limit });
        return { results: rows.map(presentWebhook), total, page, limit };
      },
    );

    app.post(
      '/webhooks',
      {
        config: { role: 'admin' }, // webhooks: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['webhooks'],
          summary: 'Create a webhook endpoint',
          description:
            'The answer carries `secret` (`whsec_…`): the only time it is shown. It is stored encrypted. ' +
            `At most 10 endpoints per organization (409 WEBHOOK_LIMIT_REACHED). ${signingDescription}`,
          security: apiKeyOrUserSecurity,
          body: zCreateWebhookRequest,
          response: { 201: zCreatedWebhook },
        },
      },
      async (request, reply) => {
        const { row, secret } = await webhooksService.createWebhook(
          ctx.deps.webhookEndpoints,
          requireOrganization(request),
          request.body,
        );
        return reply.status(201).send(presentCreatedWebhook(row, secret));
      },
    );

    app.patch(
      '/webhooks/:id',
      {
        config: { role: 'admin' }, // webhooks: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['webhooks'],
          summary: 'Change a webhook endpoint (URL, description, events, enabled)',
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          body: zUpdateWebhookRequest,
          response: { 200: zWebhook },
        },
      },
      async (request) => {
        const { organizationId, actor } = requireOrganization(request);
        return presentWebhook(
          await webhooksService.updateWebhook(
            ctx.deps.webhookEndpoints,
            organizationId,
            request.params.id,
            request.body,
            actor,
          ),
        );
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        config: { role: 'admin' }, // webhooks: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['webhooks'],
          summary: 'Delete a webhook endpoint (its pending deliveries stop)',
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          querystring: zQuery,
          response: { 204: z.null().describe('Deleted') },
        },
      },
      async (request, reply) => {
        const { organizationId, actor } = requireOrganization(request);
        await webhooksService.deleteWebhook(db, organizationId, request.params.id, actor);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config: { role: 'admin' }, // webhooks: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['webhooks'],
          summary: "An endpoint's deliveries, newest first",
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          querystring: zPageQuery,
          response: { 200: zWebhookDeliveryPage },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        const { page, limit } = request.query;
        const { rows, total } = await webhooksService.findDeliveries(db, organizationId, request.params.id, {
          page,
          limit,
        });
        return { results: rows.map(presentWebhookDelivery), total, page, limit };
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        config: { role: 'admin' }, // webhooks: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['webhooks'],
          summary: 'Send a test event to the endpoint',
          description:
            'Queues one `verification.completed` delivery with sample data flagged `test: true`, to this endpoint ' +
            'only. A disabled endpoint answers 409 WEBHOOK_DISABLED.',
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          response: { 202: zWebhookDelivery },
        },
      },
      async (request, reply) => {
        const { organizationId } = requireOrganization(request);
        const delivery = await webhooksService.sendTestEvent(deps, organizationId, request.params.id);
        return reply.status(202).send(presentWebhookDelivery(delivery));
      },
    );
  };
}
