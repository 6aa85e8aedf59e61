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

/**
 * Spec §2 guard: blank while the organization list loads; without a loaded list (not signed in, or loading
 * failed) everything but /intro goes to /intro; signed in, /intro goes to /credentials.
 */
export function decideGuard(path: string, status: IdentityStatus, organizationCount: number): GuardDecision {
  if (isAlwaysPublic(path)) return { kind: 'render' };
  if (status === 'loading') return { kind: 'blank' };
  const signedIn = status === 'succeeded';
  if (path === '/intro') return signedIn ? { kind: 'redirect', to: '/credentials' } : { kind: 'render' };
  if (!signedIn) return { kind: 'redirect', to: '/intro' };
  // Platform administrators review KYB whether or not they belong to an organization (the page
  // itself checks the role through the API).
  if (organizationCount === 0 && !path.startsWith('/admin/')) return { kind: 'no-organization' };
  return { kind: 'render' };
}
