import { didWebFromUrl } from '@cp/credentials';

/** The organization's credential issuer identifier (OpenID4VCI) and SD-JWT VC `iss`. */
export const issuerUrl = (publicUrl: string, organizationId: string) => `${publicUrl}/orgs/${organizationId}`;

/** did:web:<host>:orgs:<id>, resolved at <publicUrl>/orgs/<id>/did.json. */
export const organizationDid = (publicUrl: string, organizationId: string) =>
  didWebFromUrl(issuerUrl(publicUrl, organizationId));
