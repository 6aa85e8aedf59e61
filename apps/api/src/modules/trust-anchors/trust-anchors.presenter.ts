import type { TrustAnchor } from '@cp/contracts';
import type { TrustAnchorRow } from './trust-anchors.repository.ts';

export function presentTrustAnchor(row: TrustAnchorRow): TrustAnchor {
  const isList = row.kind === 'TRUSTED_LIST';
  return {
    id: row.id,
    kind: isList ? 'TRUSTED_LIST' : 'CERTIFICATE',
    name: row.name,
    subject: row.subject,
    fingerprint: isList ? (row.fingerprint?.split(':')[1] ?? null) : row.fingerprint,
    not_after: row.notAfter?.toISOString() ?? null,
    certificate_pem: row.certificatePem,
    list_url: row.listUrl,
    list_certificate_count: isList ? row.listCertificates.length : null,
    list_fetched_at: row.listFetchedAt?.toISOString() ?? null,
    list_error: row.listError,
    created_at: row.createdAt.toISOString(),
  };
}
