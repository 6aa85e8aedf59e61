import { zAuditEventListQuery, zAuditEventPage } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authenticate, requireOrganization, userSecurity } from '../../plugins/authenticate.ts';
import { presentAuditEvent } from './audit-events.presenter.ts';
import * as auditEventsService from './audit-events.service.ts';

/** The organization's activity log (read-only: events are written by the changes themselves). */
export function auditEventsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx));
    app.get(
      '/audit-events',
      {
        // Who did what in the organization, with members' names: for its admins (as in comparable consoles).
        config: { role: 'admin' },
        schema: {
          tags: ['audit-events'],
          security: userSecurity,
          summary: "The organization's activity log, newest first",
          description:
            'Every change the organization made: who (a member, an API key, a holder claiming a credential, or the ' +
            'platform), when, what and on which object. Filters: `filter.action` (comma-separated actions, or ' +
            'categories such as `credentials.*`), `filter.actor_type`, `filter.actor_id` (a user or API key id), ' +
            '`filter.target_type`, `filter.target_id`, `filter.from` (inclusive) and `filter.to` (exclusive), ' +
            'each an ISO 8601 date-time with offset or a date. At most 100 events a page and 1,000 pages: reach older ' +
            'events with `filter.to`. `total` counts up to 10,000 (`total_exact` false beyond).',
          querystring: zAuditEventListQuery,
          response: { 200: zAuditEventPage },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        const page = await auditEventsService.findAuditEvents(db, organizationId, request.query);
        return {
          results: page.rows.map(presentAuditEvent),
          total: page.total,
          total_exact: page.totalExact,
          page: page.page,
          limit: page.limit,
        };
      },
    );
  };
}
