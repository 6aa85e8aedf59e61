import type { HolderOrganization, Media, MemberRole, Organization, VerificationStatus } from '@cp/contracts';
import { normalizeBrandColor, verificationStatuses } from '@cp/contracts';
import { mediaUrl } from '../media/media.presenter.ts';
import type { MediaRow } from '../media/media.service.ts';
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
    brand_color: normalizeBrandColor(row.brandColor),
    verified: row.verificationStatus === 'APPROVED' && row.verifiedAt !== null,
    verification_status: asStatus(row.verificationStatus),
    require_two_factor: row.requireTwoFactor,
    created_at: row.createdAt.toISOString(),
    role,
  };
}

/**
 * The issuer or verifier on the public holder pages: `logo` as `getOrganizationBrand` answers it (a public logo
 * image of the organization's own), served at an absolute URL anyone can load without signing in.
 */
export function presentHolderOrganization(
  brand: {
    organization: Pick<OrganizationRow, 'name' | 'verificationStatus' | 'verifiedAt' | 'brandColor'>;
    logo: Pick<MediaRow, 'id'> | null;
  },
  publicUrl: string,
): HolderOrganization {
  return {
    name: brand.organization.name,
    logo_url: brand.logo ? mediaUrl(publicUrl, brand.logo.id) : null,
    verified: brand.organization.verificationStatus === 'APPROVED' && brand.organization.verifiedAt !== null,
    brand_color: normalizeBrandColor(brand.organization.brandColor),
  };
}
