/**
 * Set once the console leaves for the identity provider's sign-out (features/auth/api/logout.ts): the route guard
 * then shows nothing instead of sending the page to /intro, where the provider returns the browser anyway. Without
 * it the guard's /intro and the provider's page were two navigations racing each other after every sign-out.
 */
let leaving = false;

export function markLeavingForSignOut(): void {
  leaving = true;
}

export function isLeavingForSignOut(): boolean {
  return leaving;
}
