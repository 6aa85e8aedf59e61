import {
  decodeJwt,
  didWebFromUrl,
  type PresentationVerifierDeps,
  type ResolvedIssuerKey,
  resolveIssuerKey,
  verifyJwtSignature,
  verifyX5cChain,
} from '@cp/credentials';
import { outboundRequest } from '../../lib/outbound-http.ts';

/** Fetching what a presented credential points at (DID documents, issuer metadata, status lists). */
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

export interface ResolverOptions {
  fetcher: ResourceFetcher;
  /** PEM certificates trusted for `x5c` chains: the platform CA and any configured anchors. */
  trustAnchorsPem: string[];
  allowHttp: boolean;
}

const trimSlash = (value: string) => value.replace(/\/+$/, '');

/** A verified chain is good for a minute: chains repeat (one per issuer key) and checking one is costly. */
const CHAIN_CACHE_MS = 60_000;
const CHAIN_CACHE_MAX = 500;

/**
 * Issuer key resolution for presentations: an `x5c` chain up to a trusted anchor whose leaf names the
 * issuer (HAIP), else a DID in `kid`/`iss` (did:jwk, did:key, did:web), else JWT VC Issuer Metadata at
 * the `iss` URL.
 */
export function presentationResolvers(options: ResolverOptions): PresentationVerifierDeps {
  const fetchJson = async (url: string) => JSON.parse(await options.fetcher.text(url, 'application/json')) as unknown;
  const allowHttp = () => options.allowHttp;
  const chains = new Map<string, { at: number; chain: ReturnType<typeof verifyX5cChain> }>();
  const verifyChain = (x5c: string[]) => {
    const key = x5c.join('.');
    const hit = chains.get(key);
    if (hit && Date.now() - hit.at < CHAIN_CACHE_MS) return hit.chain;
    const chain = verifyX5cChain(x5c, options.trustAnchorsPem);
    chains.set(key, { at: Date.now(), chain });
    chain.catch(() => chains.delete(key));
    if (chains.size > CHAIN_CACHE_MAX) chains.delete(chains.keys().next().value as string);
    return chain;
  };

  async function resolve(header: Record<string, unknown>, payload: Record<string, unknown>) {
    const iss = typeof payload.iss === 'string' ? payload.iss : undefined;
    const x5c = header.x5c;
    let x5cProblem: string | undefined;
    if (Array.isArray(x5c) && x5c.every((c) => typeof c === 'string')) {
      try {
        const chain = await verifyChain(x5c as string[]);
        if (!iss) throw new Error('The credential names no issuer');
        const named =
          chain.uris.some((uri) => trimSlash(uri) === trimSlash(iss)) ||
          (/^https?:\/\//.test(iss) && chain.dnsNames.includes(new URL(iss).hostname) && chain.uris.length === 0);
        if (!named) throw new Error('The certificate is not for this issuer');
        const identifiers = [iss, ...(/^https?:\/\//.test(iss) ? [didWebFromUrl(iss)] : [])];
        return { jwk: chain.leafJwk, identifiers } satisfies ResolvedIssuerKey;
      } catch (err) {
        x5cProblem = err instanceof Error ? err.message : String(err);
      }
    }
    try {
      const jwk = await resolveIssuerKey(header, payload, fetchJson, { allowHttp });
      const kid = typeof header.kid === 'string' ? header.kid : '';
      const identifiers = [iss, kid.startsWith('did:') ? kid.split('#')[0] : undefined].filter(
        (v): v is string => typeof v === 'string',
      );
      return { jwk, identifiers } satisfies ResolvedIssuerKey;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(x5cProblem ? `${x5cProblem}; ${reason}` : reason);
    }
  }

  return {
    resolveIssuerKey: resolve,
    async fetchStatusListToken(uri, issuer) {
      const token = await options.fetcher.text(uri, 'application/statuslist+jwt');
      const { header } = decodeJwt(token);
      if (header.typ !== 'statuslist+jwt') throw new Error('Not a status list token');
      // Signed by the credential's issuer: its own key, or (after a key rotation) a key that resolves
      // to the same issuer.
      if (await verifyJwtSignature(token, issuer.jwk)) return token;
      const own = await resolve(header, { iss: issuer.identifiers[0] });
      const sameIssuer = own.identifiers.some((id) => issuer.identifiers.includes(id));
      if (!sameIssuer || !(await verifyJwtSignature(token, own.jwk))) {
        throw new Error('The status list token is not signed by the issuer');
      }
      return token;
    },
  };
}
