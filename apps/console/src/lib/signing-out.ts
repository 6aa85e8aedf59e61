/**
 * Where a sign-out started in this tab stands (features/auth/api/logout.ts):
 * - `ending`: the console's session is being ended at the API. Requests still in flight meet a revoked session; their
 *   401 must not send the page to /intro by itself (api-client.ts, route errors): the sign-out decides where it goes.
 * - `leaving`: the console's session has ended and the browser leaves for the identity provider's sign-out, which
 *   returns it to /intro: the route guard shows nothing meanwhile.
 * Without them the console's own /intro and the provider's page were two navigations racing each other.
 */
let phase: 'ending' | 'leaving' | null = null;

export function beginSignOut(): void {
  phase = 'ending';
}

/** Signed out; `leaving` when the browser goes on to the provider's sign-out, otherwise the console navigates itself. */
export function finishSignOut({ leaving }: { leaving: boolean }): void {
  phase = leaving ? 'leaving' : null;
}

export function isLeavingForSignOut(): boolean {
  return phase === 'leaving';
}

/** True from the start of a sign-out until the console navigates by itself again. */
export function isSigningOut(): boolean {
  return phase !== null;
}
