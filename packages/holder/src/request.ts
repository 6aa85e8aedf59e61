import { type DcqlQuery, decodeJwt, describeLeaf } from '@cp/credentials';
import { Oauth2JwtVerificationError } from '@openid4vc/oauth2';
import {
  isOpenid4vpAuthorizationRequestDcApi,
  type Openid4vpAuthorizationRequest,
  Openid4vpClient,
} from '@openid4vc/openid4vp';
import type { JWK } from 'jose';
import { guardedFetch, type HolderContext, holderCallbacks, holderErrorIn, isFetchableUrl } from './callbacks.ts';
import { validateDcqlQuery } from './dcql.ts';
import { errorMessage, HolderError } from './errors.ts';

/**
 * OpenID4VP 1.0 requests, on @openid4vc/openid4vp's client: the link (§5), the request object by value or
 * by `request_uri` (GET, or POST with the wallet's metadata, §5.10), its signature checked for the client
 * identifier prefix (§5.9: `x509_hash`, `x509_san_dns`, `decentralized_identifier`; unsigned only for
 * `redirect_uri`), then what this holder answers: `vp_token` with a DCQL query, to a `response_uri` with
 * `direct_post` or `direct_post.jwt`.
 */

export interface PresentationLink {
  clientId?: string;
  /** The request object by value (a JWT). */
  request?: string;
  requestUri?: string;
  requestUriMethod: 'get' | 'post';
  /** Every query parameter (an unsigned request by value carries its fields here). */
  params: Record<string, string>;
}

export type ClientIdPrefix = 'x509_hash' | 'x509_san_dns' | 'decentralized_identifier' | 'redirect_uri';
export type ResponseMode = 'direct_post' | 'direct_post.jwt';
export type ContentEncryption = 'A128GCM' | 'A256GCM';

/** A resolved, checked request (plain, cloneable data). */
export interface PresentationRequest {
  /** The effective client identifier: the `aud` of every key-binding JWT. */
  clientId: string;
  clientIdPrefix: ClientIdPrefix;
  nonce: string;
  state?: string;
  responseUri: string;
  responseMode: ResponseMode;
  dcql: DcqlQuery;
  /** `client_metadata` as sent (name, logo, keys); what to show of it is the caller's. */
  clientMetadata: Record<string, unknown>;
  /** The request certificate's leaf (x509 prefixes). */
  certificate?: { subject: string; dnsNames: string[]; uris: string[] };
  /** `direct_post.jwt`: the verifier's key and the content encryption both support. */
  encryption?: { jwk: JWK; enc: ContentEncryption };
  /** The authorization request as parsed: what the response is built against. */
  payload: Openid4vpAuthorizationRequest;
}

const invalid = (message: string): never => {
  throw new HolderError('REQUEST_INVALID', message);
};
const untrusted = (message: string): never => {
  throw new HolderError('REQUEST_UNTRUSTED', message);
};
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const isJwt = (value: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);

/**
 * Reads a presentation request link: `openid4vp://?client_id=…&request_uri=…[&request_uri_method=post]`,
 * `…&request=<JWT>`, an https link with the same parameters, a link wrapping one in `request` (a wallet's
 * own `/present?request=<link>`), or a bare request JWT.
 */
export function parsePresentationLink(input: string): PresentationLink {
  const text = input.trim();
  if (isJwt(text)) return { request: text, requestUriMethod: 'get', params: {} };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('This is not a presentation request link');
  }
  const params = Object.fromEntries(url.searchParams.entries());
  const request = params.request;
  if (request && !isJwt(request) && /^[a-z][a-z0-9+.-]*:\/\//i.test(request) && request !== text) {
    return parsePresentationLink(request);
  }
  const requestUri = params.request_uri;
  if (requestUri && !isFetchableUrl(requestUri)) invalid('request_uri is not an https URL');
  if (request && !isJwt(request)) invalid('request is not a JWT');
  if (!request && !requestUri && !params.response_type && !params.dcql_query) {
    invalid('The link carries no presentation request');
  }
  const method = params.request_uri_method?.toLowerCase();
  if (method && method !== 'get' && method !== 'post') invalid('request_uri_method must be get or post');
  return {
    ...(params.client_id ? { clientId: params.client_id } : {}),
    ...(request ? { request } : {}),
    ...(requestUri ? { requestUri } : {}),
    requestUriMethod: method === 'post' ? 'post' : 'get',
    params,
  };
}

/** What this holder supports (OpenID4VP 1.0 §10), sent when the verifier asks for it (§5.10). */
export const WALLET_METADATA = {
  vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
  client_id_prefixes_supported: ['x509_hash', 'x509_san_dns', 'decentralized_identifier', 'redirect_uri'],
  response_modes_supported: ['direct_post', 'direct_post.jwt'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
};

/**
 * The request object at `request_uri`. Fetched here rather than by the library: its POST sends the
 * metadata's members as form fields instead of `wallet_metadata` (§5.10), and a 404/410 (the request is
 * gone: answered or expired) must be told apart from a malformed answer.
 */
async function fetchRequestObject(link: PresentationLink, context: HolderContext): Promise<string> {
  const uri = link.requestUri!;
  const fetchImpl = guardedFetch(context.fetch, 'NETWORK');
  const accept = 'application/oauth-authz-req+jwt, application/jwt;q=0.9';
  const response =
    link.requestUriMethod === 'post'
      ? await fetchImpl(uri, {
          method: 'POST',
          headers: { accept, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ wallet_metadata: JSON.stringify(WALLET_METADATA) }).toString(),
        })
      : await fetchImpl(uri, { headers: { accept } });
  const text = await response.text().catch(() => '');
  if (response.status === 404 || response.status === 410) {
    throw new HolderError(
      'REQUEST_EXPIRED',
      `The request is no longer available (${response.status})`,
      str(text)?.slice(0, 300),
    );
  }
  if (!response.ok) return invalid(`The request_uri answered ${response.status}`);
  const jwt = text.trim();
  if (!isJwt(jwt)) invalid('The request_uri did not answer a request object');
  return jwt;
}

/** The verifier's encryption key and a content encryption both support (§8.3). */
export function chooseEncryption(
  clientMetadata: Record<string, unknown>,
): NonNullable<PresentationRequest['encryption']> {
  const keys = isObject(clientMetadata.jwks) && Array.isArray(clientMetadata.jwks.keys) ? clientMetadata.jwks.keys : [];
  const jwk = keys.find(
    (k): k is JWK =>
      isObject(k) &&
      k.kty === 'EC' &&
      k.crv === 'P-256' &&
      typeof k.x === 'string' &&
      typeof k.y === 'string' &&
      (k.use === undefined || k.use === 'enc') &&
      (k.alg === undefined || k.alg === 'ECDH-ES'),
  );
  if (!jwk) return invalid('direct_post.jwt needs an ECDH-ES P-256 key in client_metadata.jwks');
  const offered = clientMetadata.encrypted_response_enc_values_supported;
  let enc: ContentEncryption = 'A128GCM';
  if (Array.isArray(offered) && offered.length > 0) {
    const usable = offered.find((value): value is ContentEncryption => value === 'A128GCM' || value === 'A256GCM');
    if (!usable) return invalid('The verifier offers no content encryption this holder supports');
    enc = usable;
  }
  const { d: _d, ...publicPart } = jwk;
  return { jwk: publicPart, enc };
}

/** The library's verdicts, as this holder's codes: a client that is not who it says is UNTRUSTED. */
export function requestError(err: unknown): HolderError {
  const own = holderErrorIn(err);
  if (own) return own;
  const message = errorMessage(err);
  if (err instanceof Oauth2JwtVerificationError) {
    if (/'exp' is in the past/.test(message)) return new HolderError('REQUEST_EXPIRED', 'The request has expired');
    return new HolderError('REQUEST_SIGNATURE_INVALID', 'The request signature does not verify');
  }
  const response = (err as { errorResponse?: { error?: unknown; error_description?: unknown } }).errorResponse;
  const description = typeof response?.error_description === 'string' ? response.error_description : message;
  if (/client[ _]id|client identifier/i.test(description)) return new HolderError('REQUEST_UNTRUSTED', description);
  return new HolderError('REQUEST_INVALID', `The request is not valid: ${description}`.slice(0, 500));
}

const SUPPORTED_PREFIXES = new Set<ClientIdPrefix>([
  'x509_hash',
  'x509_san_dns',
  'decentralized_identifier',
  'redirect_uri',
]);

function client(context: HolderContext) {
  return new Openid4vpClient({ callbacks: holderCallbacks(context, { unreachable: 'NETWORK' }) });
}

/**
 * Fetches and checks a presentation request: the library parses it, verifies the request object's
 * signature (our callbacks: the `x5c` leaf of a chain that holds together, or the DID's key) and the client
 * identifier; this holder then asks for `vp_token` by DCQL, a nonce, and a response URI and mode it speaks.
 */
export async function resolvePresentationRequest(
  input: string,
  context: HolderContext = {},
): Promise<PresentationRequest> {
  const link = parsePresentationLink(input);
  const jwt = link.request ?? (link.requestUri ? await fetchRequestObject(link, context) : undefined);
  let authorizationRequest: string | Record<string, unknown>;
  if (jwt) {
    let header: Record<string, unknown>;
    let payload: Record<string, unknown>;
    try {
      ({ header, payload } = decodeJwt(jwt));
    } catch {
      return invalid('The request object cannot be read');
    }
    const clientId = str(payload.client_id);
    if (!clientId) return invalid('The request names no client_id');
    if (header.alg === 'none' || header.alg === undefined) {
      // Only a redirect_uri client sends its request unsigned (§5.9.3): then it is plain parameters.
      if (!clientId.startsWith('redirect_uri:')) untrusted('The request must be signed');
      authorizationRequest = { ...payload, ...(link.clientId ? { client_id: link.clientId } : {}) };
    } else {
      // The request object names its client itself; the library checks that the link's client_id agrees.
      authorizationRequest = { client_id: link.clientId ?? clientId, request: jwt };
    }
  } else {
    authorizationRequest = `openid4vp://?${new URLSearchParams(link.params)}`;
  }

  const openid4vp = client(context);
  let resolved: Awaited<ReturnType<Openid4vpClient['resolveOpenId4vpAuthorizationRequest']>>;
  try {
    const parsed = openid4vp.parseOpenid4vpAuthorizationRequest({ authorizationRequest });
    resolved = await openid4vp.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
  } catch (err) {
    throw requestError(err);
  }
  const payload = resolved.authorizationRequestPayload;
  if (isOpenid4vpAuthorizationRequestDcApi(payload))
    return invalid('Digital Credentials API requests are not supported');
  const prefix = resolved.client.prefix as ClientIdPrefix;
  if (!SUPPORTED_PREFIXES.has(prefix)) untrusted(`The client identifier prefix ${prefix} is not supported`);

  if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) {
    throw new HolderError('REQUEST_EXPIRED', 'The request has expired');
  }
  if (payload.response_type !== 'vp_token') invalid('Only response_type vp_token is supported');
  const responseUri = str(payload.response_uri);
  if (!responseUri) return invalid('The request has no response_uri');
  const responseMode = payload.response_mode ?? 'direct_post';
  if (responseMode !== 'direct_post' && responseMode !== 'direct_post.jwt') {
    return invalid(`response_mode ${String(responseMode)} is not supported`);
  }
  const nonce = str(payload.nonce);
  if (!nonce) return invalid('The request has no nonce');
  const dcql = validateDcqlQuery(payload.dcql_query);
  const clientMetadata: Record<string, unknown> = isObject(payload.client_metadata) ? payload.client_metadata : {};
  const encryption = responseMode === 'direct_post.jwt' ? chooseEncryption(clientMetadata) : undefined;
  const signer = resolved.jar?.signer;
  const leaf = signer?.method === 'x5c' && signer.x5c[0] ? describeLeaf(signer.x5c[0]) : undefined;
  const state = str(payload.state);
  return {
    clientId: resolved.client.effective,
    clientIdPrefix: prefix,
    nonce,
    ...(state ? { state } : {}),
    responseUri,
    responseMode,
    dcql,
    clientMetadata,
    ...(leaf ? { certificate: { subject: leaf.subject, dnsNames: leaf.dnsNames, uris: leaf.uris } } : {}),
    ...(encryption ? { encryption } : {}),
    payload,
  };
}
