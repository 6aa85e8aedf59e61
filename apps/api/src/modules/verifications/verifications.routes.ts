import {
  CUSTOMER_ID_MAX,
  zCreatedVerificationIndividual,
  zCreateOwnVerificationIndividualRequest,
  zCreateVerificationIndividualRequest,
  zCreateVerificationRequest,
  zHolderOrganization,
  zIdParams,
  zPageQuery,
  zUpdateVerificationRequest,
  zVerification,
  zVerificationConnect,
  zVerificationHistoryExportQuery,
  zVerificationIndividual,
  zVerificationIndividualPage,
  zVerificationLinkSecret,
  zVerificationListQuery,
  zVerificationOutcome,
  zVerificationPage,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendCsv } from '../../lib/csv-download.ts';
import { calendarDay } from '../../lib/time-zone.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import { getLinkSecret, rotateLinkSecret } from './customer-links.ts';
import * as openid4vp from './openid4vp.service.ts';
import { exportVerificationHistory } from './verification-history.service.ts';
import { presentIndividual, presentVerification } from './verifications.presenter.ts';
import * as verificationsService from './verifications.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });
const zCustomerParams = z.object({ id: z.uuid(), customer: z.string().min(1).max(CUSTOMER_ID_MAX) });
const zAttemptParams = z.object({ id: z.uuid(), attemptId: z.uuid() });

/**
 * Verification requests (spec §7 `verifications`): organization-scoped management for members and API
 * keys, and the public calls of the holder pages, keyed by the unguessable individual (attempt) id.
 */
export function verificationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const publicUrl = ctx.config.publicUrl;
  const verifier = ctx.deps.verifier;
  // The public holder calls: a stricter per-address limit (RATE_LIMIT_HOLDER_PER_MINUTE).
  const holderLimit = { rateLimit: { max: ctx.config.rateLimits.holder, timeWindow: '1 minute' } };
  return async (app) => {
    app.post(
      '/verifications/individuals',
      {
        config: holderLimit,
        schema: {
          tags: ['verifications'],
          summary: 'Start one holder attempt at a verification (public; the holder page calls it)',
          description:
            'A customer id (three 4-digit groups) is generated when absent. An unsigned customer_id is kept as a ' +
            'label: it never answers GET verifications/{id}/individuals/{customer}. A link the integrator signed ' +
            '(expires + signature, see POST verifications/{id}/link-secret) vouches for its customer; a bad ' +
            'signature answers 403 VERIFICATION_LINK_SIGNATURE_INVALID, an expired one 410 VERIFICATION_LINK_EXPIRED. ' +
            'A used single-use link answers 409 VERIFICATION_ALREADY_USED.',
          body: zCreateVerificationIndividualRequest,
          response: { 201: zCreatedVerificationIndividual },
        },
      },
      async (request, reply) => {
        const row = await openid4vp.createIndividual(verifier, request.body);
        return reply.status(201).send({
          id: row.id,
          verification_id: row.verificationId,
          customer_id: row.customerId,
          status: 'CREATED' as const,
          created_at: row.createdAt.toISOString(),
        });
      },
    );
    app.get(
      '/verifications/:id/connect',
      {
        config: holderLimit,
        schema: {
          tags: ['verifications'],
          summary: 'Holder page data of an attempt: the OpenID4VP request link (public; id = attempt id)',
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zVerificationConnect },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return openid4vp.connectData(verifier, request.params.id);
      },
    );
    app.get(
      '/verifications/:id/requester',
      {
        config: holderLimit,
        schema: {
          tags: ['verifications'],
          summary:
            "Who asks: the organization's name, logo, colour and KYB for the shareable link's page (public; id = verification id)",
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zHolderOrganization },
        },
      },
      async (request) => openid4vp.requesterOf(verifier, request.params.id),
    );
    app.get(
      '/verifications/:id/verify',
      {
        config: holderLimit,
        schema: {
          tags: ['verifications'],
          summary: 'Outcome of an attempt, without personal data (public; id = attempt id)',
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zVerificationOutcome },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return openid4vp.outcome(verifier, request.params.id);
      },
    );

    await app.register(async (plugin) => {
      const scoped = plugin.withTypeProvider<ZodTypeProvider>();
      scoped.addHook('preHandler', authenticate(ctx, { allowApiKey: true }));
      scoped.get(
        '/verifications',
        {
          config: { role: 'member' }, // verifications: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: "The organization's verifications, newest first (type SINGLE or MULTI)",
            security: apiKeyOrUserSecurity,
            querystring: zVerificationListQuery,
            response: { 200: zVerificationPage },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          const type = request.query.type ?? request.query['filter.type'];
          const page = await verificationsService.findVerifications(db, organizationId, {
            ...request.query,
            ...(type ? { type } : {}),
          });
          return {
            results: page.records.map((record) => presentVerification(record, publicUrl)),
            total: page.total,
            page: page.page,
            limit: page.limit,
          };
        },
      );
      scoped.post(
        '/verifications',
        {
          config: { role: 'member' }, // verifications: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: 'Create a verification',
            description: 'Rule values are checked against their attribute types (422 with the field and message).',
            security: apiKeyOrUserSecurity,
            body: zCreateVerificationRequest,
            response: { 201: zVerification },
          },
        },
        async (request, reply) => {
          const record = await verificationsService.createVerification(db, requireOrganization(request), request.body);
          return reply.status(201).send(presentVerification(record, publicUrl));
        },
      );
      scoped.get(
        '/verifications/:id',
        {
          config: { role: 'member' }, // verifications: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: 'One verification',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zQuery,
            response: { 200: zVerification },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          return presentVerification(
            await verificationsService.getVerification(db, organizationId, request.params.id),
            publicUrl,
          );
        },
      );
      scoped.put(
        '/verifications/:id',
        {
          config: { role: 'member' }, // verifications: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: 'Update a verification (attempts already under way keep what they asked for)',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            body: zUpdateVerificationRequest,
            response: { 200: zVerification },
          },
        },
        async (request) => {
          const { organizationId, actor } = requireOrganization(request);
          return presentVerification(
            await verificationsService.updateVerification(db, organizationId, request.params.id, request.body, actor),
            publicUrl,
          );
        },
      );
      scoped.delete(
        '/verifications/:id',
        {
          config: { role: 'member' }, // verifications: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: 'Delete a verification (its link stops working; past results are kept)',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zQuery,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          const { organizationId, actor } = requireOrganization(request);
          await verificationsService.deleteVerification(db, organizationId, request.params.id, actor);
          return reply.status(204).send(null);
        },
      );
      scoped.get(
        '/verifications/:id/individuals',
        {
          config: { role: 'member' }, // the history: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: 'Attempts at a verification, newest first, with their checks and disclosed claims',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zPageQuery,
            response: { 200: zVerificationIndividualPage },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          const page = await verificationsService.findIndividuals(db, organizationId, request.params.id, request.query);
          return {
            results: page.rows.map((row) => presentIndividual(row, publicUrl)),
            total: page.total,
            page: page.page,
            limit: page.limit,
          };
        },
      );
      scoped.get(
        '/verifications/:id/individuals/export',
        {
          config: { role: 'member' }, // verifications: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: 'Every attempt at a verification as a CSV file (streamed), newest first',
            description:
              'text/csv; charset=utf-8 with a byte order mark, RFC 4180, formulas neutralised (OWASP). Columns: ' +
              'attempt_id, customer_id, customer_id_source (API, SIGNED_LINK, LABEL, GENERATED), ' +
              'customer_id_vouched, status, created_at, verified_at, failed_at, issuer, issuer_admitted, ' +
              'issuer_trust_reason, issuer_trust_detail, failed_checks, then claim:<name> for each claim asked ' +
              'for. Times ISO 8601 in timezone (IANA, default UTC). Note: this path takes precedence over ' +
              'GET verifications/{id}/individuals/{customer} for a customer id of "export".',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zVerificationHistoryExportQuery,
            produces: ['text/csv'],
          },
        },
        async (request, reply) => {
          const { organizationId } = requireOrganization(request);
          const { presentId, chunks } = await exportVerificationHistory(
            db,
            organizationId,
            request.params.id,
            request.query.timezone,
          );
          return sendCsv(
            reply,
            `verification-${presentId}-${calendarDay(new Date(), request.query.timezone)}.csv`,
            chunks,
          );
        },
      );
      scoped.post(
        '/verifications/:id/individuals',
        {
          config: { role: 'member' }, // attempts for customers: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: "Start an attempt for one of the integrator's customers; answers the holder link to send them",
            description:
              'The customer id is vouched for by the integrator (this call is authenticated): the outcome answers ' +
              'GET verifications/{id}/individuals/{customer}.',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            body: zCreateOwnVerificationIndividualRequest,
            response: { 201: zVerificationIndividual },
          },
        },
        async (request, reply) => {
          const { organizationId } = requireOrganization(request);
          const row = await openid4vp.createIndividual(
            verifier,
            { verification_id: request.params.id, customer_id: request.body.customer_id },
            { organizationId },
          );
          return reply.status(201).send(presentIndividual(row, publicUrl));
        },
      );
      scoped.get(
        '/verifications/:id/attempts/:attemptId',
        {
          config: { role: 'member' }, // the history: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary: 'One attempt at a verification, by its id (any attempt, vouched for or not)',
            security: apiKeyOrUserSecurity,
            params: zAttemptParams,
            querystring: zQuery,
            response: { 200: zVerificationIndividual },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          const row = await verificationsService.getIndividual(
            db,
            organizationId,
            request.params.id,
            request.params.attemptId,
          );
          return presentIndividual(row, publicUrl);
        },
      );
      scoped.get(
        '/verifications/:id/link-secret',
        {
          config: { role: 'admin' }, // an integration secret: admins only (API keys refused)
          schema: {
            tags: ['verifications'],
            summary: 'The secret to sign holder links with (made on first use)',
            description:
              'A signed link: /connect/redirect/{id}?customer={customer}&expires={unix seconds}&signature=' +
              'base64url(HMAC-SHA256(secret, "{id}.{customer}.{expires}")).',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            querystring: zQuery,
            response: { 200: zVerificationLinkSecret },
          },
        },
        async (request, reply) => {
          const { organizationId } = requireOrganization(request);
          reply.header('cache-control', 'no-store');
          return { secret: await getLinkSecret(verifier, organizationId, request.params.id) };
        },
      );
      scoped.post(
        '/verifications/:id/link-secret',
        {
          config: { role: 'admin' }, // an integration secret: admins only (API keys refused)
          schema: {
            tags: ['verifications'],
            summary: 'Replace the link secret: links signed with the old one no longer vouch for their customers',
            security: apiKeyOrUserSecurity,
            params: zIdParams,
            response: { 200: zVerificationLinkSecret },
          },
        },
        async (request, reply) => {
          const { organizationId, actor } = requireOrganization(request);
          reply.header('cache-control', 'no-store');
          return { secret: await rotateLinkSecret(verifier, organizationId, request.params.id, { actor }) };
        },
      );
      scoped.get(
        '/verifications/:id/individuals/:customer',
        {
          config: { role: 'member' }, // the history: every member (and API keys)
          schema: {
            tags: ['verifications'],
            summary:
              "The latest attempt of one of the integrator's customers (vouched for: API-created or signed link)",
            security: apiKeyOrUserSecurity,
            params: zCustomerParams,
            querystring: zQuery,
            response: { 200: zVerificationIndividual },
          },
        },
        async (request) => {
          const { organizationId } = requireOrganization(request);
          const row = await verificationsService.getIndividualOfCustomer(
            db,
            organizationId,
            request.params.id,
            request.params.customer,
          );
          return presentIndividual(row, publicUrl);
        },
      );
    });
  };
}
