import {
  pageOf,
  zCreateCredentialWithRecipientRequest,
  zCreatedCredential,
  zCredential,
  zCredentialConnect,
  zCredentialDelivery,
  zCredentialDeliveryList,
  zCredentialExportQuery,
  zCredentialIdsRequest,
  zCredentialListQuery,
  zIdParams,
  zResendCredentialRequest,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors/app-error.ts';
import { sendCsv } from '../../lib/csv-download.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import { presentHolderOrganization } from '../organizations/organizations.presenter.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import { presentCredentialDelivery } from './credential-deliveries.presenter.ts';
import * as deliveriesService from './credential-deliveries.service.ts';
import { credentialImportsRoutes } from './credential-imports.routes.ts';
import { credentialMailLocaleFromAcceptLanguage } from './credential-mail.ts';
import { presentCredential } from './credentials.presenter.ts';
import * as credentialsService from './credentials.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

export function credentialsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps.credentials;
  const resendDeps = ctx.deps.resend;
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
        const { credential, offer, offerExpiresAt, brand } = await credentialsService.getCredentialForConnect(
          deps,
          request.params.id,
        );
        return {
          id: credential.id,
          status: credentialsService.effectiveStatus(credential, offerExpiresAt),
          credential_name: credential.name,
          recipient: { first_name: credential.recipientFirstName, last_name: credential.recipientLastName },
          issuer: presentHolderOrganization(organizationsService.holderBrand(brand), ctx.config.publicUrl),
          claim_labels: credentialsService.claimLabelsOf(credential),
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
          config: { role: 'member' }, // issuing: every member (and API keys)
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
          const { credential, txCode, offerExpiresAt, organization } =
            await credentialsService.createCredentialWithRecipient(deps, scope, request.body);
          const presented = presentCredential(credential, {
            offerExpiresAt,
            organization,
            publicUrl: ctx.config.publicUrl,
          });
          return reply.status(201).send({ ...presented, ...(txCode ? { tx_code: txCode } : {}) });
        },
      );
      scoped.get(
        '/credentials',
        {
          config: { role: 'member' }, // credentials: every member (and API keys)
          schema: {
            tags: ['credentials'],
            summary:
              'Issued credentials (filters: filter.status, filter.schema_id, filter.search, filter.import_id, filter.created_from/to)',
            description:
              'sort: -created_at (default, newest first), created_at, status or -status (lifecycle order: created, ' +
              'issued, expired, claimed, revoked; newest first within a status); any other value answers 400. ' +
              'filter.created_from and filter.created_to are inclusive days (YYYY-MM-DD) in timezone (IANA, ' +
              'default UTC).',
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
        '/credentials/export',
        {
          config: { role: 'member' }, // credentials: every member (and API keys)
          schema: {
            tags: ['credentials'],
            summary: 'Every credential the list filters match, in the list order, as a CSV file (streamed)',
            description:
              'Same filter.*, sort and timezone as GET credentials. text/csv; charset=utf-8 with a byte order mark, ' +
              'RFC 4180 records; a value starting with =, +, -, @, TAB or CR gets a leading single quote (OWASP ' +
              'CSV injection). Columns: id, name, type, recipient_first_name, recipient_last_name, ' +
              'recipient_email, status, created_at, issued_at, claimed_at, expires_at, revoked_at (ISO 8601 in ' +
              'timezone).',
            security: apiKeyOrUserSecurity,
            querystring: zCredentialExportQuery,
            produces: ['text/csv'],
          },
        },
        async (request, reply) => {
          const { organizationId } = requireOrganization(request);
          return sendCsv(
            reply,
            credentialsService.exportFileName('credentials', request.query.timezone),
            credentialsService.exportCredentials(deps, organizationId, request.query),
          );
        },
      );
      scoped.post(
        '/credentials/:id/resend',
        {
          config: { role: 'member' }, // credentials: every member (and API keys)
          schema: {
            tags: ['credentials'],
            summary: "E-mail the credential's claim link again (queued: the delivery job sends it once)",
            description:
              "In body.locale, else the best match of Accept-Language, else English; with the previous e-mail's " +
              'message. Only for a credential not claimed (409 CREDENTIAL_ALREADY_CLAIMED), revoked (409 ' +
              'CREDENTIAL_ALREADY_REVOKED) or deleted (404). An offer that can no longer be redeemed is replaced ' +
              'by a fresh one (the old one is withdrawn). At most one e-mail per credential per minute: 429 ' +
              'CREDENTIAL_RESEND_TOO_SOON with Retry-After.',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            body: zResendCredentialRequest,
            response: { 202: zCredentialDelivery },
          },
        },
        async (request, reply) => {
          const { organizationId, actor } = requireOrganization(request);
          const locale =
            request.body?.locale ?? credentialMailLocaleFromAcceptLanguage(request.headers['accept-language']);
          const outcome = await deliveriesService.resendCredential(
            resendDeps,
            organizationId,
            request.params.id,
            locale,
            actor,
          );
          if ('retryAfterSeconds' in outcome) {
            reply.header('retry-after', String(outcome.retryAfterSeconds));
            throw new AppError('CREDENTIAL_RESEND_TOO_SOON', {
              detail: `This credential was e-mailed less than a minute ago; retry in ${outcome.retryAfterSeconds} s.`,
            });
          }
          return reply.status(202).send(presentCredentialDelivery(outcome.delivery));
        },
      );
      scoped.get(
        '/credentials/:id/deliveries',
        {
          config: { role: 'member' }, // credentials: every member (and API keys)
          schema: {
            tags: ['credentials'],
            summary: "The credential's e-mails (first one and resends), the latest first, with their status",
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zQuery,
            response: { 200: zCredentialDeliveryList },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          const rows = await deliveriesService.findDeliveries(db, organizationId, request.params.id);
          return { results: rows.map(presentCredentialDelivery) };
        },
      );
      scoped.get(
        '/credentials/:id',
        {
          config: { role: 'member' }, // credentials: every member (and API keys)
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
          config: { role: 'member' }, // revoking: every member (and API keys)
          schema: {
            tags: ['credentials'],
            summary: 'Revoke credentials (their status-list bit becomes 1 at once)',
            security: apiKeyOrUserSecurity,
            body: zCredentialIdsRequest,
            response: { 200: z.object({ revoked: z.array(z.uuid()) }) },
          },
        },
        async (request) => {
          const { organizationId, actor } = requireOrganization(request);
          return {
            revoked: await credentialsService.revokeCredentials(deps, organizationId, request.body.credentials, actor),
          };
        },
      );
      scoped.post(
        '/credentials/delete',
        {
          config: { role: 'member' }, // deleting credentials: every member (and API keys)
          schema: {
            tags: ['credentials'],
            summary: 'Delete credentials (issued ones are revoked first)',
            security: apiKeyOrUserSecurity,
            body: zCredentialIdsRequest,
            response: { 200: z.object({ deleted: z.array(z.uuid()) }) },
          },
        },
        async (request) => {
          const { organizationId, actor } = requireOrganization(request);
          return {
            deleted: await credentialsService.deleteCredentials(deps, organizationId, request.body.credentials, actor),
          };
        },
      );
      scoped.delete(
        '/credentials/:id',
        {
          config: { role: 'member' }, // deleting credentials: every member (and API keys)
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
          const { organizationId, actor } = requireOrganization(request);
          await credentialsService.deleteCredentials(deps, organizationId, [request.params.id], actor);
          return reply.status(204).send(null);
        },
      );
    });
  };
}
