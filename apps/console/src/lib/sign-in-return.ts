/** sessionStorage key of the page to come back to after the identity provider's round trip. */
const SIGN_IN_RETURN_KEY = 'sign_in_return';

/** A path of this console only (never another origin: `//host` or `/\host` would leave it). */
const isConsolePath = (path: string) => /^\/(?![/\\])[\w\-./~%]*$/.test(path) && path.length <= 512;

/** Remembers where to land once signed in (an invitation page, for instance). */
export function rememberSignInReturn(path: string): void {
  if (isConsolePath(path)) window.sessionStorage.setItem(SIGN_IN_RETURN_KEY, path);
}

/** The remembered page, once (it is forgotten as it is read), or null. */
export function takeSignInReturn(): string | null {
  const path = window.sessionStorage.getItem(SIGN_IN_RETURN_KEY);
  window.sessionStorage.removeItem(SIGN_IN_RETURN_KEY);
  return path && isConsolePath(path) ? path : null;
}
