import { bindIssuerKey, type IssuerBinding, type IssuerTrustOptions } from '@cp/credentials';
import { fetchJson, isLocalHost } from './http.ts';
import type { PlatformTrust } from './platform-trust.ts';
import type { IssuerAssurance, IssuerInfo } from './types.ts';

/**
 * The issuer key of an SD-JWT VC or status list token, decided by the same trust function as the
 * verifier's (bindIssuerKey): an `x5c` path whose leaf names the issuer, the issuer's own DID, or its JWT
 * VC Issuer Metadata. The anchors are the platform's (its CA first, then the platform-wide anchors); a
 * chain none of them vouches for is still accepted, as self-asserted (`anchored: false`), when it holds
 * together and names the issuer the wallet received from — the holder chose to talk to that issuer.
 */

export interface ResolvedKey {
  jwk: JsonWebKey;
  keySource: NonNullable<IssuerInfo['keySource']>;
  binding: IssuerBinding;
  assurance: IssuerAssurance;
}

/** The options of every bindIssuerKey / verifyStatusListToken call the wallet makes. */
export function issuerTrustOptions(trust: PlatformTrust | null, now?: Date): IssuerTrustOptions {
  return {
    fetchJson,
    trustAnchors: trust?.anchors ?? [],
    allowHttp: isLocalHost,
    allowSelfAnchoredChain: true,
    ...(now ? { now } : {}),
  };
}

export async function resolveSignerKey(
  header: Record<string, unknown>,
  payload: { iss?: unknown },
  trust: PlatformTrust | null,
): Promise<ResolvedKey> {
  const binding = await bindIssuerKey(header, payload, issuerTrustOptions(trust));
  return { jwk: binding.jwk, keySource: binding.source, binding, assurance: issuerAssurance(binding, trust) };
}

/** `CN=Example Root, O=Example` → `Example Root` (the whole subject when it has no common name). */
export function commonName(subject: string): string {
  const match = /(?:^|[,+]\s*)CN=((?:\\.|[^,+])+)/i.exec(subject);
  return (match?.[1] ?? subject).replace(/\\(.)/g, '$1').trim();
}

/** The issuer as the holder knows it: the host of an https issuer, the DID of a DID issuer. */
function issuerName(iss: string): string {
  try {
    const url = new URL(iss);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.host;
  } catch {
    // A DID.
  }
  return iss;
}

/**
 * How sure the wallet is of the issuer, from the binding: certified by this platform (the path ends at
 * the platform CA), by a platform-wide anchor, or self-asserted. Only a path validated to an anchor counts
 * as certified; without the platform's anchors (offline) a chain is self-asserted, marked provisional.
 */
export function issuerAssurance(
  binding: IssuerBinding,
  trust: PlatformTrust | null,
  now = new Date(),
): IssuerAssurance {
  const checkedAt = now.toISOString();
  const anchor = binding.certificate?.anchored ? binding.certificate.path?.anchor : undefined;
  if (binding.source === 'x5c' && anchor && trust) {
    if (trust.caFingerprint !== null && anchor.fingerprint === trust.caFingerprint) {
      return { level: 'platform', by: trust.name, source: 'x5c', checkedAt };
    }
    return { level: 'anchor', by: commonName(anchor.subject), source: 'x5c', checkedAt };
  }
  return {
    level: 'self',
    by: issuerName(binding.iss),
    source: binding.source,
    ...(binding.source === 'x5c' && !trust?.complete ? { provisional: true } : {}),
    checkedAt,
  };
}
