import { certificateFingerprint, pemCertificates } from '@cp/credentials';
import { http, isObject } from './http.ts';

/**
 * The platform that serves this wallet, and the certificate authorities it vouches for: the platform CA
 * (which certifies every organization of the platform) and the platform-wide trust anchors. The wallet's
 * own server says where the platform is (`/config.json`: `{"platform_url": …}`); the certificates come
 * from the platform (`/api/platform/ca.pem`, `/api/platform/trust-anchors.pem`).
 */
export interface PlatformTrust {
  /** The platform's public URL (PUBLIC_URL). */
  url: string;
  /** What the holder is shown: the platform's host. */
  name: string;
  /** PEM certificates that may end an issuer's `x5c` path: the platform CA first, then the other anchors. */
  anchors: string[];
  /** SHA-256 of the platform CA (as CertificationPath.anchor.fingerprint), null when it could not be read. */
  caFingerprint: string | null;
  /** Both bundles were read: a chain that ends at none of the anchors is really not certified by them. */
  complete: boolean;
}

/** Successful reads are kept for this long; failures are retried on the next call. */
const TTL_MS = 60 * 60 * 1000;
let cached: { at: number; trust: Promise<PlatformTrust | null> } | undefined;

async function readBundle(url: string): Promise<string[] | null> {
  try {
    const answer = await http(url, { headers: { accept: 'application/x-pem-file' } });
    return answer.ok ? pemCertificates(answer.text) : null;
  } catch {
    return null;
  }
}

async function readPlatformUrl(): Promise<string | null> {
  const base = globalThis.location?.href;
  if (!base) return null;
  try {
    const answer = await http(new URL('/config.json', base).href, { headers: { accept: 'application/json' } });
    const value = answer.ok && isObject(answer.json) ? answer.json.platform_url : undefined;
    if (typeof value !== 'string') return null;
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href.replace(/\/+$/, '') : null;
  } catch {
    return null;
  }
}

/** The certificates of a bundle that parse, each with its fingerprint (one bad entry must not spoil the rest). */
async function parsed(pems: string[]): Promise<{ pem: string; fingerprint: string }[]> {
  const results = await Promise.all(
    pems.map(async (pem) => {
      try {
        return { pem, fingerprint: await certificateFingerprint(pem) };
      } catch {
        return null;
      }
    }),
  );
  return results.filter((entry) => entry !== null);
}

/** Reads the platform's trust now; null when the wallet does not know its platform or cannot reach it. */
export async function readPlatformTrust(): Promise<PlatformTrust | null> {
  const url = await readPlatformUrl();
  if (!url) return null;
  const [caBundle, othersBundle] = await Promise.all([
    readBundle(`${url}/api/platform/ca.pem`),
    readBundle(`${url}/api/platform/trust-anchors.pem`),
  ]);
  const ca = (await parsed(caBundle ?? []))[0];
  const others = await parsed(othersBundle ?? []);
  if (!ca && others.length === 0) return null;
  const anchors = [...new Set([...(ca ? [ca.pem] : []), ...others.map((entry) => entry.pem)])];
  return {
    url,
    name: new URL(url).host,
    anchors,
    caFingerprint: ca?.fingerprint ?? null,
    complete: Boolean(ca) && othersBundle !== null,
  };
}

/** The platform's trust, read once an hour at most (a failed read is not kept: offline now, online later). */
export function loadPlatformTrust(now = Date.now()): Promise<PlatformTrust | null> {
  if (cached && now - cached.at < TTL_MS) return cached.trust;
  const trust = readPlatformTrust();
  const entry = { at: now, trust };
  cached = entry;
  trust.then(
    (value) => {
      if (value === null || !value.complete) {
        if (cached === entry) cached = undefined;
      }
    },
    () => {
      if (cached === entry) cached = undefined;
    },
  );
  return trust;
}

/** Forgets what was read (tests, and a wallet that learns its platform changed). */
export function forgetPlatformTrust(): void {
  cached = undefined;
}
