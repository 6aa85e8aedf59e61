import type { Organization } from '@cp/contracts';
import { useIdentity } from './identity-context.ts';

/**
 * Whether the user is an admin of the organization: members and invitations, API keys, webhooks, trust anchors, the
 * organization profile and KYB. The API enforces the same rule on every call; the console hides or disables what it
 * would refuse. An organization answered without a role (an API from before roles) had admins only: full rights.
 */
export const isOrganizationAdmin = (organization: Pick<Organization, 'role'> | null | undefined): boolean =>
  Boolean(organization) && organization?.role !== 'member';

/** Whether the user is an admin of the current organization. */
export function useIsOrganizationAdmin(): boolean {
  return isOrganizationAdmin(useIdentity().current);
}
