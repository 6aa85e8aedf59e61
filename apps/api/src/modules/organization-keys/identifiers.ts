import { didWebFromUrl } from '@cp/credentials';
import { isPlatformSchemaSlug } from '../credential-schemas/platform-credential-schemas.ts';

/** The organization's credential issuer identifier (OpenID4VCI) and SD-JWT VC `iss`. */
export const issuerUrl = (publicUrl: string, organizationId: string) => `${publicUrl}/orgs/${organizationId}`;

/**
 * The Token Status List a credential's `status.status_list.uri` names: one per list. The organization's first
 * list also answers at `<issuer>/status-list` (statusListUri with no list), the URI credentials carried before
 * organizations had several lists.
 */
export const statusListUri = (publicUrl: string, organizationId: string, statusListId?: string) =>
  statusListId
    ? `${issuerUrl(publicUrl, organizationId)}/status-lists/${statusListId}`
    : `${issuerUrl(publicUrl, organizationId)}/status-list`;

/** did:web:<host>:orgs:<id>, resolved at <publicUrl>/orgs/<id>/did.json. */
export const organizationDid = (publicUrl: string, organizationId: string) =>
  didWebFromUrl(issuerUrl(publicUrl, organizationId));

/**
 * The SD-JWT VC `vct` of a schema's credentials. The platform's schemas (KYC, certificates) are shared
 * types, the same whoever issues them (`<PUBLIC_URL>/vct/<slug>`), so a verifier can ask for them by one
 * value; an organization's own schema is its issuer's type (`<issuer>/vct/<slug>`).
 */
export const credentialVct = (publicUrl: string, issuingOrganizationId: string, slug: string) =>
  isPlatformSchemaSlug(slug)
    ? `${publicUrl}/vct/${slug}`
    : `${issuerUrl(publicUrl, issuingOrganizationId)}/vct/${slug}`;
