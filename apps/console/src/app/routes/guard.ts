import type { IdentityStatus } from '../../lib/identity-context.ts';

export type GuardDecision =
  | { kind: 'render' }
  | { kind: 'blank' }
  | { kind: 'redirect'; to: string }
  | { kind: 'no-organization' };

/**
 * Holder pages, the provider's return page and invitation links work without a session (spec §6); an invitation
 * link also works for someone signed in with no organization yet.
 */
export const isAlwaysPublic = (path: string) =>
  path === '/oauth/socious' ||
  path.startsWith('/oauth/socious/') ||
  path.startsWith('/connect/') ||
  path.startsWith('/invitations/');

/** The credential list of an organization: where a signed-in user lands. */
export const credentialListPath = (organizationId: string) => `/credentials/${encodeURIComponent(organizationId)}`;

/**
 * Spec §2 guard: blank while the organization list loads; without a loaded list (not signed in, or loading
 * failed) everything but /intro goes to /intro; signed in, /intro goes to /credentials.
 *
 * `/credentials` itself is the spec's "complete your organization profile" prompt, meant for someone with no
 * organization to act for. With a current organization it is only a way in (sign-in, the create-organization
 * form, `/` all lead there), so it goes on to that organization's credential list: an organization whose profile
 * lacks a description or logo gets a hint on the list, not a page in its way.
 */
export function decideGuard(path: string, status: IdentityStatus, currentOrganizationId: string | null): GuardDecision {
  if (isAlwaysPublic(path)) return { kind: 'render' };
  if (status === 'loading') return { kind: 'blank' };
  const signedIn = status === 'succeeded';
  if (!signedIn) return path === '/intro' ? { kind: 'render' } : { kind: 'redirect', to: '/intro' };
  const landing = currentOrganizationId ? credentialListPath(currentOrganizationId) : '/credentials';
  if (path === '/intro') return { kind: 'redirect', to: landing };
  if (currentOrganizationId && (path === '/credentials' || path === '/credentials/')) {
    return { kind: 'redirect', to: landing };
  }
  // Platform administrators review KYB whether or not they belong to an organization (the page
  // itself checks the role through the API).
  if (!currentOrganizationId && !path.startsWith('/admin/')) return { kind: 'no-organization' };
  return { kind: 'render' };
}
