import type { CredentialImport } from '@cp/contracts';
import type { CredentialImportRow } from './credential-imports.repository.ts';

export function presentCredentialImport(row: CredentialImportRow): CredentialImport {
  return {
    id: row.id,
    schema_id: row.schemaId,
    status: row.status as CredentialImport['status'],
    total_count: row.totalCount,
    processed_count: row.processedCount,
    succeeded_count: row.succeededCount,
    failed_count: row.failedCount,
    errors: row.errors,
    failure_reason: row.failureReason,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}
