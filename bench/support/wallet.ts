/**
 * The wallet side of the protocols for the benchmarks, over real HTTP: @cp/holder, the protocol library
 * of the wallet and of the API tests (apps/api/test/support/wallet.ts), over the benchmark's own HTTP
 * client. OpenID4VCI claim of an offer; OpenID4VP request resolved as the wallet does and answered over
 * direct_post.jwt, built ahead so that only the sending is timed.
 */
import {
  allowHttpUrls,
  createAuthorizationResponse,
  createHolderKey,
  createVpToken,
  type HolderKey,
  type Issuance,
  type PresentationRequest,
  receiveCredential,
  requestCredential,
  resolveCredentialOffer,
  resolveCredentialOfferObject,
  resolvePresentationRequest,
} from '@cp/holder';
import type { JWK } from 'jose';
import type { httpClient } from './bench.ts';

type Http = ReturnType<typeof httpClient>['request'];

// The API under load listens on http://127.0.0.1; the protocol libraries refuse plain http unless told.
allowHttpUrls(true);

export type Holder = HolderKey;

export const makeHolder = (): Promise<Holder> => createHolderKey();

/** fetch over the benchmark's HTTP client (its pools; the URL's path and query are what is sent). */
export function fetchOver(http: Http): typeof fetch {
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    let contentType = '';
    new Headers(init.headers).forEach((value, name) => {
      // The client sets the content type of the body it encodes.
      if (name === 'content-type') contentType = value;
      else headers[name] = value;
    });
    const body = typeof init.body === 'string' ? init.body : undefined;
    const answer = await http(url, {
      method: (init.method ?? 'GET').toUpperCase() as 'GET' | 'POST',
      headers,
      ...(body !== undefined && contentType.includes('application/x-www-form-urlencoded')
        ? { form: Object.fromEntries(new URLSearchParams(body)) }
        : {}),
      ...(body !== undefined && contentType.includes('application/json') ? { json: JSON.parse(body) } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const noBody = answer.status === 204 || answer.status === 304;
    return new Response(noBody ? null : answer.text, { status: answer.status, headers: responseHeaders });
  }) as typeof fetch;
}

/** Creates a credential (session of the organization) and claims it as `holder`; answers the SD-JWT VC. */
export async function issueAndClaim(
  http: Http,
  headers: Record<string, string>,
  schemaId: string,
  claims: Record<string, string>,
  holder: Holder,
): Promise<string> {
  const created = await http('/api/credentials/with-recipient', {
    headers,
    json: {
      credential: { name: 'Membership', schema_id: schemaId, claims },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const connect = await http(`/api/credentials/${created.json().id}/connect`);
  if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${connect.text}`);
  const { credential } = await receiveCredential(
    connect.json().connection_url,
    // One credential per claim, as the timed loop claims (not a batch of the issuer's batch_size).
    { key: holder, batchSize: 1 },
    { fetch: fetchOver(http) },
  );
  return credential;
}

export interface RequestObject {
  clientId: string;
  nonce: string;
  state: string;
  responseUri: string;
  queryId: string;
  claims: string[];
  encryptionJwk: JWK;
  /** The request as @cp/holder resolved it: what the response is built against. */
  request: PresentationRequest;
}

/**
 * Fetches the request object by reference (`request_uri`) and checks it as the wallet does (signature by
 * the `x5c` leaf whose hash is the client id, DCQL, response mode); reads what the answer needs.
 */
export async function fetchRequest(http: Http, openid4vpUrl: string): Promise<RequestObject> {
  const request = await resolvePresentationRequest(openid4vpUrl, { fetch: fetchOver(http) });
  if (request.clientIdPrefix !== 'x509_hash') throw new Error(`client_id prefix ${request.clientIdPrefix}`);
  if (!request.encryption || !request.state) throw new Error('the request asks for no encrypted response');
  const query = request.dcql.credentials[0]!;
  return {
    clientId: request.clientId,
    nonce: request.nonce,
    state: request.state,
    responseUri: request.responseUri,
    queryId: query.id,
    claims: (query.claims ?? []).map((c) => c.path[0]).filter((name): name is string => typeof name === 'string'),
    encryptionJwk: request.encryption.jwk,
    request,
  };
}

/** The direct_post.jwt form body: the presentation with key binding to this request, encrypted to the verifier. */
export async function buildResponse(request: RequestObject, credential: string, holder: Holder) {
  const vpToken = await createVpToken(
    request.request,
    [{ queryId: request.queryId, credential, disclose: request.claims }],
    holder,
  );
  const { form } = await createAuthorizationResponse(request.request, { vp_token: vpToken });
  if (!form.response) throw new Error('the response is not encrypted');
  return { response: form.response };
}

/**
 * The issuer's side of an offer as @cp/holder resolves it once (offer, issuer and authorization-server
 * metadata): later claims of the same issuer reuse its metadata, as a wallet caches it (max-age 60 / 300 s).
 */
export const resolveIssuance = (http: Http, offerLink: string): Promise<Issuance> =>
  resolveCredentialOffer(offerLink, { fetch: fetchOver(http) });

/**
 * One claim as the wallet makes it, with @cp/holder: the offer by reference, token, nonce, key proof,
 * credential (checked: an SD-JWT VC bound to the holder key). `known` gives the issuer's metadata already
 * resolved (the same issuer and configuration), so only the offer and the three protocol requests are sent.
 */
export async function claimOffer(
  http: Http,
  offerLink: string,
  holder: Holder,
  known: Issuance,
  fetch = fetchOver(http),
) {
  const offer = await resolveCredentialOfferObject(offerLink, { fetch });
  if (offer.credential_issuer !== known.offer.credential_issuer) throw new Error('another issuer');
  const { credential } = await requestCredential({ ...known, offer }, { key: holder, batchSize: 1 }, { fetch });
  return credential;
}
