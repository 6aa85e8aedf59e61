import type { Credential } from '@cp/contracts';
import { isPlatformSchemaSlug } from '../credential-schemas/platform-credential-schemas.ts';
import type { CredentialRow } from './credentials.repository.ts';
import { effectiveStatus, type SchemaSnapshot } from './credentials.service.ts';

export function presentCredential(
  row: CredentialRow,
  context: { offerExpiresAt: Date | null; organization: { id: string; name: string }; publicUrl: string },
): Credential {
  const snapshot = row.schemaSnapshot as unknown as SchemaSnapshot;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: effectiveStatus(row, context.offerExpiresAt),
    claims: row.claims,
    recipient: { first_name: row.recipientFirstName, last_name: row.recipientLastName, email: row.recipientEmail },
    organization: context.organization,
    schema: {
      id: row.schemaId,
      name: snapshot.name,
      // From the snapshot, so a page of credentials needs no schema query and a removed schema keeps them.
      // Platform slugs are fixed and an organization's slugs never take one (they end with id digits).
      ...(typeof snapshot.slug === 'string' && {
        slug: snapshot.slug,
        deleteable: !isPlatformSchemaSlug(snapshot.slug),
      }),
    },
    created_at: row.createdAt.toISOString(),
    issued_at: iso(row.issuedAt),
    claimed_at: iso(row.claimedAt),
    revoked_at: iso(row.revokedAt),
    expired_at: iso(context.offerExpiresAt),
    emailed_at: iso(row.emailedAt),
    connect_url: `${context.publicUrl}/connect/credential/${row.id}`,
    // Which wallet provider vouched for the holder's wallet and key (recorded when it claimed the credential).
    wallet_attestation: row.walletAttestation
      ? {
          provider_id: row.walletProviderId ?? null,
          provider_name: row.walletAttestation.provider_name,
          client_id: row.walletAttestation.client_id,
          wallet_name: row.walletAttestation.wallet_name,
          certificate_subject: row.walletAttestation.certificate_subject,
          verified_at: row.walletAttestation.verified_at,
        }
      : null,
    key_attestation: row.keyAttestation
      ? {
          provider_id: row.keyAttestation.provider_id,
          provider_name: row.keyAttestation.provider_name,
          certificate_subject: row.keyAttestation.certificate_subject,
          key_storage: row.keyAttestation.key_storage,
          user_authentication: row.keyAttestation.user_authentication,
          verified_at: row.keyAttestation.verified_at,
        }
      : null,
  };
}
