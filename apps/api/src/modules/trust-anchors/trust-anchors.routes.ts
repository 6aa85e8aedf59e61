import { zCreateTrustAnchorRequest, zIdParams, zTrustAnchor, zTrustAnchorList } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import { presentTrustAnchor } from './trust-anchors.presenter.ts';
import * as trustAnchorsService from './trust-anchors.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

/**
 * The organization's trust anchors (its verifications' TRUST_ANCHORS policy): CA certificates and ETSI
 * TS 119 602 trusted lists. A member or an API key of the organization; another organization's anchor
 * answers 404. Changes apply to the next presentation, in every API process (read per verification).
 */
export function trustAnchorsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const deps = ctx.deps.trustAnchors;
  const preHandler = authenticate(ctx, { allowApiKey: true });
  return async (app) => {
    app.get(
      '/trust-anchors',
      {
        config: { role: 'admin' }, // trust settings: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['trust-anchors'],
          summary: "The organization's trust anchors",
          security: apiKeyOrUserSecurity,
          querystring: zQuery,
          response: { 200: zTrustAnchorList },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        const rows = await trustAnchorsService.findTrustAnchors(db, organizationId);
        return { results: rows.map(presentTrustAnchor), total: rows.length };
      },
    );
    app.post(
      '/trust-anchors',
      {
        config: { role: 'admin' }, // trust settings: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['trust-anchors'],
          summary: 'Trust a certificate authority, or an ETSI TS 119 602 trusted list',
          description:
            'CERTIFICATE: a CA certificate (basicConstraints cA; keyCertSign when key usage is present), valid now. ' +
            'TRUSTED_LIST: the URL of a signed List of Trusted Entities (`trustlist+jwt`) and the pinned signing ' +
            'certificate of its operator; its CA certificates in force become anchors, read again every hour. ' +
            '422 TRUST_ANCHOR_INVALID says why a certificate or list cannot be used; 409 TRUST_ANCHOR_DUPLICATE, ' +
            '409 TRUST_ANCHOR_LIMIT_REACHED (50).',
          security: apiKeyOrUserSecurity,
          body: zCreateTrustAnchorRequest,
          response: { 201: zTrustAnchor },
        },
      },
      async (request, reply) => {
        const scope = requireOrganization(request);
        const row = await trustAnchorsService.createTrustAnchor(deps, scope, request.body);
        return reply.status(201).send(presentTrustAnchor(row));
      },
    );
    app.post(
      '/trust-anchors/:id/refresh',
      {
        config: { role: 'admin' }, // trust settings: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['trust-anchors'],
          summary: 'Read a trusted list again now (a CA certificate answers unchanged)',
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          response: { 200: zTrustAnchor },
        },
      },
      async (request) => {
        const { organizationId, actor } = requireOrganization(request);
        return presentTrustAnchor(
          await trustAnchorsService.refreshTrustAnchor(deps, organizationId, request.params.id, actor),
        );
      },
    );
    app.delete(
      '/trust-anchors/:id',
      {
        config: { role: 'admin' }, // trust settings: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['trust-anchors'],
          summary: 'Stop trusting an anchor (past verification results keep why they were admitted)',
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          querystring: zQuery,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { organizationId, actor } = requireOrganization(request);
        await trustAnchorsService.deleteTrustAnchor(db, organizationId, request.params.id, actor);
        return reply.status(204).send(null);
      },
    );
  };
}
