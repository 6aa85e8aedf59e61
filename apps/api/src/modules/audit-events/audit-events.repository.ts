import { AUDIT_EVENTS_TOTAL_MAX, type AuditActorType, type AuditTargetType, auditTargetTypes } from '@cp/contracts';
import { type Database, schema } from '@cp/db';
import { and, count, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';

const { auditEvents } = schema;
export type AuditEventRow = typeof auditEvents.$inferSelect;

export interface NewAuditEvent {
  organizationId: string;
  actorType: AuditActorType;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  /** A fixed label (SYSTEM); users and keys are labelled from their rows in the same statement. */
  actorLabel: string | null;
  action: string;
  targetType: AuditTargetType;
  targetId: string | null;
  targetLabel: string | null;
  details: Record<string, unknown>;
}

/**
 * A user as the log names them: their full name, else their e-mail, else their username (as it is now); an API key by
 * its name. `id` is an SQL expression of the user's (the key's) id.
 */
const USER_LABEL = (id: string) =>
  `(select coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email, u.username) from users u where u.id = ${id})`;
const API_KEY_LABEL = (id: string) => `(select k.name from api_keys k where k.id = ${id})`;

/** A target label's longest form, in characters (longer ones are cut). */
export const AUDIT_LABEL_MAX = 300;

/**
 * A credential as an event's target in SQL, as `credentialTarget` (audit-events.service.ts) makes it in
 * TypeScript: the label "Work Certificate — Kim Lee" (the name alone without a recipient name) and the details
 * `{credential_name, recipient_name}`. `c` is the SQL alias of a row with the credential's `name`,
 * `recipient_first_name` and `recipient_last_name`. For a statement that writes an event of a credential it
 * finds itself (the claim); audit-events.test.ts holds the two to the same answers.
 */
export function credentialTargetSql(c: string) {
  const recipient = `concat_ws(' ', nullif(btrim(${c}.recipient_first_name), ''), nullif(btrim(${c}.recipient_last_name), ''))`;
  return {
    label: `left(${c}.name || coalesce(' — ' || nullif(${recipient}, ''), ''), ${AUDIT_LABEL_MAX})`,
    details: `jsonb_build_object('credential_name', ${c}.name, 'recipient_name', ${recipient})`,
  };
}

/** One of the labels above with the id bound as a parameter of a Drizzle query. */
function boundLabel(label: (id: string) => string, id: string) {
  const [before, after] = label('\u0000').split('\u0000');
  return sql<string>`${sql.raw(before!)}${id}::uuid${sql.raw(after!)}`;
}
const userLabel = (userId: string) => boundLabel(USER_LABEL, userId);
const apiKeyLabel = (apiKeyId: string) => boundLabel(API_KEY_LABEL, apiKeyId);

/**
 * For a hand-written statement that stores an event with its cause (runStatement, as one statement is all or
 * nothing): `insert into audit_events … select … from <source>`, one event per row of `source` (a CTE), taking the
 * event's values (auditEventValues) as parameters `$first` to `$first + 9`. The actor is labelled as
 * insertAuditEvents labels it, in the same statement.
 */
export function auditEventInsertSql(source: string, first: number) {
  const $ = (i: number) => `$${first + i}`;
  return `insert into audit_events (organization_id, actor_type, actor_user_id, actor_api_key_id, actor_label, action,
            target_type, target_id, target_label, details)
     select ${$(0)}::uuid, ${$(1)}::text, ${$(2)}::uuid, ${$(3)}::uuid,
            case when ${$(2)}::uuid is not null then ${USER_LABEL(`${$(2)}::uuid`)}
                 when ${$(3)}::uuid is not null then ${API_KEY_LABEL(`${$(3)}::uuid`)}
                 else ${$(4)}::text end,
            ${$(5)}::text, ${$(6)}::text, ${$(7)}::text, ${$(8)}::text, ${$(9)}::jsonb
       from ${source}`;
}

/** An event's values in the order auditEventInsertSql takes them. */
export const auditEventValues = (event: NewAuditEvent) => [
  event.organizationId,
  event.actorType,
  event.actorUserId,
  event.actorApiKeyId,
  event.actorLabel,
  event.action,
  event.targetType,
  event.targetId,
  event.targetLabel,
  JSON.stringify(event.details),
];

/**
 * One INSERT for all the events (`db` is the caller's transaction handle). The actor's label is read in the
 * same statement, so it is the name the actor had when the change was made and costs no extra round trip.
 */
export async function insertAuditEvents(db: Database, events: NewAuditEvent[]) {
  if (events.length === 0) return;
  await db.insert(auditEvents).values(
    events.map((event) => ({
      ...event,
      actorLabel: event.actorUserId
        ? userLabel(event.actorUserId)
        : event.actorApiKeyId
          ? apiKeyLabel(event.actorApiKeyId)
          : event.actorLabel,
    })),
  );
}

export interface AuditEventFilters {
  actions?: string[] | undefined;
  actorType?: AuditActorType | undefined;
  actorId?: string | undefined;
  targetType?: AuditTargetType | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

function conditions(organizationId: string, filters: AuditEventFilters): SQL[] {
  const where: SQL[] = [eq(auditEvents.organizationId, organizationId)];
  if (filters.actions) where.push(inArray(auditEvents.action, filters.actions));
  if (filters.actorType) where.push(eq(auditEvents.actorType, filters.actorType));
  if (filters.actorId) {
    where.push(or(eq(auditEvents.actorUserId, filters.actorId), eq(auditEvents.actorApiKeyId, filters.actorId)) as SQL);
  }
  if (filters.targetId) {
    // (organization_id, target_type, target_id) is indexed: without a type, every type is listed so that the
    // index still applies (one probe per type) instead of a scan of the organization's whole log.
    where.push(inArray(auditEvents.targetType, filters.targetType ? [filters.targetType] : [...auditTargetTypes]));
    where.push(eq(auditEvents.targetId, filters.targetId));
  } else if (filters.targetType) {
    where.push(eq(auditEvents.targetType, filters.targetType));
  }
  if (filters.from) where.push(gte(auditEvents.occurredAt, filters.from));
  if (filters.to) where.push(lt(auditEvents.occurredAt, filters.to));
  return where;
}

/**
 * One page of the organization's events, newest first, and how many match (counted up to
 * AUDIT_EVENTS_TOTAL_MAX: an exact count walks every matching index entry, ~75 ms for 200,000 events on
 * PostgreSQL, and grows with the log). The page's ids come first from an index (organization_id,
 * occurred_at, id) walked backwards, or the action or target index when those filters narrow it down; only
 * the page's rows are read from the table. Filtering by actor has no index of its own (see the module's
 * notes): it walks the organization's events until the page and the capped count are found.
 */
export async function findAuditEvents(
  db: Database,
  organizationId: string,
  filters: AuditEventFilters,
  page: { offset: number; limit: number },
) {
  const where = and(...conditions(organizationId, filters));
  const pageIds = db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .offset(page.offset)
    .limit(page.limit)
    .as('page_ids');
  const [rows, [total]] = await Promise.all([
    db
      .select({ event: auditEvents })
      .from(auditEvents)
      .innerJoin(pageIds, eq(auditEvents.id, pageIds.id))
      .where(eq(auditEvents.organizationId, organizationId))
      .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id)),
    db.select({ value: count() }).from(
      db
        .select({ one: sql`1` })
        .from(auditEvents)
        .where(where)
        .limit(AUDIT_EVENTS_TOTAL_MAX + 1)
        .as('counted'),
    ),
  ]);
  const counted = Number(total?.value ?? 0);
  return {
    rows: rows.map((r) => r.event),
    total: Math.min(counted, AUDIT_EVENTS_TOTAL_MAX),
    totalExact: counted <= AUDIT_EVENTS_TOTAL_MAX,
  };
}
