import { base64url, presentSdJwtVc } from '@cp/credentials';
import { type Openid4vpAuthorizationResponse, Openid4vpClient } from '@openid4vc/openid4vp';
import { objectToQueryParams } from '@openid4vc/utils';
import { guardedFetch, type HolderContext, type HolderKey, holderCallbacks, holderErrorIn } from './callbacks.ts';
import { answersRequest } from './dcql.ts';
import { errorMessage, HolderError, type RemoteError, remoteDetail, remoteErrorOf } from './errors.ts';
import type { PresentationRequest, ResponseMode } from './request.ts';

/**
 * OpenID4VP 1.0 responses: SD-JWT VC presentations with exactly the chosen disclosures and a key-binding
 * JWT bound to this request (`aud` = client id, `nonce`), in one `vp_token` keyed by credential query id
 * (§8.1), sent with `direct_post` or, encrypted to the verifier's key (ECDH-ES), with `direct_post.jwt`
 * (§8.3) by @openid4vc/openid4vp.
 */

/** One credential answering one credential query, disclosing the named top-level claims. */
export interface PresentationSelection {
  queryId: string;
  /** The SD-JWT VC as issued. */
  credential: string;
  disclose: string[];
  /** The key this credential is bound to, when not the presentation's own (an instance of a batch). */
  key?: HolderKey;
}

/** One presentation: the chosen disclosures and a KB-JWT (`typ: kb+jwt`, `aud`, `nonce`, `sd_hash`). */
export function presentCredential(
  credential: string,
  options: { key: HolderKey; disclose: string[]; audience: string; nonce: string },
): Promise<string> {
  return presentSdJwtVc(credential, {
    disclose: options.disclose,
    keyBinding: { signer: options.key.signer, audience: options.audience, nonce: options.nonce },
  });
}

/** The `vp_token` for a selection: `multiple` queries answered with the one credential chosen (an array of one). */
export async function createVpToken(
  request: Pick<PresentationRequest, 'clientId' | 'nonce'>,
  selections: readonly PresentationSelection[],
  key: HolderKey,
): Promise<Record<string, string[]>> {
  const vpToken: Record<string, string[]> = {};
  for (const selection of selections) {
    vpToken[selection.queryId] = [
      await presentCredential(selection.credential, {
        key: selection.key ?? key,
        disclose: selection.disclose,
        audience: request.clientId,
        nonce: request.nonce,
      }),
    ];
  }
  return vpToken;
}

export interface SendOptions {
  /** Another response mode than the request's (tests of a verifier's refusals). */
  responseMode?: ResponseMode;
  /** Another `state` than the request's (tests of a verifier's refusals). */
  state?: string;
}

export interface VerifierAnswer {
  /** Where the verifier sends the holder next (§8.2), when it says. */
  redirectUri?: string;
}

export type AuthorizationAnswer =
  | { vp_token: Record<string, string[]> }
  | { error: string; error_description?: string };

/** An authorization response ready to post (plain data: it can be built ahead and sent later). */
export interface AuthorizationResponse {
  responseUri: string;
  responseMode: ResponseMode;
  /** The form fields the response URI receives: the payload (`direct_post`), or `response`, a JWE (`direct_post.jwt`). */
  form: Record<string, string>;
}

function client(context: HolderContext) {
  return new Openid4vpClient({ callbacks: holderCallbacks(context, { unreachable: 'NETWORK' }) });
}

/**
 * Builds an authorization response (a `vp_token`, or an `error`) as the request asked, with @openid4vc's
 * client: the payload with the request's `state` (§8), encrypted to the verifier's key for `direct_post.jwt`
 * (ECDH-ES, §8.3).
 */
export async function createAuthorizationResponse(
  request: PresentationRequest,
  answer: AuthorizationAnswer,
  options: SendOptions = {},
  context: HolderContext = {},
): Promise<AuthorizationResponse> {
  const responseMode = options.responseMode ?? request.responseMode;
  const authorizationRequestPayload = {
    ...request.payload,
    response_mode: responseMode,
    ...(options.state !== undefined ? { state: options.state } : {}),
  };
  const encryption = request.encryption;
  if (responseMode === 'direct_post.jwt' && !encryption) {
    throw new HolderError('REQUEST_INVALID', 'The request gave no key to encrypt the response to');
  }
  try {
    const created = await client(context).createOpenid4vpAuthorizationResponse({
      authorizationRequestPayload,
      // An error response has no vp_token (§8.5); the library passes the payload through.
      authorizationResponsePayload: answer as Openid4vpAuthorizationResponse & { state?: never },
      ...(responseMode === 'direct_post.jwt' && encryption
        ? {
            jarm: {
              // `apu`: a fresh wallet nonce; the library sets `apv` to the request nonce.
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
    const form = created.jarm
      ? { response: created.jarm.responseJwt }
      : Object.fromEntries(objectToQueryParams(created.authorizationResponsePayload));
    return { responseUri: request.responseUri, responseMode, form };
  } catch (err) {
    throw holderErrorIn(err) ?? new HolderError('VERIFIER_ERROR', `The response cannot be built: ${errorMessage(err)}`);
  }
}

/**
 * Posts an authorization response (a `vp_token`, or an `error`) to the response URI as the request asked:
 * a form for `direct_post`, a JWE for `direct_post.jwt`; answers the verifier's HTTP response as it is.
 */
export async function postAuthorizationResponse(
  request: PresentationRequest,
  answer: AuthorizationAnswer,
  options: SendOptions = {},
  context: HolderContext = {},
): Promise<Response> {
  return sendAuthorizationResponseForm(await createAuthorizationResponse(request, answer, options, context), context);
}

/** Posts a built response to its response URI (§8.2); answers the verifier's HTTP response as it is. */
function sendAuthorizationResponseForm(
  response: AuthorizationResponse,
  context: HolderContext = {},
): Promise<Response> {
  return guardedFetch(context.fetch, 'NETWORK')(response.responseUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(response.form).toString(),
  });
}

/** postAuthorizationResponse, with a refusal as VERIFIER_ERROR (its words kept) and the verifier's redirect read. */
export async function sendAuthorizationResponse(
  request: PresentationRequest,
  answer: AuthorizationAnswer,
  options: SendOptions = {},
  context: HolderContext = {},
): Promise<VerifierAnswer> {
  const response = await postAuthorizationResponse(request, answer, options, context);
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    // §8.2: the response endpoint answers an error as `error` / `error_description`.
    const remote: RemoteError | undefined = remoteErrorOf(body);
    throw new HolderError('VERIFIER_ERROR', `The verifier answered ${response.status}`, remoteDetail(remote), remote);
  }
  const redirectUri =
    typeof body === 'object' && body !== null && typeof (body as { redirect_uri?: unknown }).redirect_uri === 'string'
      ? (body as { redirect_uri: string }).redirect_uri
      : undefined;
  return redirectUri ? { redirectUri } : {};
}

/**
 * Presents the selection: refused before anything is sent when it does not answer the request (§6.4.2),
 * then one presentation per query, all bound to this request, in one response.
 */
export async function submitPresentation(
  request: PresentationRequest,
  selections: readonly PresentationSelection[],
  options: { key: HolderKey } & SendOptions,
  context: HolderContext = {},
): Promise<VerifierAnswer> {
  if (
    !answersRequest(
      request.dcql,
      selections.map((s) => s.queryId),
    )
  ) {
    throw new HolderError('NO_MATCHING_CREDENTIAL', 'The chosen credentials do not answer the request');
  }
  const vpToken = await createVpToken(request, selections, options.key);
  return sendAuthorizationResponse(request, { vp_token: vpToken }, options, context);
}

/** Tells the verifier the holder declined (`access_denied`, §8.5), sharing nothing. */
export function declinePresentation(
  request: PresentationRequest,
  context: HolderContext = {},
): Promise<VerifierAnswer> {
  return sendAuthorizationResponse(
    request,
    { error: 'access_denied', error_description: 'The holder declined to share' },
    {},
    context,
  );
}
