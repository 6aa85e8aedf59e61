import { outboundRequest } from './outbound-http.ts';

/** Fetching public documents a credential or an anchor points at (DID documents, issuer metadata, status lists, trusted lists). */
export interface ResourceFetcher {
  /** The body of `url` as text; throws with a short reason on any failure. */
  text(url: string, accept: string): Promise<string>;
}

export interface HttpFetcherOptions {
  /** Plain http:// only outside production (local development and tests). */
  allowHttp: boolean;
  /** OUTBOUND_ALLOW_PRIVATE_NETWORKS: may documents be fetched from loopback/private addresses? */
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * Real HTTP with limits: a timeout, a size cap, no redirects, https only in production, and public
 * addresses only unless private networks are allowed (lib/outbound-http: checked at connection time).
 */
export function httpFetcher(options: HttpFetcherOptions): ResourceFetcher {
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 1_000_000;
  const policy = { allowHttp: options.allowHttp, allowPrivateNetworks: options.allowPrivateNetworks };
  return {
    async text(url, accept) {
      const parsed = new URL(url);
      const response = await outboundRequest(parsed, policy, {
        method: 'GET',
        headers: { accept, 'user-agent': 'CredentialPlatform-Verifier/1.0' },
        timeoutMs,
        maxBytes,
      });
      if (response.status < 200 || response.status >= 300) {
        throw new Error(`HTTP ${response.status} from ${parsed.host}`);
      }
      return new TextDecoder().decode(response.body);
    },
  };
}
