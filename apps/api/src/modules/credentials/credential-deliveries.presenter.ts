import type { CredentialDelivery, CredentialDeliveryStatus } from '@cp/contracts';
import type { CredentialDeliveryRow } from './credential-deliveries.repository.ts';

export function presentCredentialDelivery(row: CredentialDeliveryRow): CredentialDelivery {
  return {
    id: row.id,
    sequence: row.sequence,
    status: row.status as CredentialDeliveryStatus,
    locale: row.locale,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
  };
}
