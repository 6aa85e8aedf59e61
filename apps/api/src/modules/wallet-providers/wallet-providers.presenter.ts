import type { WalletProvider } from '@cp/contracts';
import type { WalletProviderRow } from './wallet-providers.repository.ts';

export function presentWalletProvider(row: WalletProviderRow): WalletProvider {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    fingerprint: row.fingerprint,
    not_after: row.notAfter.toISOString(),
    kind: row.kind,
    certificate_pem: row.certificatePem,
    created_at: row.createdAt.toISOString(),
  };
}
