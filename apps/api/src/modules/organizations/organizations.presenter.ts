import type { Organization, VerificationStatus } from '@cp/contracts';
import { verificationStatuses } from '@cp/contracts';
import type { OrganizationRow } from './organizations.repository.ts';

const asStatus = (value: string): VerificationStatus =>
  (verificationStatuses as readonly string[]).includes(value) ? (value as VerificationStatus) : 'UNDEFINED';

export function presentOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // The organization's DID arrives with the credential engine (keys and did:web).
    did: null,
    logo: null,
    verified: row.verifiedAt !== null,
    verification_status: asStatus(row.verificationStatus),
    created_at: row.createdAt.toISOString(),
  };
}
