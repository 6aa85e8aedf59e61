import type { AuditEvent } from '@cp/contracts';
import type { AuditEventRow } from './audit-events.service.ts';

export function presentAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    occurred_at: row.occurredAt.toISOString(),
    action: row.action as AuditEvent['action'],
    actor: {
      type: row.actorType as AuditEvent['actor']['type'],
      id: row.actorUserId ?? row.actorApiKeyId ?? null,
      label: row.actorLabel,
    },
    target: { type: row.targetType as AuditEvent['target']['type'], id: row.targetId, label: row.targetLabel },
    details: row.details,
  };
}
