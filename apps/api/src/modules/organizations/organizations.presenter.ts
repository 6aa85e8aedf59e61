import type { Media, MemberRole, Organization, VerificationStatus } from '@cp/contracts';
import { verificationStatuses } from '@cp/contracts';
import { organizationDid } from '../organization-keys/identifiers.ts';
import type { OrganizationRow } from './organizations.repository.ts';

const asStatus = (value: string): VerificationStatus =>
  (verificationStatuses as readonly string[]).includes(value) ? (value as VerificationStatus) : 'UNDEFINED';

/**
 * `logo` is the presented media of `row.logoMediaId` (loaded by the caller through the media service); `role` the
 * signed-in user's role in the organization.
 */
export function presentOrganization(
  row: OrganizationRow,
  logo: Media | null,
  publicUrl: string,
  role: MemberRole,
): Organization {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    did: organizationDid(publicUrl, row.id),
    logo:
      logo && logo.id === row.logoMediaId
        ? { id: logo.id, url: logo.url, filename: logo.filename, created_at: logo.created_at }
        : null,
    verified: row.verificationStatus === 'APPROVED' && row.verifiedAt !== null,
    verification_status: asStatus(row.verificationStatus),
    created_at: row.createdAt.toISOString(),
    role,
  };
}
