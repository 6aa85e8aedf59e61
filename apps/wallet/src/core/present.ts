import {
  type DcqlQuery,
  decodeJwt,
  matchDcqlQuery,
  presentSdJwtVc,
  resolveDidKeyReference,
  verifyJwtSignature,
  x509Hash,
} from '@cp/credentials';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { errorMessage, WalletError } from './errors.ts';
import { fetchJson, http, isLocalHost, isObject, randomId } from './http.ts';
import { consistentChain } from './issuer-key.ts';
import type {
  PresentationCandidate,
  PresentationChoice,
  PresentationPlan,
  PresentationRecord,
  RemoteError,
  RequestedCredential,
  RequestedCredentialSet,
  ResolvedPresentationRequest,
  StoredCredential,
  WalletVault,
} from './types.ts';

/**
 * OpenID4VP 1.0: the request (by value or by `request_uri`, GET or POST), its signature checked for the
 * client identifier prefix, DCQL matching, and the answer: an SD-JWT VC presentation with exactly the
 * chosen disclosures and a key-binding JWT, sent with `direct_post` or encrypted (`direct_post.jwt`).
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

type Encryption = { jwk: JWK; enc: 'A128GCM' | 'A256GCM' };

/** Protocol details submitPresentation needs, carried along (plain, cloneable data). */
export interface PresentationSession {
  /** For `direct_post.jwt`: the verifier's key and content encryption. */
  encryption?: Encryption;
}

export type ResolvedPresentationRequestWithSession = ResolvedPresentationRequest & { session: PresentationSession };

const invalid = (message: string): never => {
  throw new WalletError('REQUEST_INVALID', message);
};
const untrusted = (message: string): never => {
  throw new WalletError('REQUEST_UNTRUSTED', message);
};
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const isJwt = (value: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);

/**
 * Reads a presentation request link: `openid4vp://?client_id=…&request_uri=…[&request_uri_method=post]`,
 * `…&request=<JWT>`, an https link with the same parameters, the wallet's own `/present?request=<link>`,
 * or a bare request JWT.
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
  // The wallet's own link wraps the openid4vp:// link in `request`.
  if (request && !isJwt(request) && /^[a-z][a-z0-9+.-]*:\/\//i.test(request) && request !== text) {
    return parsePresentationLink(request);
  }
  const requestUri = params.request_uri;
  if (requestUri) {
    try {
      const reference = new URL(requestUri);
      if (reference.protocol !== 'https:' && reference.protocol !== 'http:') throw new Error('scheme');
    } catch {
      return invalid('request_uri is not an https URL');
    }
  }
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

const WALLET_METADATA = {
  vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
  client_id_prefixes_supported: ['x509_hash', 'x509_san_dns', 'decentralized_identifier', 'redirect_uri'],
  response_modes_supported: ['direct_post', 'direct_post.jwt'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
};

async function fetchRequestObject(link: PresentationLink): Promise<string> {
  const uri = link.requestUri!;
  const accept = 'application/oauth-authz-req+jwt, application/jwt;q=0.9';
  const answer =
    link.requestUriMethod === 'post'
      ? await http(uri, {
          headers: { accept },
          form: { wallet_metadata: JSON.stringify(WALLET_METADATA) },
          unreachable: 'NETWORK',
        })
      : await http(uri, { headers: { accept }, unreachable: 'NETWORK' });
  if (answer.status === 404 || answer.status === 410) {
    throw new WalletError('REQUEST_EXPIRED', 'The request is no longer available', str(answer.text)?.slice(0, 300));
  }
  if (!answer.ok) throw new WalletError('REQUEST_INVALID', `The request_uri answered ${answer.status}`);
  const jwt = answer.text.trim();
  if (!isJwt(jwt)) invalid('The request_uri did not answer a request object');
  return jwt;
}

/** Parses a JSON-valued parameter of an unsigned request by value. */
function paramsAsRequest(params: Record<string, string>): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...params };
  for (const name of ['dcql_query', 'client_metadata']) {
    if (typeof params[name] === 'string') {
      try {
        payload[name] = JSON.parse(params[name]);
      } catch {
        invalid(`${name} is not JSON`);
      }
    }
  }
  return payload;
}

const commonName = (subject: string) =>
  /(?:^|,\s*)CN=((?:\\.|[^,])+)/.exec(subject)?.[1]?.replace(/\\(.)/g, '$1').trim();

function chooseEncryption(clientMetadata: Record<string, unknown>): Encryption {
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
  let enc: Encryption['enc'] = 'A128GCM';
  if (Array.isArray(offered) && offered.length > 0) {
    const usable = offered.find((value): value is Encryption['enc'] => value === 'A128GCM' || value === 'A256GCM');
    if (!usable) return invalid('The verifier offers no content encryption this wallet supports');
    enc = usable;
  }
  const { d: _d, ...publicPart } = jwk;
  return { jwk: publicPart, enc };
}

/** OpenID4VP 1.0 §6.1: a credential query id is alphanumeric, underscore or hyphen. */
const QUERY_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Bounds on what a verifier may ask at once (a consent screen past this is no longer readable anyway). */
const MAX_CREDENTIAL_QUERIES = 16;
const MAX_CREDENTIAL_SETS = 16;
const MAX_OPTIONS = 16;

function validDcql(value: unknown): DcqlQuery {
  if (
    !isObject(value) ||
    !Array.isArray(value.credentials) ||
    value.credentials.length === 0 ||
    !value.credentials.every((c) => isObject(c) && typeof c.id === 'string' && typeof c.format === 'string')
  ) {
    return invalid('The request has no DCQL query');
  }
  const ids = value.credentials.map((c) => (c as { id: string }).id);
  if (ids.length > MAX_CREDENTIAL_QUERIES) invalid('The DCQL query asks for too many credentials');
  if (!ids.every((id) => QUERY_ID.test(id)) || new Set(ids).size !== ids.length) {
    invalid('The DCQL credential query ids are not unique identifiers');
  }
  const sets = value.credential_sets;
  if (sets !== undefined) {
    // §6.2: a non-empty array of Credential Set Queries, each with non-empty options naming known queries.
    const known = new Set(ids);
    const valid =
      Array.isArray(sets) &&
      sets.length > 0 &&
      sets.length <= MAX_CREDENTIAL_SETS &&
      sets.every(
        (set) =>
          isObject(set) &&
          (set.required === undefined || typeof set.required === 'boolean') &&
          Array.isArray(set.options) &&
          set.options.length > 0 &&
          set.options.length <= MAX_OPTIONS &&
          set.options.every(
            (option) =>
              Array.isArray(option) &&
              option.length > 0 &&
              option.every((id) => typeof id === 'string' && known.has(id)) &&
              new Set(option).size === option.length,
          ),
      );
    if (!valid) invalid('The DCQL credential_sets are not valid');
  }
  return value as unknown as DcqlQuery;
}

/**
 * Fetches and checks a presentation request: signature and client identifier (`x509_hash`,
 * `x509_san_dns`, `decentralized_identifier`; unsigned only for `redirect_uri`), `vp_token`, a DCQL
 * query, a response URI and mode this wallet speaks.
 */
export async function resolvePresentationRequest(input: string): Promise<ResolvedPresentationRequest> {
  return resolvePresentationRequestWithSession(input);
}

/** resolvePresentationRequest, typed with the protocol session it carries. */
export async function resolvePresentationRequestWithSession(
  input: string,
): Promise<ResolvedPresentationRequestWithSession> {
  const link = parsePresentationLink(input);
  const jwt = link.request ?? (link.requestUri ? await fetchRequestObject(link) : undefined);
  let header: Record<string, unknown> = { alg: 'none' };
  let payload: Record<string, unknown>;
  if (jwt) {
    try {
      ({ header, payload } = decodeJwt(jwt));
    } catch {
      return invalid('The request object cannot be read');
    }
  } else {
    payload = paramsAsRequest(link.params);
  }
  const signed = header.alg !== 'none' && header.alg !== undefined;
  if (signed && header.typ !== undefined && header.typ !== 'oauth-authz-req+jwt') {
    invalid(`The request object has typ ${String(header.typ)}`);
  }
  // A request object names its client itself (the link's client_id must agree); only plain parameters rely on the link.
  const clientId = jwt ? str(payload.client_id) : (str(payload.client_id) ?? link.clientId);
  if (!clientId) return invalid('The request names no client_id');
  if (link.clientId && payload.client_id !== undefined && payload.client_id !== link.clientId) {
    untrusted('The request object is for another client_id than the link');
  }
  const responseUri = str(payload.response_uri);
  if (!responseUri) return invalid('The request has no response_uri');
  let responseHost: string;
  try {
    responseHost = new URL(responseUri).hostname.toLowerCase();
  } catch {
    return invalid('The response_uri is not a URL');
  }

  const separator = clientId.indexOf(':');
  const prefix = separator > 0 ? clientId.slice(0, separator) : '';
  const identifier = clientId.slice(separator + 1);
  let chain: Awaited<ReturnType<typeof consistentChain>> | undefined;
  let clientIdScheme: ResolvedPresentationRequest['clientIdScheme'];
  let fallbackName = identifier;

  const verifyWith = async (jwk: JsonWebKey) => {
    if (!jwt || !(await verifyJwtSignature(jwt, jwk))) {
      throw new WalletError('REQUEST_SIGNATURE_INVALID', 'The request signature does not verify');
    }
  };
  const leafChain = async () => {
    if (!signed) return untrusted('The request must be signed');
    try {
      return await consistentChain(header.x5c);
    } catch (err) {
      return untrusted(`The request certificate chain is not valid: ${errorMessage(err)}`);
    }
  };

  switch (prefix) {
    case 'x509_hash': {
      clientIdScheme = 'x509_hash';
      chain = await leafChain();
      if ((await x509Hash((header.x5c as string[])[0]!)) !== identifier) {
        untrusted('The certificate is not the one the client_id names (x509_hash)');
      }
      await verifyWith(chain.leafJwk);
      break;
    }
    case 'x509_san_dns': {
      clientIdScheme = 'x509_san_dns';
      chain = await leafChain();
      if (!chain.dnsNames.some((dns) => dns.toLowerCase() === identifier.toLowerCase())) {
        untrusted('The certificate does not name the client_id DNS name');
      }
      await verifyWith(chain.leafJwk);
      if (responseHost !== identifier.toLowerCase()) untrusted('The response_uri is not on the client_id host');
      break;
    }
    case 'decentralized_identifier': {
      clientIdScheme = 'decentralized_identifier';
      if (!signed) untrusted('The request must be signed');
      const kid = str(header.kid);
      if (!identifier.startsWith('did:') || !kid?.startsWith(`${identifier}#`)) {
        untrusted('The request key (kid) is not a key of the client_id DID');
      }
      let jwk: JsonWebKey;
      try {
        jwk = await resolveDidKeyReference(kid!, fetchJson, { allowHttp: isLocalHost });
      } catch (err) {
        return untrusted(`The client_id DID cannot be resolved: ${errorMessage(err)}`);
      }
      await verifyWith(jwk);
      break;
    }
    case 'redirect_uri': {
      clientIdScheme = 'redirect_uri';
      if (signed) untrusted('A redirect_uri client must not sign its request');
      if (responseUri !== identifier) untrusted('The response_uri must be the client_id (redirect_uri)');
      fallbackName = responseHost;
      break;
    }
    default:
      return untrusted(`The client identifier prefix of ${clientId} is not supported`);
  }

  if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) {
    throw new WalletError('REQUEST_EXPIRED', 'The request has expired');
  }
  if (payload.response_type !== 'vp_token') invalid('Only response_type vp_token is supported');
  const responseMode = payload.response_mode ?? 'direct_post';
  if (responseMode !== 'direct_post' && responseMode !== 'direct_post.jwt') {
    invalid(`response_mode ${String(responseMode)} is not supported`);
  }
  const nonce = str(payload.nonce);
  if (!nonce) return invalid('The request has no nonce');
  const dcql = validDcql(payload.dcql_query);
  const clientMetadata = isObject(payload.client_metadata) ? payload.client_metadata : {};
  const session: PresentationSession =
    responseMode === 'direct_post.jwt' ? { encryption: chooseEncryption(clientMetadata) } : {};

  const certificateSubject = chain?.subject;
  const name = str(clientMetadata.client_name) ?? (certificateSubject ? commonName(certificateSubject) : undefined);
  const logoUri = str(clientMetadata.logo_uri);
  const state = str(payload.state);
  return {
    clientId,
    clientIdScheme,
    verifier: {
      name: name ?? fallbackName,
      ...(logoUri ? { logoUri } : {}),
      ...(certificateSubject ? { certificateSubject } : {}),
    },
    dcql,
    nonce,
    ...(state ? { state } : {}),
    responseUri,
    responseMode: responseMode as ResolvedPresentationRequest['responseMode'],
    session,
  };
}

const UNUSABLE = new Set(['REVOKED', 'EXPIRED', 'SUSPENDED']);

/** Whether a stored credential may be presented (not revoked, suspended or expired as far as known). */
export function isUsable(credential: StoredCredential, now = new Date()): boolean {
  if (UNUSABLE.has(credential.lastStatus)) return false;
  return !credential.expiresAt || new Date(credential.expiresAt).getTime() > now.getTime();
}

/**
 * The stored credentials that answer each DCQL credential query, with the claims to disclose; usable
 * ones first. A revoked or expired credential stays on the list (the screen warns): the holder decides,
 * and the verifier's own checks name the problem.
 */
export function findCandidates(
  request: ResolvedPresentationRequest,
  credentials: StoredCredential[],
): PresentationCandidate[] {
  const matches = matchDcqlQuery(
    request.dcql,
    credentials.filter((credential) => credential.format === 'dc+sd-jwt'),
  );
  return [...matches.values()]
    .flat()
    .map((m) => ({ queryId: m.queryId, credential: m.credential, disclose: m.disclose }))
    .sort((a, b) => Number(isUsable(b.credential)) - Number(isUsable(a.credential)));
}

const byUsability = (a: PresentationCandidate, b: PresentationCandidate) =>
  Number(isUsable(b.credential)) - Number(isUsable(a.credential));

/**
 * The request as the consent screen shows it (OpenID4VP 1.0 §6.4.2): each credential query with the
 * stored credentials that answer it (usable first), the credential sets with the options this wallet can
 * answer, and whether the required part can be answered at all (`missing` names what is not held).
 * Without `credential_sets`, every credential query is required: one set, one option.
 */
export function planPresentation(
  request: ResolvedPresentationRequest,
  credentials: StoredCredential[],
): PresentationPlan {
  const { dcql } = request;
  const matches = matchDcqlQuery(
    dcql,
    credentials.filter((credential) => credential.format === 'dc+sd-jwt'),
  );
  const held = (id: string) => (matches.get(id)?.length ?? 0) > 0;
  const sets: RequestedCredentialSet[] = (
    dcql.credential_sets ?? [{ options: [dcql.credentials.map((c) => c.id)] }]
  ).map((set) => ({
    required: set.required !== false,
    options: set.options.map((queryIds) => ({ queryIds: [...queryIds], isSatisfiable: queryIds.every(held) })),
  }));
  // §6.4.2: with credential_sets, a query no option names is not asked for.
  const referenced = new Set(sets.flatMap((set) => set.options.flatMap((option) => option.queryIds)));
  const requested: RequestedCredential[] = dcql.credentials
    .filter((query) => referenced.has(query.id))
    .map((query) => ({
      queryId: query.id,
      candidates: (matches.get(query.id) ?? [])
        .map((m) => ({ queryId: m.queryId, credential: m.credential, disclose: m.disclose }))
        .sort(byUsability),
      vctValues: query.meta?.vct_values ?? [],
      claimNames: [
        ...new Set(
          (query.claims ?? []).map((claim) => claim.path[0]).filter((name): name is string => typeof name === 'string'),
        ),
      ],
      multiple: query.multiple === true,
    }));
  const unanswerable = sets.filter((set) => set.required && !set.options.some((option) => option.isSatisfiable));
  const missing = [
    ...new Set(
      unanswerable.flatMap((set) => set.options.flatMap((option) => option.queryIds.filter((id) => !held(id)))),
    ),
  ];
  return { credentials: requested, sets, canShare: unanswerable.length === 0, missing };
}

/**
 * The consent screen's starting point: for each required set the verifier's first option this wallet can
 * answer; optional sets left out (the holder opts in: least disclosure); the first candidate of each query.
 */
export function defaultChoice(plan: PresentationPlan): PresentationChoice {
  return {
    options: plan.sets.map((set) => {
      if (!set.required) return null;
      const index = set.options.findIndex((option) => option.isSatisfiable);
      return index >= 0 ? index : 0;
    }),
    credentials: {},
  };
}

/** The queries the choice answers, each with its chosen credential (in the request's order). */
export function chosenCandidates(plan: PresentationPlan, choice: PresentationChoice): PresentationCandidate[] {
  const answered = new Set<string>();
  plan.sets.forEach((set, index) => {
    const chosen = choice.options[index];
    const option = chosen === null || chosen === undefined ? undefined : set.options[chosen];
    for (const id of option?.queryIds ?? []) answered.add(id);
  });
  return plan.credentials
    .filter((requested) => answered.has(requested.queryId))
    .flatMap((requested) => {
      const candidate =
        requested.candidates.find((c) => c.credential.id === choice.credentials[requested.queryId]) ??
        requested.candidates[0];
      return candidate ? [candidate] : [];
    });
}

/**
 * Whether presentations for exactly these query ids answer the request (OpenID4VP 1.0 §6.4.2): without
 * `credential_sets` every query; with them one option of each required set, one or none of each optional
 * one, and nothing else (two alternatives of one set would disclose more than asked).
 */
export function answersRequest(dcql: DcqlQuery, queryIds: readonly string[]): boolean {
  const chosen = new Set(queryIds);
  const known = new Set(dcql.credentials.map((c) => c.id));
  if (chosen.size !== queryIds.length || chosen.size === 0 || ![...chosen].every((id) => known.has(id))) return false;
  const sets = dcql.credential_sets;
  if (!sets) return chosen.size === known.size;
  // Depth-first over the sets, only through options inside the selection; memoized on (set, covered ids).
  const seen = new Set<string>();
  const search = (index: number, covered: ReadonlySet<string>): boolean => {
    const set = sets[index];
    if (!set) return covered.size === chosen.size;
    const key = `${index}|${[...covered].sort().join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    for (const option of set.options) {
      if (option.every((id) => chosen.has(id)) && search(index + 1, new Set([...covered, ...option]))) return true;
    }
    return set.required === false && search(index + 1, covered);
  };
  return search(0, new Set());
}

async function encryptResponse(encryption: Encryption, answer: Record<string, unknown>): Promise<string> {
  const header: { alg: string; enc: string; kid?: string } = { alg: 'ECDH-ES', enc: encryption.enc };
  if (typeof encryption.jwk.kid === 'string') header.kid = encryption.jwk.kid;
  // Uint8Array.from: a typed array of this realm (jose checks `instanceof Uint8Array`).
  return new CompactEncrypt(Uint8Array.from(new TextEncoder().encode(JSON.stringify(answer))))
    .setProtectedHeader(header)
    .encrypt(await importJWK(encryption.jwk, 'ECDH-ES'));
}

async function postResponse(
  request: ResolvedPresentationRequest,
  answer: Record<string, unknown>,
): Promise<{ redirectUri?: string }> {
  const encryption = (request as Partial<ResolvedPresentationRequestWithSession>).session?.encryption;
  let form: Record<string, string>;
  if (request.responseMode === 'direct_post.jwt') {
    if (!encryption)
      throw new WalletError('REQUEST_INVALID', 'Resolve the request with resolvePresentationRequest first');
    form = { response: await encryptResponse(encryption, answer) };
  } else {
    form = Object.fromEntries(
      Object.entries(answer).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
    );
  }
  const response = await http(request.responseUri, { form, headers: { accept: 'application/json' } });
  if (!response.ok) {
    // OpenID4VP 1.0 §8.2: the response endpoint answers an error as `error` / `error_description`.
    const body = isObject(response.json) ? response.json : {};
    const error = str(body.error);
    const description = str(body.error_description)?.slice(0, 500);
    const detail = [error, description].filter(Boolean).join(': ') || undefined;
    throw new WalletError(
      'VERIFIER_ERROR',
      `The verifier answered ${response.status}`,
      detail,
      error ? { error: error.slice(0, 100), ...(description ? { description } : {}) } : undefined,
    );
  }
  const redirectUri = isObject(response.json) ? str(response.json.redirect_uri) : undefined;
  return redirectUri ? { redirectUri } : {};
}

function record(
  request: ResolvedPresentationRequest,
  outcome: PresentationRecord['outcome'],
  credential: StoredCredential | undefined,
  sharedClaims: string[],
  failure?: { detail?: string; refusal?: RemoteError },
): PresentationRecord {
  return {
    id: randomId(),
    at: new Date().toISOString(),
    verifier: {
      name: request.verifier.name,
      clientId: request.clientId,
      ...(request.verifier.logoUri ? { logoUri: request.verifier.logoUri } : {}),
    },
    credentialId: credential?.id ?? '',
    credentialName: credential?.display.name ?? {},
    sharedClaims,
    outcome,
    ...(failure?.detail ? { detail: failure.detail } : {}),
    ...(failure?.refusal ? { refusal: failure.refusal } : {}),
  };
}

/**
 * Presents the chosen credentials, each with exactly its `disclose`, all bound to this verifier (`aud` =
 * client id) and request (`nonce`), in one `vp_token` keyed by credential query id (OpenID4VP 1.0 §8.1);
 * records the outcome for each credential in the history (SENT, or ERROR and rethrows). One candidate is
 * the single-query case. A selection that does not answer the request is refused before anything is sent.
 */
export async function submitPresentation(
  request: ResolvedPresentationRequest,
  selection: PresentationCandidate | readonly PresentationCandidate[],
  vault: WalletVault,
): Promise<{ redirectUri?: string }> {
  const candidates: PresentationCandidate[] = 'queryId' in selection ? [selection] : [...selection];
  if (
    !answersRequest(
      request.dcql,
      candidates.map((c) => c.queryId),
    )
  ) {
    throw new WalletError('NO_MATCHING_CREDENTIAL', 'The chosen credentials do not answer the request');
  }
  const { signer } = vault.holder();
  try {
    const vpToken: Record<string, string[]> = {};
    for (const candidate of candidates) {
      // `multiple` queries are answered with the one credential chosen: an array of one (§8.1).
      vpToken[candidate.queryId] = [
        await presentSdJwtVc(candidate.credential.raw, {
          disclose: candidate.disclose,
          keyBinding: { signer, audience: request.clientId, nonce: request.nonce },
        }),
      ];
    }
    const answer: Record<string, unknown> = {
      vp_token: vpToken,
      ...(request.state ? { state: request.state } : {}),
    };
    const result = await postResponse(request, answer);
    for (const candidate of candidates) {
      await vault.addPresentation(record(request, 'SENT', candidate.credential, candidate.disclose));
    }
    return result;
  } catch (err) {
    const detail = err instanceof WalletError && err.detail ? `${err.message} (${err.detail})` : errorMessage(err);
    const refusal = err instanceof WalletError && err.code === 'VERIFIER_ERROR' ? err.remote : undefined;
    for (const candidate of candidates) {
      await vault.addPresentation(
        record(request, 'ERROR', candidate.credential, candidate.disclose, { detail, ...(refusal ? { refusal } : {}) }),
      );
    }
    if (err instanceof WalletError) throw err;
    throw new WalletError('VERIFIER_ERROR', errorMessage(err));
  }
}

/** Tells the verifier the holder declined (`access_denied`) and records it; sharing nothing. */
export async function declinePresentation(
  request: ResolvedPresentationRequest,
  vault: WalletVault,
  credential?: StoredCredential,
): Promise<{ redirectUri?: string }> {
  await vault.addPresentation(record(request, 'DECLINED', credential, []));
  try {
    return await postResponse(request, {
      error: 'access_denied',
      error_description: 'The holder declined to share',
      ...(request.state ? { state: request.state } : {}),
    });
  } catch (err) {
    // The verifier refusing the error answer changes nothing for the holder; no network is worth telling.
    if (err instanceof WalletError && err.code === 'NETWORK') throw err;
    return {};
  }
}
