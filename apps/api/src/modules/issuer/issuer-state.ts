import { hmacSha256, safeEqual } from '../../lib/crypto.ts';

/**
 * The `issuer_state` of an offer (OpenID4VCI 1.0 §4.1.1, authorization code grant): `<offer id>.<HMAC>` under
 * the offer-code key, like the pre-authorized code derived from the offer id. It cannot be forged, needs no
 * column, and names the offer at the pushed authorization request.
 */
export function issuerState(deps: { credentials: { offerCodeKey: Buffer } }, offerId: string) {
  const mac = hmacSha256(deps.credentials.offerCodeKey).update(`issuer-state:${offerId}`).digest('base64url');
  return `${offerId}.${mac}`;
}

/** The offer id an `issuer_state` names, when it is one of this server's. */
export function offerOfIssuerState(deps: { credentials: { offerCodeKey: Buffer } }, value: string) {
  const match = /^([0-9a-f-]{36})\.[\w-]{43}$/.exec(value);
  if (!match) return undefined;
  return safeEqual(issuerState(deps, match[1]!), value) ? match[1] : undefined;
}
