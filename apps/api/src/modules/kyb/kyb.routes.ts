import {
  zCreateKybApplicationRequest,
  zIdParams,
  zKybApplication,
  zKybApplicationState,
  zKybReview,
  zKybReviewPage,
  zKybReviewQuery,
  zRejectKybApplicationRequest,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, requireUser } from '../../plugins/authenticate.ts';
import { presentKybApplication, presentKybReview } from './kyb.presenter.ts';
import * as kybService from './kyb.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });
const zOrganizationParams = z.object({ orgId: z.uuid() });

/**
 * KYB: organizations apply with documents (`/kyb/{orgId}`); platform administrators review them
 * (`/kyb-reviews`, deliberately not under /admin, which is the CLI's loopback endpoint).
 */
export function kybRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const publicUrl = ctx.config.publicUrl;
  const reviewDeps = ctx.deps.kybReview;
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx));

    app.get(
      '/kyb/:orgId',
      {
        config: { role: 'member', organizationParam: 'orgId' }, // every member sees the KYB state
        schema: {
          tags: ['kyb'],
          summary: "The organization's latest verification application (null when it never applied)",
          params: zOrganizationParams,
          querystring: zQuery,
          response: { 200: zKybApplicationState },
        },
      },
      async (request) => {
        const latest = await kybService.getLatestApplication(db, {
          organizationId: request.params.orgId,
          ...requireUser(request),
        });
        return {
          application: latest ? presentKybApplication(latest.application, latest.documents, publicUrl) : null,
        };
      },
    );

    app.post(
      '/kyb/:orgId',
      {
        config: { role: 'admin', organizationParam: 'orgId' }, // applying for KYB: admins
        schema: {
          tags: ['kyb'],
          summary: 'Apply for organization verification with 1–5 uploaded kyb_document files',
          params: zOrganizationParams,
          body: zCreateKybApplicationRequest,
          response: { 201: zKybApplication },
        },
      },
      async (request, reply) => {
        const { application, documents } = await kybService.submitApplication(
          db,
          { organizationId: request.params.orgId, ...requireUser(request) },
          request.body,
        );
        return reply.status(201).send(presentKybApplication(application, documents, publicUrl));
      },
    );

    app.get(
      '/kyb-reviews',
      {
        config: { role: 'user' }, // platform administrators (ADMIN_EMAILS), checked by the service
        schema: {
          tags: ['kyb'],
          summary: 'Review queue of platform administrators (oldest first)',
          querystring: zKybReviewQuery,
          response: { 200: zKybReviewPage },
        },
      },
      async (request) => {
        const { status, page, limit } = request.query;
        const { rows, total } = await kybService.findApplicationsForReview(
          db,
          ctx.config,
          { kind: 'user', userId: requireUser(request).userId },
          { status, page, limit },
        );
        return {
          results: rows.map((r) => presentKybReview(r.application, r.organizationName, r.documents, publicUrl)),
          total,
          page,
          limit,
        };
      },
    );

    app.post(
      '/kyb-reviews/:id/approve',
      {
        config: { role: 'user' }, // platform administrators (ADMIN_EMAILS), checked by the service
        schema: {
          tags: ['kyb'],
          summary: 'Approve a pending application: the organization becomes verified',
          params: zIdParams,
          response: { 200: zKybReview },
        },
      },
      async (request) => {
        const r = await kybService.reviewApplication(
          reviewDeps,
          { kind: 'user', userId: requireUser(request).userId },
          request.params.id,
          { status: 'APPROVED' },
        );
        return presentKybReview(r.application, r.organizationName, r.documents, publicUrl);
      },
    );

    app.post(
      '/kyb-reviews/:id/reject',
      {
        config: { role: 'user' }, // platform administrators (ADMIN_EMAILS), checked by the service
        schema: {
          tags: ['kyb'],
          summary: 'Reject a pending application with a reason (the organization may apply again)',
          params: zIdParams,
          body: zRejectKybApplicationRequest,
          response: { 200: zKybReview },
        },
      },
      async (request) => {
        const r = await kybService.reviewApplication(
          reviewDeps,
          { kind: 'user', userId: requireUser(request).userId },
          request.params.id,
          { status: 'REJECTED', reason: request.body.reason },
        );
        return presentKybReview(r.application, r.organizationName, r.documents, publicUrl);
      },
    );
  };
}
