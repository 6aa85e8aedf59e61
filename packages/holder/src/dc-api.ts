import { base64url, describeLeaf } from '@cp/credentials';
import {
  isOpenid4vpAuthorizationRequestDcApi,
  type Openid4vpAuthorizationRequestDcApi,
  type Openid4vpAuthorizationResponse,
  Openid4vpClient,
} from '@openid4vc/openid4vp';
import { type HolderContext, type HolderKey, holderCallbacks, holderErrorIn } from './callbacks.ts';
import { answersRequest, validateDcqlQuery } from './dcql.ts';
import { errorMessage, HolderError } from './errors.ts';
import { type ClientIdPrefix, chooseEncryption, type PresentationRequest, requestError } from './request.ts';
import { type AuthorizationAnswer, createVpToken, type PresentationSelection } from './response.ts';

/**
 * OpenID4VP 1.0 over the W3C Digital Credentials API (Appendix A), as the wallet behind the browser answers
 * it: the `data` of an `openid4vp-v1-signed` request is `{request: <JWS>}` (A.3.2); its signature and client
 * identifier are checked as for any signed request, its `expected_origins` must hold the origin the browser
 * reports (A.2), and the answer, bound to `origin:<origin>` (A.4, even for signed requests) and encrypted to
 * the verifier's key for `dc_api.jwt`, goes back to the page as the DigitalCredential's `data`.
 */

export const DC_API_SIGNED_PROTOCOL = 'openid4vp-v1-signed';
export type DcApiResponseMode = 'dc_api' | 'dc_api.jwt';

/** A checked DC API request (plain data). */
export interface DcApiPresentationRequest {
  clientId: string;
  clientIdPrefix: ClientIdPrefix;
  /** The calling origin, as the browser reported it. */
  origin: string;
  /** A.4: the `aud` of every key-binding JWT, `origin:<origin>`. */
  audience: string;
  nonce: string;
  responseMode: DcApiResponseMode;
  dcql: PresentationRequest['dcql'];
  clientMetadata: Record<string, unknown>;
  certificate?: { subject: string; dnsNames: string[]; uris: string[] };
  encryption?: PresentationRequest['encryption'];
  payload: Openid4vpAuthorizationRequestDcApi;
}

const invalid = (message: string): never => {
  throw new HolderError('REQUEST_INVALID', message);
};
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const SIGNED_PREFIXES = new Set<ClientIdPrefix>(['x509_hash', 'x509_san_dns', 'decentralized_identifier']);

function client(context: HolderContext) {
  return new Openid4vpClient({ callbacks: holderCallbacks(context, { unreachable: 'NETWORK' }) });
}

/**
 * Checks the `data` of an `openid4vp-v1-signed` request made from `origin`: a signed request object, its
 * signature and client identifier (the library, with this holder's callbacks), `expected_origins` holding
 * `origin`, `vp_token` by DCQL with a nonce, and a DC API response mode.
 */
export async function resolveDcApiRequest(
  data: unknown,
  origin: string,
  context: HolderContext = {},
): Promise<DcApiPresentationRequest> {
  if (!isObject(data) || typeof data.request !== 'string') {
    return invalid('An openid4vp-v1-signed request carries a signed request object (request)');
  }
  const openid4vp = client(context);
  let resolved: Awaited<ReturnType<Openid4vpClient['resolveOpenId4vpAuthorizationRequest']>>;
  try {
    const parsed = openid4vp.parseOpenid4vpAuthorizationRequest({ authorizationRequest: { request: data.request } });
    resolved = await openid4vp.resolveOpenId4vpAuthorizationRequest({
      authorizationRequestPayload: parsed.params,
      origin,
    });
  } catch (err) {
    const error = requestError(err);
    // The library's expected_origins verdict: a request meant for another site, not a malformed one.
    if (/expected_origins/.test(error.message)) {
      throw new HolderError('REQUEST_UNTRUSTED', `The request is not meant for ${origin} (expected_origins)`);
    }
    throw error;
  }
  const payload = resolved.authorizationRequestPayload;
  if (!resolved.jar) return invalid('The request is not signed');
  if (!isOpenid4vpAuthorizationRequestDcApi(payload)) {
    return invalid('The request is not a Digital Credentials API request');
  }
  // A.2: a signed request names the origins it may be made from (the library checks them only when present).
  if (!payload.expected_origins?.includes(origin)) {
    throw new HolderError('REQUEST_UNTRUSTED', `The request is not meant for ${origin} (expected_origins)`);
  }
  const prefix = resolved.client.prefix as ClientIdPrefix;
  if (!SIGNED_PREFIXES.has(prefix)) {
    throw new HolderError('REQUEST_UNTRUSTED', `The client identifier prefix ${prefix} is not supported`);
  }
  if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) {
    throw new HolderError('REQUEST_EXPIRED', 'The request has expired');
  }
  if (payload.response_type !== 'vp_token') invalid('Only response_type vp_token is supported');
  const responseMode = payload.response_mode;
  if (responseMode !== 'dc_api' && responseMode !== 'dc_api.jwt') {
    return invalid(`response_mode ${String(responseMode)} is not supported`);
  }
  const nonce = typeof payload.nonce === 'string' && payload.nonce !== '' ? payload.nonce : invalid('No nonce');
  const dcql = validateDcqlQuery(payload.dcql_query);
  const clientMetadata: Record<string, unknown> = isObject(payload.client_metadata) ? payload.client_metadata : {};
  const encryption = responseMode === 'dc_api.jwt' ? chooseEncryption(clientMetadata) : undefined;
  const signer = resolved.jar.signer;
  const leaf = signer?.method === 'x5c' && signer.x5c[0] ? describeLeaf(signer.x5c[0]) : undefined;
  return {
    clientId: resolved.client.effective,
    clientIdPrefix: prefix,
    origin,
    audience: `origin:${origin}`,
    nonce,
    responseMode,
    dcql,
    clientMetadata,
    ...(leaf ? { certificate: { subject: leaf.subject, dnsNames: leaf.dnsNames, uris: leaf.uris } } : {}),
    ...(encryption ? { encryption } : {}),
    payload,
  };
}

/**
 * The DigitalCredential's `data` for an answer (A.4): `{response: <JWE>}` for `dc_api.jwt` (ECDH-ES to the
 * verifier's key, by @openid4vc's client), the payload itself for `dc_api`. `responseMode` other than the
 * request's only for tests of a verifier's refusals.
 */
export async function createDcApiResponse(
  request: DcApiPresentationRequest,
  answer: AuthorizationAnswer,
  options: { responseMode?: DcApiResponseMode } = {},
  context: HolderContext = {},
): Promise<Record<string, unknown>> {
  const responseMode = options.responseMode ?? request.responseMode;
  const encryption = request.encryption;
  if (responseMode === 'dc_api.jwt' && !encryption) {
    throw new HolderError('REQUEST_INVALID', 'The request gave no key to encrypt the response to');
  }
  try {
    const created = await client(context).createOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: { ...request.payload, response_mode: responseMode },
      origin: request.origin,
      authorizationResponsePayload: answer as Openid4vpAuthorizationResponse & { state?: never },
      ...(responseMode === 'dc_api.jwt' && encryption
        ? {
            jarm: {
              encryption: {
                nonce: base64url(crypto.getRandomValues(new Uint8Array(16))),
                jwk: encryption.jwk as never,
              },
              serverMetadata: {
                authorization_signing_alg_values_supported: ['ES256'],
                authorization_encryption_alg_values_supported: ['ECDH-ES'],
                authorization_encryption_enc_values_supported: [encryption.enc],
              },
            },
          }
        : {}),
    });
    if (created.jarm) return { response: created.jarm.responseJwt };
    const { state: _state, ...plain } = created.authorizationResponsePayload as Record<string, unknown>;
    return plain;
  } catch (err) {
    throw holderErrorIn(err) ?? new HolderError('VERIFIER_ERROR', `The response cannot be built: ${errorMessage(err)}`);
  }
}

export interface DcApiAnswerOptions {
  key: HolderKey;
  /** Another key-binding audience than `origin:<origin>` (tests of a verifier's refusals). */
  audience?: string;
  /** Another nonce than the request's (tests of a verifier's refusals). */
  nonce?: string;
  /** Another response mode than the request's (tests of a verifier's refusals). */
  responseMode?: DcApiResponseMode;
}

/**
 * Answers the `data` of an `openid4vp-v1-signed` request made from `origin` as a wallet would: the request
 * checked (resolveDcApiRequest), one presentation per chosen credential bound to `origin:<origin>` and the
 * nonce, encrypted to the verifier's key: the `data` the browser hands back to the page.
 */
export async function answerDcApiRequest(
  data: unknown,
  origin: string,
  selections: readonly PresentationSelection[],
  options: DcApiAnswerOptions,
  context: HolderContext = {},
): Promise<Record<string, unknown>> {
  const request = await resolveDcApiRequest(data, origin, context);
  if (
    !answersRequest(
      request.dcql,
      selections.map((s) => s.queryId),
    )
  ) {
    throw new HolderError('NO_MATCHING_CREDENTIAL', 'The chosen credentials do not answer the request');
  }
  const vpToken = await createVpToken(
    { clientId: options.audience ?? request.audience, nonce: options.nonce ?? request.nonce },
    selections,
    options.key,
  );
  return createDcApiResponse(
    request,
    { vp_token: vpToken },
    options.responseMode ? { responseMode: options.responseMode } : {},
    context,
  );
}
