import { p256 } from '@noble/curves/nist.js';
import { base58 } from '@scure/base';
import { base64url, decodeJson, fromBase64url } from './encoding.ts';
import { publicJwk } from './jws.ts';

/** Fetches and parses JSON (passed in: this package does no I/O of its own). */
export type FetchJson = (url: string) => Promise<unknown>;

export interface DidDocument {
  id: string;
  verificationMethod?: { id: string; type: string; controller: string; publicKeyJwk?: JsonWebKey }[];
  assertionMethod?: (string | { id: string })[];
  authentication?: (string | { id: string })[];
  [key: string]: unknown;
}

// ---- did:jwk (https://github.com/quartzjer/did-jwk) ----------------------------------------------

export function didJwkFromJwk(jwk: JsonWebKey): string {
  return `did:jwk:${base64url(JSON.stringify(publicJwk(jwk)))}`;
}

export function resolveDidJwk(did: string): DidDocument {
  const jwk = publicJwk(decodeJson<JsonWebKey>(did.slice('did:jwk:'.length)));
  const id = `${did}#0`;
  return {
    id: did,
    verificationMethod: [{ id, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk }],
    assertionMethod: [id],
    authentication: [id],
  };
}

// ---- did:key for P-256 (multicodec p256-pub 0x1200, compressed point, base58btc) ------------------

const P256_MULTICODEC = Uint8Array.from([0x80, 0x24]);

export function didKeyFromJwk(jwk: JsonWebKey): string {
  const key = publicJwk(jwk);
  if (key.crv !== 'P-256') throw new Error('did:key is supported for P-256 keys');
  const uncompressed = new Uint8Array([0x04, ...fromBase64url(key.x!), ...fromBase64url(key.y!)]);
  const compressed = p256.Point.fromBytes(uncompressed).toBytes(true);
  return `did:key:z${base58.encode(new Uint8Array([...P256_MULTICODEC, ...compressed]))}`;
}

export function resolveDidKey(did: string): DidDocument {
  const identifier = did.slice('did:key:'.length);
  if (!identifier.startsWith('z')) throw new Error('did:key must be base58btc (z…)');
  const bytes = base58.decode(identifier.slice(1));
  if (bytes[0] !== P256_MULTICODEC[0] || bytes[1] !== P256_MULTICODEC[1] || bytes.length !== 35) {
    throw new Error('Only P-256 did:key identifiers are supported');
  }
  const point = p256.Point.fromBytes(bytes.slice(2)).toBytes(false);
  const jwk: JsonWebKey = {
    kty: 'EC',
    crv: 'P-256',
    x: base64url(point.slice(1, 33)),
    y: base64url(point.slice(33, 65)),
  };
  const id = `${did}#${identifier}`;
  return {
    id: did,
    verificationMethod: [{ id, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk }],
    assertionMethod: [id],
    authentication: [id],
  };
}

// ---- did:web (https://w3c-ccg.github.io/did-method-web/) ---------------------------------------------

/** `did:web:example.com%3A3000:orgs:42` → `https://example.com:3000/orgs/42/did.json`. */
export function didWebToUrl(did: string, options: { allowHttp?: (host: string) => boolean } = {}): string {
  const [domain, ...path] = did.slice('did:web:'.length).split(':');
  if (!domain) throw new Error('did:web without a domain');
  const host = decodeURIComponent(domain);
  if (/[/?#@]/.test(host)) throw new Error('did:web domain is not valid');
  const scheme = options.allowHttp?.(host) ? 'http' : 'https';
  const suffix = path.length > 0 ? `/${path.map(decodeURIComponent).join('/')}/did.json` : '/.well-known/did.json';
  return `${scheme}://${host}${suffix}`;
}

/** `https://example.com:3000/orgs/42` → `did:web:example.com%3A3000:orgs:42`. */
export function didWebFromUrl(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.split('/').filter(Boolean).map(encodeURIComponent);
  return ['did:web', encodeURIComponent(parsed.host), ...path].join(':');
}

export async function resolveDidWeb(
  did: string,
  fetchJson: FetchJson,
  options: { allowHttp?: (host: string) => boolean } = {},
): Promise<DidDocument> {
  const document = (await fetchJson(didWebToUrl(did, options))) as DidDocument;
  if (!document || document.id !== did) throw new Error('The DID document does not describe this DID');
  return document;
}

export async function resolveDid(
  did: string,
  fetchJson: FetchJson,
  options: { allowHttp?: (host: string) => boolean } = {},
): Promise<DidDocument> {
  if (did.startsWith('did:jwk:')) return resolveDidJwk(did);
  if (did.startsWith('did:key:')) return resolveDidKey(did);
  if (did.startsWith('did:web:')) return resolveDidWeb(did, fetchJson, options);
  throw new Error(`Unsupported DID method: ${did.split(':').slice(0, 2).join(':')}`);
}

/** The public JWK of a DID URL (`did:…#fragment`), or of the DID's only assertion key. */
export async function resolveDidKeyReference(
  didUrl: string,
  fetchJson: FetchJson,
  options: { allowHttp?: (host: string) => boolean } = {},
): Promise<JsonWebKey> {
  const [did, fragment] = didUrl.split('#');
  const document = await resolveDid(did!, fetchJson, options);
  const methods = document.verificationMethod ?? [];
  const method = fragment
    ? methods.find((m) => m.id === didUrl || m.id === `#${fragment}`)
    : methods.length === 1
      ? methods[0]
      : undefined;
  if (!method?.publicKeyJwk) throw new Error(`No verification method ${didUrl}`);
  return publicJwk(method.publicKeyJwk);
}

// ---- JWT VC Issuer Metadata (SD-JWT VC §5) ---------------------------------------------------------

/** `https://host/orgs/42` → `https://host/.well-known/jwt-vc-issuer/orgs/42`. */
export function jwtVcIssuerMetadataUrl(issuer: string): string {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/jwt-vc-issuer${path}`;
}
