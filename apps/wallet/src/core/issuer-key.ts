import {
  didWebFromUrl,
  resolveDidKeyReference,
  resolveIssuerKey,
  resolveIssuerMetadataKey,
  type VerifiedChain,
  verifyX5cChain,
} from '@cp/credentials';
import { fetchJson, isLocalHost } from './http.ts';
import type { IssuerInfo } from './types.ts';

/**
 * The issuer key of an SD-JWT VC or status list token, from public information only. A wallet has no
 * platform trust anchor: an `x5c` chain must be internally consistent (each certificate signed by the
 * next, all valid now) and its leaf must name the issuer (SAN URI = `iss`, or SAN DNS = its host).
 * Otherwise the JWT VC Issuer Metadata of an https issuer, otherwise a DID.
 */

export interface ResolvedKey {
  jwk: JsonWebKey;
  keySource: NonNullable<IssuerInfo['keySource']>;
  chain?: VerifiedChain;
}

const didOptions = { allowHttp: isLocalHost };

/** Checks an x5c chain for internal consistency: anchored at its own last certificate. */
export async function consistentChain(x5c: unknown): Promise<VerifiedChain> {
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string')) {
    throw new Error('x5c is not an array of certificates');
  }
  return verifyX5cChain(x5c as string[], [x5c[x5c.length - 1] as string]);
}

/** Whether a certificate's SAN names this issuer (URI, or DNS name of an https issuer's host). */
export function chainNamesIssuer(chain: VerifiedChain, iss: string): boolean {
  const trim = (value: string) => value.replace(/\/+$/, '');
  if (chain.uris.some((uri) => trim(uri) === trim(iss))) return true;
  try {
    const url = new URL(iss);
    return (
      /^https?:$/.test(url.protocol) && chain.dnsNames.some((dns) => dns.toLowerCase() === url.hostname.toLowerCase())
    );
  } catch {
    return false;
  }
}

export async function resolveSignerKey(
  header: Record<string, unknown>,
  payload: { iss?: unknown },
): Promise<ResolvedKey> {
  const iss = typeof payload.iss === 'string' ? payload.iss : undefined;
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const problems: string[] = [];
  if (header.x5c !== undefined && iss) {
    try {
      const chain = await consistentChain(header.x5c);
      if (chainNamesIssuer(chain, iss)) return { jwk: chain.leafJwk, keySource: 'x5c', chain };
      problems.push('the x5c certificate does not name the issuer');
    } catch (err) {
      problems.push(`x5c: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (iss && /^https?:\/\//.test(iss)) {
    // An https issuer: its JWT VC Issuer Metadata, or its own did:web (the DID derived from the URL).
    const did = kid?.startsWith('did:') ? kid.split('#')[0] : undefined;
    try {
      const metadataKid = did ? kid!.slice(did.length + 1) || undefined : kid;
      return { jwk: await resolveIssuerMetadataKey(iss, metadataKid, fetchJson), keySource: 'metadata' };
    } catch (err) {
      problems.push(`metadata: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (did) {
      try {
        if (did !== didWebFromUrl(iss)) throw new Error("The kid names a DID that is not the issuer's");
        return { jwk: await resolveDidKeyReference(kid!, fetchJson, didOptions), keySource: 'did' };
      } catch (err) {
        problems.push(`did: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } else if (iss?.startsWith('did:')) {
    try {
      // The key must be one of the issuer DID's own (a relative kid, or a DID URL of the same DID).
      if (kid?.startsWith('did:') && kid.split('#')[0] !== iss) throw new Error('The kid names another DID than iss');
      return {
        jwk: await resolveIssuerKey(header, payload as Record<string, unknown>, fetchJson, didOptions),
        keySource: 'did',
      };
    } catch (err) {
      problems.push(`did: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`The issuer key cannot be established (${problems.join('; ') || 'no x5c, metadata or DID'})`);
}
