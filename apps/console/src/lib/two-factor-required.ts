import { useSyncExternalStore } from 'react';

/**
 * Organizations that answered 403 ORGANIZATION_TWO_FACTOR_REQUIRED to this session: they require two-step sign-in
 * and this session was opened with one step. The API client records them; the shell shows a screen saying so in
 * place of the page. A new sign-in reloads the app, which starts with an empty set.
 */
const organizations = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;

export function markTwoFactorRequired(organizationId: string): void {
  if (organizations.has(organizationId)) return;
  organizations.add(organizationId);
  version += 1;
  for (const listener of listeners) listener();
}

export function clearTwoFactorRequired(): void {
  if (organizations.size === 0) return;
  organizations.clear();
  version += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the organization refused this session for want of a two-step sign-in. */
export function useTwoFactorRequired(organizationId: string | undefined): boolean {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  return organizationId !== undefined && organizations.has(organizationId);
}
