import {
  type AuditAction,
  type AuditActorType,
  type AuditEventDetails,
  type AuditEventListQuery,
  auditActionDefinitions,
} from '@cp/contracts';
import type { Database } from '@cp/db';
import * as repository from './audit-events.repository.ts';

export type { AuditEventRow } from './audit-events.repository.ts';

/**
 * Who made a change, as the services are told by their callers (routes pass the request's actor, which has
 * this shape; jobs and the admin CLI pass `system`). The label of a user or a key is read from its row when
 * the event is written.
 */
export type AuditActor =
  | { kind: 'user'; userId: string }
  | { kind: 'api_key'; apiKeyId: string }
  /** A wallet redeeming a credential offer (OpenID4VCI): anonymous, it holds the offer's code. */
  | { kind: 'holder' }
  /** The platform itself: a background job, or the admin CLI (`label: 'admin CLI'`). */
  | { kind: 'system'; label?: string };

export const SYSTEM_ACTOR: AuditActor = { kind: 'system' };
export const ADMIN_CLI_ACTOR: AuditActor = { kind: 'system', label: 'admin CLI' };

/** One event: the action decides the target's type; `details` are what the action's definition lists. */
export type AuditEventInput = {
  [A in AuditAction]: {
    action: A;
    target: { id: string | null; label: string | null };
    details: AuditEventDetails<A>;
  };
}[AuditAction];

const actorTypes = { user: 'USER', api_key: 'API_KEY', holder: 'HOLDER', system: 'SYSTEM' } as const satisfies Record<
  AuditActor['kind'],
  AuditActorType
>;

const clip = (label: string | null) => (label === null ? null : label.slice(0, repository.AUDIT_LABEL_MAX));

/**
 * Records events of one organization by one actor. Call it with the transaction handle of the change, so that
 * a change that rolls back leaves no event and a committed one always has its events. Details are checked
 * against the action's strict definition: an unlisted key (a claim value, a secret…) is a programming error
 * that fails the change instead of being written.
 */
export async function recordAuditEvents(
  db: Database,
  scope: { organizationId: string; actor: AuditActor },
  events: AuditEventInput[],
) {
  await repository.insertAuditEvents(
    db,
    events.map((event) => auditEventRow(scope, event)),
  );
}

/** The row an event is stored as. */
export function auditEventRow(scope: { organizationId: string; actor: AuditActor }, event: AuditEventInput) {
  return {
    ...auditEventHead(scope, event.action),
    targetId: event.target.id,
    targetLabel: clip(event.target.label),
    details: auditActionDefinitions[event.action].details.parse(event.details) as Record<string, unknown>,
  };
}

/**
 * An event's row without its target and details: for a statement that stores the event with its cause and
 * writes those itself (the claim, of the credential it finds: `credentialTargetSql`).
 */
export function auditEventHead(scope: { organizationId: string; actor: AuditActor }, action: AuditAction) {
  const { organizationId, actor } = scope;
  return {
    organizationId,
    actorType: actorTypes[actor.kind],
    actorUserId: actor.kind === 'user' ? actor.userId : null,
    actorApiKeyId: actor.kind === 'api_key' ? actor.apiKeyId : null,
    actorLabel: actor.kind === 'system' ? (actor.label ?? null) : null,
    action,
    targetType: auditActionDefinitions[action].target,
  };
}

/** One event (see `recordAuditEvents`). */
export const recordAuditEvent = (
  db: Database,
  scope: { organizationId: string; actor: AuditActor },
  event: AuditEventInput,
) => recordAuditEvents(db, scope, [event]);

/** "Kim Lee": a recipient's name as the log shows it. */
export const personName = (firstName: string | null, lastName: string | null) =>
  [firstName, lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');

/** A credential as a target: its type and its recipient (label "Work Certificate — Kim Lee"). */
export function credentialTarget(credential: {
  id: string;
  name: string;
  recipientFirstName: string;
  recipientLastName: string;
}) {
  const recipient = personName(credential.recipientFirstName, credential.recipientLastName);
  return {
    target: { id: credential.id, label: recipient ? `${credential.name} — ${recipient}` : credential.name },
    details: { credential_name: credential.name, recipient_name: recipient },
  };
}

/** One page of the organization's activity, newest first. */
export async function findAuditEvents(db: Database, organizationId: string, query: AuditEventListQuery) {
  const { rows, total, totalExact } = await repository.findAuditEvents(
    db,
    organizationId,
    {
      actions: query['filter.action'],
      actorType: query['filter.actor_type'],
      actorId: query['filter.actor_id'],
      targetType: query['filter.target_type'],
      targetId: query['filter.target_id'],
      from: query['filter.from'],
      to: query['filter.to'],
    },
    { offset: (query.page - 1) * query.limit, limit: query.limit },
  );
  return { rows, total, totalExact, page: query.page, limit: query.limit };
}
