/** Where a scanned or pasted text leads: the receive flow (OpenID4VCI offer) or the present flow (OpenID4VP request). */
export type LinkTarget = { to: 'receive'; offer: string } | { to: 'present'; request: string };

const OFFER_SCHEMES = ['openid-credential-offer:', 'haip-vci:'];
const REQUEST_SCHEMES = ['openid4vp:', 'eudi-openid4vp:', 'haip-vp:', 'mdoc-openid4vp:'];

export function classifyLink(input: string): LinkTarget | null {
  const text = input.trim();
  if (!text) return null;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url) {
    const scheme = url.protocol.toLowerCase();
    if (OFFER_SCHEMES.includes(scheme)) return { to: 'receive', offer: text };
    if (REQUEST_SCHEMES.includes(scheme)) return { to: 'present', request: text };
    if (scheme === 'https:' || scheme === 'http:') {
      // A link to this wallet (`…/receive?offer=…`, `…/present?request=…`), e.g. from the console's claim page.
      const offer = url.searchParams.get('offer');
      if (offer) return { to: 'receive', offer };
      const request = url.searchParams.get('request');
      if (request) return { to: 'present', request };
      // A same-device link that carries the parameters directly.
      if (url.searchParams.has('credential_offer') || url.searchParams.has('credential_offer_uri')) {
        return { to: 'receive', offer: text };
      }
      if (
        url.searchParams.has('client_id') &&
        (url.searchParams.has('request_uri') || url.searchParams.has('request'))
      ) {
        return { to: 'present', request: text };
      }
    }
    return null;
  }
  // An offer pasted as JSON (credential offer by value).
  if (text.startsWith('{') && text.includes('credential_issuer')) return { to: 'receive', offer: text };
  return null;
}

export function targetPath(target: LinkTarget): string {
  return target.to === 'receive'
    ? `/receive?offer=${encodeURIComponent(target.offer)}`
    : `/present?request=${encodeURIComponent(target.request)}`;
}
