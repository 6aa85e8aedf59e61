import { didWebFromUrl } from '@cp/credentials';
import { isPlatformSchemaSlug } from '../credential-schemas/platform-credential-schemas.ts';

/** The organization's credential issuer identifier (OpenID4VCI) and SD-JWT VC `iss`. */
export const issuerUrl = (publicUrl: string, organizationId: string) => `${publicUrl}/orgs/${organizationId}`;

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
