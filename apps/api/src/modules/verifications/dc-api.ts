import { calculateJwkThumbprint, type JWK } from 'jose';
import {
  type FrozenRequest,
  handleResponse,
  openAttemptRequest,
  type PayloadIndividual,
  type ResponseChannel,
  requestPayload,
  signRequestObject,
  type VerifierDeps,
  VerifierError,
} from './openid4vp.service.ts';
import type * as repository from './verifications.repository.ts';

/**
 * OpenID4VP 1.0 over the W3C Digital Credentials API (Appendix A; HAIP 1.0): the holder page asks the browser
 * (`navigator.credentials.get`) with the `openid4vp-v1-signed` protocol, and the wallet's answer comes back
 * through the page, which forwards it here. Same attempt, signer, client id, nonce, DCQL query and
 * encryption key as the attempt's `request_uri` request; what differs:
 * - the request travels by value, `{request: <JWS>}` (A.3.2), with `response_mode: dc_api.jwt` and
 *   `expected_origins`, and without `response_uri` or `state` (A.2);
 * - the only origin is the platform's own (the holder pages are served from PUBLIC_URL): no other origin
 *   can make this platform's request reach a wallet through the browser;
 * - the audience of the response is the origin prefixed with `origin:`, "even for signed requests"
 *   (A.4; B.3.6 for the KB-JWT `aud` of SD-JWT VC); an mdoc's device signature covers the
 *   OpenID4VPDCAPIHandover session transcript of the origin, nonce and encryption key instead (B.2.6.2).
 */

export const DC_API_PROTOCOL = 'openid4vp-v1-signed' as const;
const DC_API_RESPONSE_MODE = 'dc_api.jwt' as const;

/** The one origin whose pages may call the Digital Credentials API with this platform's requests (RFC 6454). */
export const dcApiOrigin = (publicUrl: string) => new URL(publicUrl).origin;

/** OpenID4VP 1.0 Appendix A.4: the audience of a response over the DC API, signed requests included. */
export const dcApiAudience = (origin: string) => `origin:${origin}`;

/** The request a DC API answer is built and read against: the attempt's, in `dc_api.jwt` mode for this origin. */
function dcApiRequestPayload(
  deps: VerifierDeps,
  individual: PayloadIndividual,
  frozen: FrozenRequest,
  clientMetadata: Record<string, unknown> = {},
) {
  // A.2: no response_uri (the answer returns through the browser) and no state (the page holds the session).
  const {
    response_uri: _responseUri,
    state: _state,
    ...payload
  } = requestPayload(deps, individual, frozen, clientMetadata);
  return {
    ...payload,
    response_mode: DC_API_RESPONSE_MODE,
    expected_origins: [dcApiOrigin(deps.publicUrl)],
  };
}

/**
 * How a DC API answer is read: against the `dc_api.jwt` request, bound to the origin: an SD-JWT VC's key
 * binding by its `aud` (A.4), an mdoc's device signature by the OpenID4VPDCAPIHandover transcript (B.2.6.2).
 */
const dcApiChannel = (deps: VerifierDeps): ResponseChannel => ({
  requestPayload: (individual, frozen) => dcApiRequestPayload(deps, individual, frozen),
  audience: () => dcApiAudience(dcApiOrigin(deps.publicUrl)),
  mdocHandover: (individual) => dcApiHandoverInfo(deps, individual),
});

/**
 * The `data` of the browser's `openid4vp-v1-signed` request (A.3.2): `{request: <signed request object>}`,
 * for an open attempt, asked by a page of this platform's origin only.
 */
export async function dcApiRequest(deps: VerifierDeps, individualId: string, origin: string) {
  if (origin !== dcApiOrigin(deps.publicUrl)) {
    throw new VerifierError(
      'invalid_request',
      'Digital Credentials API requests are made for this platform’s own pages only.',
    );
  }
  // Not marked REQUESTED: the page fetched it, no wallet has it yet (the holder may still cancel and scan the QR).
  const { individual, frozen, signer, clientMetadata } = await openAttemptRequest(deps, individualId, {
    error: 'invalid_request',
  });
  // A.3.2: the wallet ignores `aud` over the DC API; the static discovery audience as for request_uri.
  const request = await signRequestObject(signer, dcApiRequestPayload(deps, individual, frozen, clientMetadata));
  return { protocol: DC_API_PROTOCOL, data: { request } };
}

/**
 * The wallet's answer as the page received it from the browser (`data` of the DigitalCredential):
 * `{response: <JWE>}`, read and checked exactly as a `direct_post.jwt` response (decryption with the
 * attempt's key, a plain `vp_token` refused as a downgrade, every presentation check recorded, single use),
 * with the key binding's audience the origin (A.4).
 */
export function handleDcApiResponse(deps: VerifierDeps, individualId: string, data: unknown) {
  return handleResponse(deps, individualId, data, dcApiChannel(deps));
}

/**
 * The session transcript inputs of an mdoc answered over the DC API (OpenID4VP 1.0 Appendix B.2.6.2): the
 * SessionTranscript's handover is `["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce, jwkThumbprint]))]`,
 * with the origin without the `origin:` prefix (the platform's own, the only one requests are made for), the
 * attempt's nonce, and for `dc_api.jwt` (the only mode accepted) the SHA-256 JWK thumbprint (RFC 7638) of the
 * attempt's response encryption key. The CBOR is @cp/credentials' (openId4VpSessionTranscript).
 */
export async function dcApiHandoverInfo(deps: VerifierDeps, individual: repository.ResponseIndividual) {
  const thumbprint = await calculateJwkThumbprint(individual.responseKeyPublic as unknown as JWK, 'sha256');
  return {
    origin: dcApiOrigin(deps.publicUrl),
    nonce: individual.nonce,
    jwkThumbprint: new Uint8Array(Buffer.from(thumbprint, 'base64url')),
  };
}
