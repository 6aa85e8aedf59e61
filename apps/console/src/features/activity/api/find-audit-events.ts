import type { AuditActionCategory, AuditActorType, AuditEventPage } from '@cp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** What the activity page filters on (kept in its URL). Dates are the user's local days, `to` included. */
export interface ActivityFilters {
  category?: AuditActionCategory | undefined;
  actorType?: AuditActorType | undefined;
  /** `YYYY-MM-DD`, from the start of that local day. */
  from?: string | undefined;
  /** `YYYY-MM-DD`, up to the end of that local day. */
  to?: string | undefined;
}

export const ACTIVITY_PAGE_SIZE = 10;

/** The start of a local day as an instant (`filter.from` is inclusive, `filter.to` exclusive). */
export function startOfLocalDay(day: string, plusDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export const activityKey = (organizationId: string) => ['audit-events', organizationId] as const;

/** GET /api/audit-events?page&limit&filter.action&filter.actor_type&filter.from&filter.to, newest first. */
export const findAuditEvents = (organizationId: string, page: number, filters: ActivityFilters) =>
  withCatalogue(
    'activity.errors.load',
    api.get<AuditEventPage>('/audit-events', {
      query: { page, limit: ACTIVITY_PAGE_SIZE },
      filters: {
        action: filters.category ? `${filters.category}.*` : undefined,
        actor_type: filters.actorType,
        from: filters.from ? startOfLocalDay(filters.from) : undefined,
        to: filters.to ? startOfLocalDay(filters.to, 1) : undefined,
      },
      identity: organizationId,
    }),
  );

export const auditEventsQuery = (organizationId: string, page: number, filters: ActivityFilters) =>
  queryOptions({
    queryKey: [...activityKey(organizationId), page, filters] as const,
    queryFn: () => findAuditEvents(organizationId, page, filters),
  });

export const useAuditEvents = (organizationId: string | undefined, page: number, filters: ActivityFilters) =>
  useQuery({
    ...auditEventsQuery(organizationId ?? '', page, filters),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
