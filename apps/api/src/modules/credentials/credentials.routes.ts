import {
  pageOf,
  zCreateCredentialWithRecipientRequest,
  zCreatedCredential,
  zCredential,
  zCredentialConnect,
  zCredentialIdsRequest,
  zCredentialListQuery,
  zIdParams,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import { webhookDeps } from '../webhooks/webhooks.service.ts';
import { credentialImportsRoutes } from './credential-imports.routes.ts';
import { presentCredential } from './credentials.presenter.ts';
import * as credentialsService from './credentials.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

export function credentialDeps(ctx: AppContext): credentialsService.CredentialDeps {
  return {
    db: ctx.database.db,
    publicUrl: ctx.config.publicUrl,
    statusListSize: ctx.config.credentialEngine.statusListSize,
    offerTtlDays: ctx.config.credentialEngine.offerTtlDays,
    offerCodeKey: ctx.secrets.offerCodeKey,
    webhooks: webhookDeps(ctx),
  };
}

export function credentialsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = credentialDeps(ctx);
  const db = ctx.database.db;
  const organizationOf = async (id: string) => {
    const row = await organizationsService.getPublicOrganization(db, id);
    return { id: row.id, name: row.name };
  };
  return async (app) => {
    // The public holder page: no sign-in, the credential id is the unguessable link.
    app.get(
      '/credentials/:id/connect',
      {
        // The public holder page: a stricter per-address limit (RATE_LIMIT_HOLDER_PER_MINUTE).
        config: { rateLimit: { max: ctx.config.rateLimits.holder, timeWindow: '1 minute' } },
        schema: {
          tags: ['credentials'],
          summary: 'Holder page data: the OpenID4VCI offer link (public)',
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zCredentialConnect },
        },
      },
      async (request) => {
        const { credential, offer, offerExpiresAt } = await credentialsService.getCredentialForConnect(
          deps,
          request.params.id,
        );
        const organization = await organizationsService.getPublicOrganization(db, credential.organizationId);
        return {
          id: credential.id,
          status: credentialsService.effectiveStatus(credential, offerExpiresAt),
          credential_name: credential.name,
          recipient: { first_name: credential.recipientFirstName, last_name: credential.recipientLastName },
          issuer: { name: organization.name, logo_url: null, verified: organization.verifiedAt !== null },
          connection_url: offer ? credentialsService.connectionUrl(deps, offer) : null,
          expires_at: offer ? offer.expiresAt.toISOString() : (offerExpiresAt?.toISOString() ?? null),
          tx_code_required: Boolean(offer?.txCodeHash),
        };
      },
    );

    await app.register(credentialImportsRoutes(ctx));

    await app.register(async (plugin) => {
      const scoped = plugin.withTypeProvider<ZodTypeProvider>();
      scoped.addHook('preHandler', authenticate(ctx, { allowApiKey: true }));
      scoped.post(
        '/credentials/with-recipient',
        {
          schema: {
            tags: ['credentials'],
            summary: 'Create a credential for one recipient',
            security: apiKeyOrUserSecurity,
            body: zCreateCredentialWithRecipientRequest,
            response: { 201: zCreatedCredential },
          },
        },
        async (request, reply) => {
          const scope = requireOrganization(request);
          const { credential, txCode, offerExpiresAt } = await credentialsService.createCredentialWithRecipient(
            deps,
            scope,
            request.body,
          );
          const presented = presentCredential(credential, {
            offerExpiresAt,
            organization: await organizationOf(scope.organizationId),
            publicUrl: ctx.config.publicUrl,
          });
          return reply.status(201).send({ ...presented, ...(txCode ? { tx_code: txCode } : {}) });
        },
      );
      scoped.get(
        '/credentials',
        {
          schema: {
            tags: ['credentials'],
            summary:
              'Issued credentials, newest first (filters: filter.status, filter.schema_id, filter.search, filter.import_id)',
            security: apiKeyOrUserSecurity,
            querystring: zCredentialListQuery,
            response: { 200: pageOf(zCredential) },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          const organization = await organizationOf(organizationId);
          const page = await credentialsService.findCredentials(deps, organizationId, request.query);
          return {
            results: page.rows.map((r) =>
              presentCredential(r.credential, {
                offerExpiresAt: r.offerExpiresAt ? new Date(r.offerExpiresAt) : null,
                organization,
                publicUrl: ctx.config.publicUrl,
              }),
            ),
            total: page.total,
            page: page.page,
            limit: page.limit,
          };
        },
      );
      scoped.get(
        '/credentials/:id',
        {
          schema: {
            tags: ['credentials'],
            summary: 'One credential',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zQuery,
            response: { 200: zCredential },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          const { credential, offerExpiresAt } = await credentialsService.getCredential(
            deps,
            organizationId,
            request.params.id,
          );
          return presentCredential(credential, {
            offerExpiresAt,
            organization: await organizationOf(organizationId),
            publicUrl: ctx.config.publicUrl,
          });
        },
      );
      scoped.patch(
        '/credentials/revoke',
        {
          schema: {
            tags: ['credentials'],
            summary: 'Revoke credentials (their status-list bit becomes 1 at once)',
            security: apiKeyOrUserSecurity,
            body: zCredentialIdsRequest,
            response: { 200: z.object({ revoked: z.array(z.uuid()) }) },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          return {
            revoked: await credentialsService.revokeCredentials(deps, organizationId, request.body.credentials),
          };
        },
      );
      scoped.post(
        '/credentials/delete',
        {
          schema: {
            tags: ['credentials'],
            summary: 'Delete credentials (issued ones are revoked first)',
            security: apiKeyOrUserSecurity,
            body: zCredentialIdsRequest,
            response: { 200: z.object({ deleted: z.array(z.uuid()) }) },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          return {
            deleted: await credentialsService.deleteCredentials(deps, organizationId, request.body.credentials),
          };
        },
      );
      scoped.delete(
        '/credentials/:id',
        {
          schema: {
            tags: ['credentials'],
            summary: 'Delete one credential (revoked first when issued)',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zQuery,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          const { organizationId } = requireOrganization(request);
          await credentialsService.deleteCredentials(deps, organizationId, [request.params.id]);
          return reply.status(204).send(null);
        },
      );
    });
  };
}
