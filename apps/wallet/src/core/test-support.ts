import {
  createCaCertificate,
  generateEs256KeyPair,
  issueLeafCertificate,
  type JwsSigner,
  pemToX5c,
  signerFromPrivateJwk,
} from '@cp/credentials';
import { vi } from 'vitest';

/** Test helpers for the core's unit tests (not shipped: imported by *.test.ts only). */

/**
 * jsdom gives the tests its own ArrayBuffer, which Node's WebCrypto refuses as a bare argument (a
 * typed-array view of it is fine). @peculiar/x509 passes bare ArrayBuffers; a browser has one realm and
 * no such problem. So, in tests only, bare ArrayBuffers are wrapped in a view before reaching WebCrypto.
 */
function bridgeRealms() {
  const subtle = globalThis.crypto.subtle as unknown as Record<string, (...args: unknown[]) => unknown>;
  const isBareBuffer = (value: unknown) =>
    Object.prototype.toString.call(value) === '[object ArrayBuffer]' && !(value instanceof Uint8Array);
  for (const name of ['digest', 'importKey', 'sign', 'verify', 'encrypt', 'decrypt', 'deriveBits', 'unwrapKey']) {
    const original = subtle[name];
    if (typeof original !== 'function' || (original as { bridged?: boolean }).bridged) continue;
    const bridged = (...args: unknown[]) =>
      original.apply(
        globalThis.crypto.subtle,
        args.map((arg) => (isBareBuffer(arg) ? new Uint8Array(arg as ArrayBuffer) : arg)),
      );
    Object.assign(bridged, { bridged: true });
    Object.defineProperty(globalThis.crypto.subtle, name, { value: bridged, configurable: true, writable: true });
  }
}
bridgeRealms();

export type Route = (request: {
  method: string;
  url: URL;
  body: string;
  headers: Headers;
}) => Response | Promise<Response>;

/** Replaces fetch with a router over absolute URLs (`METHOD url` or `url` for any method); unknown → 404. */
export function stubFetch(routes: Record<string, Route>) {
  const calls: { method: string; url: string; body: string; headers: Headers }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? init.body : '';
    const headers = new Headers(init.headers);
    calls.push({ method, url: url.href, body, headers });
    const route = routes[`${method} ${url.href}`] ?? routes[url.href];
    if (!route) return new Response('{"error":"not_found"}', { status: 404 });
    return route({ method, url, body, headers });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
export const text = (value: string, contentType: string, status = 200) =>
  new Response(value, { status, headers: { 'content-type': contentType } });

export interface TestIdentity {
  signer: JwsSigner;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  /** Leaf first, then the CA. */
  x5c: string[];
}

/** A key with a certificate from a throwaway CA, naming `uris` / `dnsNames` in its SAN. */
export async function certifiedKey(input: {
  uris?: string[];
  dnsNames?: string[];
  commonName?: string;
}): Promise<TestIdentity> {
  const ca = await generateEs256KeyPair();
  const caPem = await createCaCertificate({ commonName: 'Test CA', ...ca });
  const key = await generateEs256KeyPair();
  const leafPem = await issueLeafCertificate({
    subject: { commonName: input.commonName ?? 'Test Party', organization: 'Test Org' },
    publicJwk: key.publicJwk,
    caCertificatePem: caPem,
    caPrivateJwk: ca.privateJwk,
    ...(input.uris ? { uris: input.uris } : {}),
    ...(input.dnsNames ? { dnsNames: input.dnsNames } : {}),
  });
  return { ...key, signer: await signerFromPrivateJwk(key.privateJwk), x5c: pemToX5c([leafPem, caPem]) };
}

/** Where the wallet reads its platform's URL (its own server's `/config.json`). */
export const walletConfigUrl = () => new URL('/config.json', globalThis.location.href).href;

/**
 * The routes of a platform that serves this wallet: the wallet's `/config.json` naming it, its CA and its
 * platform-wide trust anchors. `ca: null`: the platform cannot be read (its CA endpoint fails).
 */
export function platformRoutes(
  platformUrl: string,
  pems: { ca: string | null; anchors?: string[] },
): Record<string, Route> {
  return {
    [walletConfigUrl()]: () => json({ platform_url: platformUrl }),
    [`${platformUrl}/api/platform/ca.pem`]: () =>
      pems.ca === null ? Promise.reject(new TypeError('Failed to fetch')) : text(pems.ca, 'application/x-pem-file'),
    [`${platformUrl}/api/platform/trust-anchors.pem`]: () =>
      pems.ca === null
        ? Promise.reject(new TypeError('Failed to fetch'))
        : text((pems.anchors ?? []).join('\n'), 'application/x-pem-file'),
  };
}
