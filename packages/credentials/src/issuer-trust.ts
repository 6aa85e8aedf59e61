import { decodeJwt, publicJwk, verifyJwtSignature } from './jws.ts';
import { type DidDocument, didWebFromUrl, type FetchJson, jwtVcIssuerMetadataUrl, resolveDid } from './resolve.ts';
import { STATUS_LIST_TYP } from './status-list.ts';
import {
  CertificatePathError,
  type CertificationPath,
  certificateNamesIssuer,
  describeLeaf,
  validateCertificationPath,
  x5cLeafJwk,
} from './x509.ts';

/**
 * The one place that decides "this key speaks for this `iss`" (SD-JWT VC §3.5), for the verifier, the
 * status-list check and the wallet alike. A key counts only when the issuer vouches for it:
 *
 * - `x5c`: a certification path validated up to a trust anchor (validateCertificationPath) whose leaf
 *   names the `iss` (certificateNamesIssuer);
 * - a DID issuer: the key is a verification method of the `iss` DID's own document, authorized for
 *   assertions (a `kid` naming another DID, say a did:jwk of the attacker's key, is refused);
 * - an https issuer: the key is published in its JWT VC Issuer Metadata (or in the did:web document at the
 *   same origin and path, which the same web server controls).
 *
 * Keys carried by the token itself (`jwk` header, a `kid` of another identifier) never count. Which issuers
 * a verifier then admits is a separate decision (its trust policy), taken on the binding answered here.
 */

export type IssuerKeySource = 'x5c' | 'did' | 'metadata';

export interface IssuerBinding {
  iss: string;
  jwk: JsonWebKey;
  source: IssuerKeySource;
  /** x5c: the certificate path; `anchored` false only for a self-anchored chain the caller allowed. */
  certificate?: { subject: string; anchored: boolean; path: CertificationPath | null };
  /** did: the verification method that holds the key. */
  verificationMethod?: string;
  /** Names under which the same issuer is known: its `iss`, and the did:web ↔ https URL of one another. */
  identifiers: string[];
}

export interface IssuerTrustOptions {
  fetchJson: FetchJson;
  /** PEM certificates that may end an `x5c` path. */
  trustAnchors: string[];
  /** Plain http:// for these hosts (local development and tests only). */
  allowHttp?: (host: string) => boolean;
  /**
   * Accept an `x5c` chain that ends at no trust anchor, as self-asserted (`anchored: false`). Only a holder
   * receiving a credential from the very issuer it is talking to may set it; a verifier never does.
   */
  allowSelfAnchoredChain?: boolean;
  now?: Date;
  /** Path validation (a verifier passes a cached one); defaults to validateCertificationPath. */
  validatePath?: (x5c: unknown, anchors: string[], now?: Date) => Promise<CertificationPath>;
}

export class IssuerBindingError extends Error {
  constructor(readonly reasons: string[]) {
    super(`No key of the issuer could be established: ${reasons.join('; ') || 'nothing to resolve'}`);
    this.name = 'IssuerBindingError';
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const trimSlash = (value: string) => value.replace(/\/+$/, '');

/** `did:web:host%3A3000:orgs:42` → `https://host:3000/orgs/42` (the issuer URL at the same origin and path). */
export function issuerUrlFromDidWeb(did: string): string | undefined {
  if (!did.startsWith('did:web:')) return undefined;
  const [domain, ...path] = did.slice('did:web:'.length).split(':');
  if (!domain) return undefined;
  try {
    const url = new URL(`https://${decodeURIComponent(domain)}`);
    url.pathname = path.map(decodeURIComponent).join('/');
    return trimSlash(url.href);
  } catch {
    return undefined;
  }
}

/** Every name of the same issuer: `iss`, and its did:web (of an https `iss`) or https URL (of a did:web). */
export function issuerIdentifiers(iss: string): string[] {
  if (/^https?:\/\//.test(iss)) {
    try {
      return [trimSlash(iss), didWebFromUrl(iss)];
    } catch {
      return [iss];
    }
  }
  const url = issuerUrlFromDidWeb(iss);
  return url ? [iss, url] : [iss];
}

/** Whether two issuer identifiers name the same issuer (trailing slashes and did:web ↔ URL forms aside). */
export function sameIssuer(a: string, b: string): boolean {
  const names = new Set(issuerIdentifiers(a.trim()));
  return issuerIdentifiers(b.trim()).some((name) => names.has(name));
}

const referencesOf = (document: DidDocument, relation: 'assertionMethod') =>
  (document[relation] ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.id));

const absolute = (did: string, id: string) => (id.startsWith('#') ? `${did}${id}` : id);

/**
 * The key of `didUrl` (`did#fragment`) in the document of `did`, only when the document lists it for
 * assertions (W3C DID Core §5.3.2: the relationship credential issuers sign with). Without a fragment:
 * the document's only assertion key.
 */
async function didAssertionKey(did: string, fragment: string | undefined, options: IssuerTrustOptions) {
  const document = await resolveDid(did, options.fetchJson, {
    ...(options.allowHttp ? { allowHttp: options.allowHttp } : {}),
  });
  const assertion = new Set(referencesOf(document, 'assertionMethod').map((id) => absolute(did, id)));
  const embedded = (document.assertionMethod ?? []).filter(
    (entry): entry is { id: string; publicKeyJwk?: JsonWebKey } => typeof entry === 'object' && entry !== null,
  );
  const methods = [...(document.verificationMethod ?? []), ...embedded].filter((m) =>
    assertion.has(absolute(did, m.id)),
  );
  const wanted = fragment ? `${did}#${fragment}` : undefined;
  const candidates = wanted ? methods.filter((m) => absolute(did, m.id) === wanted) : methods;
  if (candidates.length === 0) {
    const listed = (document.verificationMethod ?? []).some((m) => absolute(did, m.id) === wanted);
    throw new Error(
      listed
        ? `${wanted} is not authorized for assertions in the DID document`
        : `The DID document has no key ${wanted ?? 'for assertions'}`,
    );
  }
  if (candidates.length > 1) throw new Error('The DID document has several assertion keys: the kid must name one');
  const method = candidates[0]!;
  const controller = (method as { controller?: unknown }).controller;
  if (controller !== undefined && controller !== did) {
    throw new Error('The verification method is controlled by another DID');
  }
  if (!method.publicKeyJwk) throw new Error('The verification method has no publicKeyJwk');
  return { jwk: publicJwk(method.publicKeyJwk), id: absolute(did, method.id) };
}

interface IssuerMetadata {
  issuer?: unknown;
  jwks?: { keys?: unknown };
  jwks_uri?: unknown;
}

/** A key from the JWT VC Issuer Metadata at `iss` (SD-JWT VC §5): `issuer` must be `iss` itself. */
async function metadataKey(iss: string, kid: string | undefined, options: IssuerTrustOptions) {
  const metadata = (await options.fetchJson(jwtVcIssuerMetadataUrl(iss))) as IssuerMetadata;
  if (typeof metadata?.issuer !== 'string' || trimSlash(metadata.issuer) !== trimSlash(iss)) {
    throw new Error('The issuer metadata names another issuer');
  }
  let jwks = metadata.jwks;
  if (!jwks && typeof metadata.jwks_uri === 'string') {
    const jwksUri = new URL(metadata.jwks_uri);
    // The key set must come from the issuer's own origin: a metadata document cannot lend another host's keys.
    if (jwksUri.origin !== new URL(iss).origin) throw new Error('jwks_uri is not on the issuer’s origin');
    jwks = (await options.fetchJson(jwksUri.href)) as IssuerMetadata['jwks'];
  }
  const keys = Array.isArray(jwks?.keys) ? (jwks.keys as (JsonWebKey & { kid?: string })[]) : [];
  const key = kid ? keys.find((k) => k.kid === kid) : keys.length === 1 ? keys[0] : undefined;
  if (!key)
    throw new Error(
      kid ? `The issuer metadata publishes no key ${kid}` : 'The issuer metadata must name the key (kid)',
    );
  return publicJwk(key);
}

/** An issuer URL: http(s), nothing but scheme, host and path. */
function isIssuerUrl(iss: string): boolean {
  try {
    const url = new URL(iss);
    if (url.username || url.password || url.search || url.hash) return false;
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Documents of an issuer are read over https, or over http for the hosts allowed (development). */
const mayFetch = (iss: string, options: IssuerTrustOptions) => {
  const url = new URL(iss);
  return url.protocol === 'https:' || options.allowHttp?.(url.hostname) === true;
};

/**
 * Establishes the key that speaks for the JWT's `iss`, or throws IssuerBindingError with every reason.
 * `payload.iss` is the issuer claimed; `header` says where its key is (`x5c`, `kid`).
 */
export async function bindIssuerKey(
  header: Record<string, unknown>,
  payload: { iss?: unknown },
  options: IssuerTrustOptions,
): Promise<IssuerBinding> {
  const iss = typeof payload.iss === 'string' && payload.iss.length <= 2048 ? payload.iss : undefined;
  if (!iss) throw new IssuerBindingError(['the credential names no issuer (iss)']);
  const isDid = /^did:[a-z0-9]+:\S+$/.test(iss);
  if (!isDid && !isIssuerUrl(iss)) throw new IssuerBindingError([`the issuer ${iss} is neither a URL nor a DID`]);
  const identifiers = issuerIdentifiers(iss);
  const kid = typeof header.kid === 'string' && header.kid.length > 0 ? header.kid : undefined;
  const reasons: string[] = [];

  // ---- x5c: a certification path to a trust anchor, whose leaf names the issuer -------------------------
  if (header.x5c !== undefined) {
    try {
      const validate = options.validatePath ?? validateCertificationPath;
      let path: CertificationPath | null = null;
      try {
        path = await validate(header.x5c, options.trustAnchors, options.now);
      } catch (err) {
        if (
          !(options.allowSelfAnchoredChain && err instanceof CertificatePathError && err.code === 'CHAIN_UNTRUSTED')
        ) {
          throw err;
        }
      }
      if (path) {
        if (!certificateNamesIssuer(path, iss)) throw new Error(`the certificate does not name the issuer ${iss}`);
        return {
          iss,
          jwk: path.leafJwk,
          source: 'x5c',
          certificate: { subject: path.subject, anchored: true, path },
          identifiers,
        };
      }
      // Self-asserted: the chain must still hold together up to its own last certificate.
      const x5c = header.x5c as string[];
      const last = x5c[x5c.length - 1]!;
      const self =
        x5c.length > 1
          ? await validate(
              x5c.slice(0, -1),
              [`-----BEGIN CERTIFICATE-----\n${last}\n-----END CERTIFICATE-----`],
              options.now,
            )
          : null;
      const leaf = describeLeaf(x5c[0]!);
      const now = options.now ?? new Date();
      if (leaf.notBefore > now || leaf.notAfter < now) throw new Error('the certificate is expired or not yet valid');
      if (!certificateNamesIssuer(self ?? leaf, iss))
        throw new Error(`the certificate does not name the issuer ${iss}`);
      return {
        iss,
        jwk: self?.leafJwk ?? (await x5cLeafJwk(x5c)),
        source: 'x5c',
        certificate: { subject: leaf.subject, anchored: false, path: null },
        identifiers,
      };
    } catch (err) {
      reasons.push(`x5c: ${message(err)}`);
    }
  }

  // ---- A DID issuer: its own document, an assertion key ---------------------------------------------------
  if (isDid) {
    try {
      let fragment: string | undefined;
      if (kid?.startsWith('did:')) {
        const [kidDid, kidFragment] = kid.split('#');
        if (kidDid !== iss) throw new Error(`the kid names ${kidDid}, not the issuer ${iss}`);
        fragment = kidFragment;
      } else if (kid) {
        fragment = kid.startsWith('#') ? kid.slice(1) : kid;
      }
      const { jwk, id } = await didAssertionKey(iss, fragment, options);
      return { iss, jwk, source: 'did', verificationMethod: id, identifiers };
    } catch (err) {
      reasons.push(`did: ${message(err)}`);
    }
    throw new IssuerBindingError(reasons);
  }

  // ---- An https issuer: its JWT VC Issuer Metadata, or its own did:web ----------------------------------------
  if (!mayFetch(iss, options)) {
    reasons.push(`the documents of ${iss} are not read over plain http`);
  } else if (kid?.startsWith('did:')) {
    const [kidDid, kidFragment] = kid.split('#');
    try {
      if (kidDid !== didWebFromUrl(iss)) throw new Error(`the kid names ${kidDid}, which is not the issuer ${iss}`);
      const { jwk, id } = await didAssertionKey(kidDid, kidFragment, options);
      return { iss, jwk, source: 'did', verificationMethod: id, identifiers };
    } catch (err) {
      reasons.push(`did: ${message(err)}`);
    }
  } else {
    try {
      return { iss, jwk: await metadataKey(iss, kid, options), source: 'metadata', identifiers };
    } catch (err) {
      reasons.push(`metadata: ${message(err)}`);
    }
  }
  throw new IssuerBindingError(reasons);
}

/** Verifies a JWT's signature with a key bound to its issuer (see bindIssuerKey); answers the binding. */
export async function verifyIssuerSignedJwt(jwt: string, iss: string, options: IssuerTrustOptions) {
  const { header } = decodeJwt(jwt);
  const binding = await bindIssuerKey(header, { iss }, options);
  if (!(await verifyJwtSignature(jwt, binding.jwk)))
    throw new Error('The signature does not verify with the issuer key');
  return binding;
}

/**
 * Status list tokens whose signature verified with the credential's own key, and that key: a verifier reads the
 * same token for every presentation of the list's credentials until the list changes, and the same bytes checked
 * with the same key give the same answer. Only the signature is remembered; the claims (typ, sub, iss, exp) are
 * checked every time. Bounded; oldest out first.
 */
const verifiedStatusLists = new Map<string, string>();
const VERIFIED_STATUS_LISTS_MAX = 64;
const keyId = (jwk: JsonWebKey) => JSON.stringify([jwk.kty, jwk.crv, jwk.x, jwk.y]);

function statusListSignedBy(token: string, jwk: JsonWebKey): boolean {
  return verifiedStatusLists.get(token) === keyId(jwk);
}

function rememberStatusListSignature(token: string, jwk: JsonWebKey) {
  verifiedStatusLists.delete(token);
  verifiedStatusLists.set(token, keyId(jwk));
  if (verifiedStatusLists.size > VERIFIED_STATUS_LISTS_MAX) {
    verifiedStatusLists.delete(verifiedStatusLists.keys().next().value as string);
  }
}

/**
 * A Token Status List token (draft-ietf-oauth-status-list §5) for a credential of `credential.iss`: typed
 * `statuslist+jwt`, for this list (`sub` = `uri`), not expired, and signed by a key that speaks for the
 * same issuer under the same rules (the credential's own key, or another key bound to the same `iss`).
 */
export async function verifyStatusListToken(
  token: string,
  uri: string,
  credential: Pick<IssuerBinding, 'iss' | 'jwk'>,
  options: IssuerTrustOptions,
): Promise<void> {
  const { header, payload } = decodeJwt<{ sub?: unknown; exp?: unknown; iss?: unknown }>(token);
  if (header.typ !== STATUS_LIST_TYP) throw new Error('Not a status list token (typ)');
  if (payload.sub !== uri) throw new Error('The status list token is for another list');
  if (payload.iss !== undefined && (typeof payload.iss !== 'string' || !sameIssuer(payload.iss, credential.iss))) {
    throw new Error('The status list token names another issuer');
  }
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (typeof payload.exp === 'number' && payload.exp < now) throw new Error('The status list token has expired');
  if (statusListSignedBy(token, credential.jwk)) return;
  if (await verifyJwtSignature(token, credential.jwk)) {
    rememberStatusListSignature(token, credential.jwk);
    return;
  }
  try {
    await verifyIssuerSignedJwt(token, credential.iss, options);
  } catch (err) {
    throw new Error(`The status list token is not signed by the issuer: ${message(err)}`);
  }
}
