/**
 * Sends this tab to the issuer's authorization page (the authorization code flow): the wallet comes back at
 * /receive/callback. Its own module, so that tests can replace it (jsdom does not navigate).
 */
export function goToIssuer(url: string) {
  globalThis.location.assign(url);
}
