import { decodeJwt } from '@cp/credentials';
import {
  authorizationCodeGrantIdentifier,
  clientAuthenticationAnonymous,
  getAuthorizationServerMetadataFromList,
  Oauth2Client,
  preAuthorizedCodeGrantIdentifier,
  type RequestDpopOptions,
  resourceRequest,
} from '@openid4vc/oauth2';
import { type CredentialOfferObject, type IssuerMetadataResult, Openid4vciClient } from '@openid4vc/openid4vci';
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import {
  createHolderKey,
  type Fetch,
  type HolderContext,
  type HolderKey,
  holderCallbacks,
  holderErrorIn,
  isFetchableUrl,
} from './callbacks.ts';
import { errorMessage, HolderError, type HolderErrorCode, remoteDetail, remoteErrorOf } from './errors.ts';
import { isBoundTo, type ParsedSdJwtVc, parseSdJwtVc } from './sd-jwt-vc.ts';
import { clientAuthenticationWalletAttestation, type WalletAttestation } from './wallet-attestation.ts';

/**
 * OpenID4VCI 1.0 on @openid4vc/openid4vci's client, pre-authorized code flow or authorization code flow (PAR,
 * PKCE, a browser step the caller completes; also wallet-initiated): offer (by value or by
 * reference) → issuer and authorization server metadata → token (with the transaction code when asked) →
 * nonce → key proof (`openid4vci-proof+jwt` with the holder JWK) → credential, checked to be an SD-JWT VC
 * bound to the holder key. What the holder makes of the issuer (trust, display) is the caller's.
 */

export const PRE_AUTHORIZED_GRANT = preAuthorizedCodeGrantIdentifier;
export const AUTHORIZATION_CODE_GRANT = authorizationCodeGrantIdentifier;

/** What a link, QR code or paste holds: the offer itself, or where to fetch it. */
export type OfferLink =
  | { offer: Record<string, unknown>; offerUri?: undefined }
  | { offer?: undefined; offerUri: string };

const offerInvalid = (message: string): never => {
  throw new HolderError('OFFER_INVALID', message);
};
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function offerJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return offerInvalid('The credential offer is not JSON');
  }
  if (!isObject(value)) return offerInvalid('The credential offer is not a JSON object');
  return value;
}

/**
 * Reads a credential offer from what was scanned, pasted or followed: `openid-credential-offer://?
 * credential_offer=…|credential_offer_uri=…` (OpenID4VCI 1.0 §4.1), an https link with those parameters,
 * a link wrapping one in `offer` (a wallet's own `/receive?offer=<link>`), or the offer JSON itself.
 */
export function parseCredentialOfferLink(input: string): OfferLink {
  const text = input.trim();
  if (text.startsWith('{')) return { offer: offerJson(text) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return offerInvalid('This is neither a credential offer link nor an offer');
  }
  const byValue = url.searchParams.get('credential_offer');
  const byReference = url.searchParams.get('credential_offer_uri');
  if (byValue) return { offer: offerJson(byValue) };
  if (byReference) {
    if (!isFetchableUrl(byReference)) offerInvalid('credential_offer_uri is not an https URL');
    return { offerUri: new URL(byReference).href };
  }
  const nested = url.searchParams.get('offer');
  if (nested && nested !== text) return parseCredentialOfferLink(nested);
  return offerInvalid('The link carries no credential_offer or credential_offer_uri');
}

export interface TxCodeRequest {
  length?: number;
  inputMode: 'numeric' | 'text';
  description?: string;
}

/** A resolved offer: everything needed to show it and to redeem it (plain, cloneable data). */
export interface Issuance {
  offer: CredentialOfferObject;
  issuerMetadata: IssuerMetadataResult;
  /** The offered configuration this holder redeems (the first), and its metadata as published. */
  configurationId: string;
  configuration: Record<string, unknown>;
  /** The transaction code the issuer asks for, when it asks for one. */
  txCode?: TxCodeRequest;
}

const SD_JWT_FORMATS = new Set(['dc+sd-jwt', 'vc+sd-jwt']);

function clientCallbacks(
  context: HolderContext,
  unreachable: HolderErrorCode,
  key?: HolderKey,
  walletAttestation?: WalletAttestation,
) {
  const callbacks = holderCallbacks(context, { unreachable, ...(key ? { key } : {}) });
  return {
    ...callbacks,
    // A wallet is a public client: the pre-authorized code grant needs no client authentication (§6.1). A
    // wallet given an attestation by its provider sends it (Attestation-Based Client Authentication).
    clientAuthentication: walletAttestation
      ? clientAuthenticationWalletAttestation(walletAttestation, callbacks.fetch)
      : clientAuthenticationAnonymous(),
  };
}

function client(
  context: HolderContext,
  unreachable: HolderErrorCode,
  key?: HolderKey,
  walletAttestation?: WalletAttestation,
) {
  return new Openid4vciClient({ callbacks: clientCallbacks(context, unreachable, key, walletAttestation) });
}

const statusOf = (err: unknown) => (err as { response?: { status?: unknown } }).response?.status;

/** Fetches the offer (by reference) or reads it (by value), as @openid4vc/openid4vci parses it. */
export async function resolveCredentialOfferObject(
  input: string,
  context: HolderContext = {},
): Promise<CredentialOfferObject> {
  const link = parseCredentialOfferLink(input);
  const normalized = link.offer
    ? `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(link.offer))}`
    : `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(link.offerUri)}`;
  try {
    return await client(context, 'ISSUER_UNREACHABLE').resolveCredentialOffer(normalized);
  } catch (err) {
    const own = holderErrorIn(err);
    if (own) throw own;
    const status = statusOf(err);
    if (status === 404 || status === 410) {
      throw new HolderError('OFFER_EXPIRED', `The offer is no longer available (${status})`);
    }
    if (typeof status === 'number' && status >= 400) {
      throw new HolderError('ISSUER_UNREACHABLE', `The offer endpoint answered ${status}`);
    }
    throw new HolderError('OFFER_INVALID', `The credential offer is not valid: ${errorMessage(err)}`.slice(0, 500));
  }
}

const sameIssuer = (a: string, b: string) => a.replace(/\/$/, '') === b.replace(/\/$/, '');

/** The issuer's metadata and its authorization servers' (OpenID4VCI 1.0 §12.2.2, RFC 8414). */
export async function resolveIssuerMetadata(
  credentialIssuer: string,
  context: HolderContext = {},
): Promise<IssuerMetadataResult> {
  let metadata: IssuerMetadataResult;
  try {
    metadata = await client(context, 'ISSUER_UNREACHABLE').resolveIssuerMetadata(credentialIssuer);
  } catch (err) {
    throw (
      holderErrorIn(err) ??
      new HolderError('ISSUER_UNREACHABLE', `No usable issuer metadata at ${credentialIssuer}: ${errorMessage(err)}`)
    );
  }
  if (!sameIssuer(metadata.credentialIssuer.credential_issuer, credentialIssuer)) {
    throw new HolderError('ISSUER_UNREACHABLE', 'The issuer metadata describes another issuer');
  }
  return metadata;
}

/** The credential formats a holder can ask an offer for: SD-JWT VC, or ISO mdoc (read with `@cp/holder/mdoc`). */
export type OfferFormat = 'dc+sd-jwt' | 'mso_mdoc';

const formatMatches = (wanted: OfferFormat, format: unknown) =>
  wanted === 'mso_mdoc' ? format === 'mso_mdoc' : SD_JWT_FORMATS.has(String(format));

const describedConfiguration = (issuerMetadata: IssuerMetadataResult, configurationId: string) =>
  issuerMetadata.credentialIssuer.credential_configurations_supported[configurationId] as
    | Record<string, unknown>
    | undefined;

/** The configuration an issuer describes, when this holder can receive it in `wanted` (default SD-JWT VC). */
function configurationOf(issuerMetadata: IssuerMetadataResult, configurationId: string, wanted?: OfferFormat) {
  const configuration = describedConfiguration(issuerMetadata, configurationId);
  if (!isObject(configuration)) return offerInvalid(`The issuer does not describe ${configurationId}`);
  if (!formatMatches(wanted ?? 'dc+sd-jwt', configuration.format)) {
    throw new HolderError('OFFER_UNSUPPORTED', `Credential format ${String(configuration.format)} is not supported`);
  }
  return configuration;
}

/**
 * Resolves an offer link and the issuer behind it; refuses what this holder cannot redeem: by default an offer
 * without a pre-authorized code; with `authorizationCode`, an offer with neither grant (the caller then redeems
 * it with `requestCredential`'s `authorizationCode` option, which needs a browser step). The configuration
 * redeemed is the offer's first, or with `format` the first the offer lists in that format (an issuer may offer
 * one credential in several formats, e.g. `dc+sd-jwt` and `mso_mdoc`).
 */
export async function resolveCredentialOffer(
  input: string,
  context: HolderContext = {},
  options: { authorizationCode?: boolean; format?: OfferFormat } = {},
): Promise<Issuance> {
  const offer = await resolveCredentialOfferObject(input, context);
  const grant = offer.grants?.[PRE_AUTHORIZED_GRANT];
  const hasAuthorizationCode = options.authorizationCode === true && !!offer.grants?.[AUTHORIZATION_CODE_GRANT];
  if (!grant && !hasAuthorizationCode) {
    throw new HolderError('OFFER_UNSUPPORTED', 'Only offers with a pre-authorized code are supported');
  }
  if (!offer.credential_configuration_ids[0]) return offerInvalid('The offer names no credential configuration');
  const issuerMetadata = await resolveIssuerMetadata(offer.credential_issuer, context);
  const wanted = options.format;
  const configurationId = wanted
    ? offer.credential_configuration_ids.find((id) =>
        formatMatches(wanted, describedConfiguration(issuerMetadata, id)?.format),
      )
    : offer.credential_configuration_ids[0];
  if (!configurationId) throw new HolderError('OFFER_UNSUPPORTED', `The offer has no ${wanted} credential`);
  const configuration = configurationOf(issuerMetadata, configurationId, wanted);
  let txCode: TxCodeRequest | undefined;
  if (grant?.tx_code !== undefined) {
    const spec = grant.tx_code;
    txCode = {
      ...(typeof spec.length === 'number' ? { length: spec.length } : {}),
      inputMode: spec.input_mode === 'text' ? 'text' : 'numeric',
      ...(str(spec.description) ? { description: spec.description } : {}),
    };
  }
  return { offer, issuerMetadata, configurationId, configuration, ...(txCode ? { txCode } : {}) };
}

/** OAuth / OpenID4VCI token errors (RFC 6749 §5.2, OpenID4VCI 1.0 §6.3) → what the holder can act on. */
export function tokenErrorCode(body: unknown, pinGiven: boolean): HolderErrorCode {
  const error = isObject(body) ? str(body.error) : undefined;
  const description = (isObject(body) ? str(body.error_description) : undefined) ?? '';
  const aboutPin = /tx_code|transaction code|\bpin\b|user_pin/i.test(description);
  switch (error) {
    case 'invalid_tx_code':
    case 'invalid_user_pin':
      return pinGiven ? 'PIN_WRONG' : 'PIN_REQUIRED';
    case 'invalid_grant':
      if (aboutPin) return pinGiven ? 'PIN_WRONG' : 'PIN_REQUIRED';
      return 'OFFER_EXPIRED';
    case 'invalid_request':
      if (aboutPin && !pinGiven) return 'PIN_REQUIRED';
      return 'ISSUER_ERROR';
    case 'expired_token':
    case 'access_denied':
      return 'OFFER_EXPIRED';
    default:
      return 'ISSUER_ERROR';
  }
}

export interface ReceivedCredential {
  /** The SD-JWT VC as issued (bound to the holder key: the first instance). */
  credential: string;
  /** Its payload, decoded (not verified: the issuer's key and trust are the caller's to decide). */
  parsed: ParsedSdJwtVc;
  /**
   * Every instance of a batch (OpenID4VCI 1.0 §8.2 `proofs`), the first being `credential`: the same claims,
   * each bound to a key of its own and with a status entry of its own, so that each presentation can use a
   * fresh one (unlinkable). One element when the issuer issues no batches or the batch was capped to 1.
   */
  instances: ReceivedInstance[];
}

export interface ReceivedInstance {
  credential: string;
  parsed: ParsedSdJwtVc;
  /** The key it is bound to (`cnf.jwk`). */
  key: HolderKey;
}

/**
 * How many credentials to ask for in one request: the issuer's `batch_credential_issuance.batch_size`
 * (OpenID4VCI 1.0 §12.2.4; none: 1), capped by the caller's `max`.
 */
export function batchSizeFor(issuerMetadata: IssuerMetadataResult, max?: number): number {
  const announced = issuerMetadata.credentialIssuer.batch_credential_issuance?.batch_size;
  const size = typeof announced === 'number' && Number.isInteger(announced) && announced > 1 ? announced : 1;
  return Math.max(1, Math.min(size, max ?? size));
}

/** The one DPoP algorithm this holder signs with (HAIP 1.0). */
const DPOP_ALG = 'ES256';

/**
 * Whether the offer's authorization server takes DPoP proofs this holder can make (RFC 9449 §5.1
 * `dpop_signing_alg_values_supported` with ES256). Then this holder always uses DPoP: an issuer that requires it
 * refuses the token request otherwise, and a bound token is worth nothing to whoever steals it.
 */
export function issuerSupportsDpop(issuance: Pick<Issuance, 'offer' | 'issuerMetadata'>): boolean {
  const grant = issuance.offer.grants?.[PRE_AUTHORIZED_GRANT];
  try {
    const server = getAuthorizationServerMetadataFromList(
      issuance.issuerMetadata.authorizationServers,
      grant?.authorization_server ?? issuance.issuerMetadata.authorizationServers[0]?.issuer ?? '',
    );
    return server.dpop_signing_alg_values_supported?.includes(DPOP_ALG) ?? false;
  } catch {
    return false;
  }
}

/** A DPoP session: the proof key (sign with it through the client's callbacks) and the server's last nonce. */
export interface DpopSession {
  key: HolderKey;
  nonce?: string;
}

const dpopOptions = (dpop: DpopSession): RequestDpopOptions => ({
  signer: { method: 'jwk', alg: DPOP_ALG, publicJwk: dpop.key.publicJwk as never },
  ...(dpop.nonce ? { nonce: dpop.nonce } : {}),
});

/**
 * The access token of the pre-authorized code grant (OpenID4VCI 1.0 §6). With `dpop`, the token is bound to its
 * key (RFC 9449): the library sends a DPoP proof and, on `use_dpop_nonce`, sends it again with the server's
 * nonce; the nonce the server gives with the token is kept in `dpop` for the credential request.
 */
export async function requestAccessToken(
  issuance: Pick<Issuance, 'offer' | 'issuerMetadata' | 'txCode'>,
  options: { txCode?: string; dpop?: DpopSession; walletAttestation?: WalletAttestation } = {},
  context: HolderContext = {},
) {
  const txCode = options.txCode?.trim() || undefined;
  if (issuance.txCode && !txCode) throw new HolderError('PIN_REQUIRED', 'This offer needs the transaction code');
  const { dpop, walletAttestation } = options;
  const retrieve = () =>
    client(context, 'ISSUER_UNREACHABLE', dpop?.key, walletAttestation).retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer: issuance.offer,
      issuerMetadata: issuance.issuerMetadata,
      ...(issuance.txCode && txCode ? { txCode } : {}),
      ...(dpop ? { dpop: dpopOptions(dpop) } : {}),
    });
  try {
    let answer: Awaited<ReturnType<typeof retrieve>>;
    try {
      answer = await retrieve();
    } catch (err) {
      // A challenge that went stale between its fetch and the request: once more, with a fresh one.
      const remote = remoteErrorOf((err as { errorResponse?: unknown }).errorResponse);
      if (!walletAttestation || remote?.error !== 'use_attestation_challenge') throw err;
      answer = await retrieve();
    }
    if (dpop) {
      if (answer.accessTokenResponse.token_type.toLowerCase() !== 'dpop') {
        throw new HolderError('ISSUER_ERROR', 'The issuer did not bind the access token to the DPoP key');
      }
      dpop.nonce = answer.dpop?.nonce;
    }
    return answer.accessTokenResponse;
  } catch (err) {
    const own = holderErrorIn(err);
    if (own) throw own;
    const body = (err as { errorResponse?: unknown }).errorResponse;
    const remote = remoteErrorOf(body);
    const status = statusOf(err);
    throw new HolderError(
      tokenErrorCode(body, !!(issuance.txCode && txCode)),
      typeof status === 'number' ? `The token endpoint answered ${status}` : `No access token: ${errorMessage(err)}`,
      remoteDetail(remote),
      remote,
    );
  }
}

/**
 * The browser step of the authorization code flow: opens the authorization request URL (the issuer's page, where
 * the holder may have to prove who they are) and answers the URL the issuer redirected to (`redirectUri` with
 * `code`, `state` and `iss`). A wallet opens a browser; tests follow the redirects with fetch.
 */
export type AuthorizeInBrowser = (authorizationRequestUrl: string) => Promise<string>;

export interface AuthorizationCodeOptions {
  /** Where the issuer sends the browser back to (the wallet's own URL). */
  redirectUri: string;
  authorize: AuthorizeInBrowser;
  /** The wallet's client_id (default: the wallet attestation's `sub`, else `DEFAULT_CLIENT_ID`). */
  clientId?: string;
}

/** The client_id of a wallet that has no attestation naming one: public clients choose their own (RFC 6749 §2.2). */
export const DEFAULT_CLIENT_ID = 'cp-holder';

const randomState = () =>
  Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

function attestationSubject(walletAttestation: WalletAttestation | undefined): string | undefined {
  if (!walletAttestation) return undefined;
  const { sub } = decodeJwt<{ sub?: unknown }>(walletAttestation.attestation).payload;
  return typeof sub === 'string' ? sub : undefined;
}

/**
 * What must outlive the browser step of the authorization code flow, as plain (cloneable, storable) data: a
 * wallet in a web page loses its memory when it navigates to the issuer, so it keeps this until the issuer sends
 * the browser back. `codeVerifier` is the PKCE secret (RFC 7636): keep it out of URLs and logs, use it once.
 */
export interface PendingAuthorization {
  /** Where to send the browser: the issuer's authorization endpoint with the pushed request's `request_uri`. */
  authorizationRequestUrl: string;
  state: string;
  codeVerifier: string;
  clientId: string;
  redirectUri: string;
  /** The DPoP nonce the pushed authorization request answered, for the token request's proof. */
  dpopNonce?: string;
}

type AuthorizationIssuance = Pick<Issuance, 'offer' | 'issuerMetadata' | 'configurationId' | 'configuration'>;

function authorizationServerOf(issuance: AuthorizationIssuance) {
  const grant = issuance.offer.grants?.[AUTHORIZATION_CODE_GRANT];
  if (!grant) throw new HolderError('OFFER_UNSUPPORTED', 'The offer has no authorization code grant');
  return {
    grant,
    authorizationServerMetadata: getAuthorizationServerMetadataFromList(
      issuance.issuerMetadata.authorizationServers,
      grant.authorization_server ?? issuance.issuerMetadata.authorizationServers[0]?.issuer ?? '',
    ),
  };
}

/** A failure of the authorization code flow as the holder's error (the issuer's OAuth error kept as its words). */
function authorizationFailure(err: unknown): HolderError {
  const own = holderErrorIn(err);
  if (own) return own;
  const body = (err as { errorResponse?: unknown }).errorResponse;
  const remote = remoteErrorOf(body);
  const status = statusOf(err);
  return new HolderError(
    tokenErrorCode(body, false),
    typeof status === 'number' ? `The issuer answered ${status}` : `No access token: ${errorMessage(err)}`,
    remoteDetail(remote),
    remote,
  );
}

/**
 * The first half of the authorization code flow (OpenID4VCI 1.0 §5, RFC 6749 §4.1) as @openid4vc/oauth2's client
 * runs it: a pushed authorization request (RFC 9126) with PKCE (RFC 7636, S256 as the issuer announces) and the
 * offer's `issuer_state`, for the configuration's `scope` (or `authorization_details` without one). With `dpop`,
 * the PAR carries a proof of its key (RFC 9449 §10: the code is bound to it). Answers what the browser step needs
 * and what finishAuthorizationCodeFlow needs after it.
 */
export async function startAuthorizationCodeFlow(
  issuance: AuthorizationIssuance,
  options: {
    redirectUri: string;
    clientId?: string;
    dpop?: DpopSession;
    walletAttestation?: WalletAttestation;
  },
  context: HolderContext = {},
): Promise<PendingAuthorization> {
  const { dpop, walletAttestation } = options;
  const callbacks = clientCallbacks(context, 'ISSUER_UNREACHABLE', dpop?.key, walletAttestation);
  // The OAuth client itself for the authorization request: the offer's convenience method drops `state`.
  const oauth2 = new Oauth2Client({ callbacks });
  const clientId = options.clientId ?? attestationSubject(walletAttestation) ?? DEFAULT_CLIENT_ID;
  const state = randomState();
  const scope = str(issuance.configuration.scope);
  try {
    const { grant, authorizationServerMetadata } = authorizationServerOf(issuance);
    const issuerState = str(grant.issuer_state);
    const request = await oauth2.createAuthorizationRequestUrl({
      authorizationServerMetadata,
      clientId,
      redirectUri: options.redirectUri,
      state,
      resource: issuance.issuerMetadata.credentialIssuer.credential_issuer,
      ...(scope ? { scope } : {}),
      additionalRequestPayload: {
        ...(issuerState ? { issuer_state: issuerState } : {}),
        ...(scope
          ? {}
          : {
              authorization_details: [
                { type: 'openid_credential', credential_configuration_id: issuance.configurationId },
              ],
            }),
      },
      ...(dpop ? { dpop: dpopOptions(dpop) } : {}),
    });
    if (!request.pkce) throw new HolderError('ISSUER_ERROR', 'The issuer does not announce PKCE (S256)');
    const dpopNonce = request.dpop?.nonce;
    return {
      authorizationRequestUrl: request.authorizationRequestUrl,
      state,
      codeVerifier: request.pkce.codeVerifier,
      clientId,
      redirectUri: options.redirectUri,
      ...(dpopNonce ? { dpopNonce } : {}),
    };
  } catch (err) {
    throw authorizationFailure(err);
  }
}

/**
 * The second half: the URL the issuer sent the browser back to (`redirectUri` with `code`, `state` and `iss`, or
 * an `error`) is checked, its `state` against the pending request's and its `iss` against the authorization
 * server (RFC 9207), then the code is exchanged with the PKCE verifier (and, with `dpop`, a proof of the key the
 * PAR was made with: the token is bound to it).
 */
export async function finishAuthorizationCodeFlow(
  issuance: AuthorizationIssuance,
  pending: PendingAuthorization,
  redirectUrl: string,
  options: { dpop?: DpopSession; walletAttestation?: WalletAttestation } = {},
  context: HolderContext = {},
) {
  const { dpop, walletAttestation } = options;
  const oid4vci = new Openid4vciClient({
    callbacks: clientCallbacks(context, 'ISSUER_UNREACHABLE', dpop?.key, walletAttestation),
  });
  try {
    const { authorizationServerMetadata } = authorizationServerOf(issuance);
    const response = oid4vci.parseAndVerifyAuthorizationResponseRedirectUrl({
      url: redirectUrl,
      authorizationServerMetadata,
    });
    if (response.error !== undefined) {
      const description = str((response as { error_description?: unknown }).error_description);
      const remote = { error: String(response.error), ...(description ? { description } : {}) };
      throw new HolderError(
        'ISSUER_ERROR',
        `The issuer refused the authorization: ${response.error}`,
        remoteDetail(remote),
        remote,
      );
    }
    if (response.state !== pending.state)
      throw new HolderError('ISSUER_ERROR', 'The authorization response is of another request (state)');
    if (dpop && !dpop.nonce && pending.dpopNonce) dpop.nonce = pending.dpopNonce;
    const answer = await oid4vci.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer: issuance.offer,
      issuerMetadata: issuance.issuerMetadata,
      authorizationCode: response.code,
      pkceCodeVerifier: pending.codeVerifier,
      redirectUri: pending.redirectUri,
      // RFC 6749 §4.1.3: a public client names itself.
      additionalRequestPayload: { client_id: pending.clientId },
      ...(dpop ? { dpop: dpopOptions(dpop) } : {}),
    });
    if (dpop) {
      if (answer.accessTokenResponse.token_type.toLowerCase() !== 'dpop') {
        throw new HolderError('ISSUER_ERROR', 'The issuer did not bind the access token to the DPoP key');
      }
      dpop.nonce = answer.dpop?.nonce;
    }
    return answer.accessTokenResponse;
  } catch (err) {
    throw authorizationFailure(err);
  }
}

/**
 * The access token of the authorization code flow in one call: startAuthorizationCodeFlow, the browser step
 * (`authorize`), finishAuthorizationCodeFlow. For a holder whose memory survives the browser step (an app, a
 * test); a web page that navigates away uses the two halves itself.
 */
export async function requestAccessTokenWithAuthorizationCode(
  issuance: AuthorizationIssuance,
  options: { authorization: AuthorizationCodeOptions; dpop?: DpopSession; walletAttestation?: WalletAttestation },
  context: HolderContext = {},
) {
  const { authorization, dpop, walletAttestation } = options;
  const common = { ...(dpop ? { dpop } : {}), ...(walletAttestation ? { walletAttestation } : {}) };
  const pending = await startAuthorizationCodeFlow(
    issuance,
    {
      redirectUri: authorization.redirectUri,
      ...(authorization.clientId ? { clientId: authorization.clientId } : {}),
      ...common,
    },
    context,
  );
  let redirect: string;
  try {
    redirect = await authorization.authorize(pending.authorizationRequestUrl);
  } catch (err) {
    throw authorizationFailure(err);
  }
  return finishAuthorizationCodeFlow(issuance, pending, redirect, common, context);
}

/**
 * Wallet-initiated issuance (OpenID4VCI 1.0 §5, no offer): the issuer at `credentialIssuer` and one of its
 * configurations (the first without `configurationId`), as an Issuance that only the authorization code flow
 * redeems (`requestCredential` with `authorizationCode`): the issuer identifies the holder in the browser step.
 */
export async function resolveWalletInitiatedIssuance(
  credentialIssuer: string,
  configurationId?: string,
  context: HolderContext = {},
): Promise<Issuance> {
  const issuerMetadata = await resolveIssuerMetadata(credentialIssuer, context);
  const id =
    configurationId ?? Object.keys(issuerMetadata.credentialIssuer.credential_configurations_supported)[0] ?? '';
  if (!id) return offerInvalid('The issuer describes no credential configuration');
  // An mdoc configuration is asked for as such (then received with `requestMdocCredentials`); else SD-JWT VC.
  const described = describedConfiguration(issuerMetadata, id);
  const format = isObject(described) && described.format === 'mso_mdoc' ? 'mso_mdoc' : undefined;
  const configuration = configurationOf(issuerMetadata, id, format);
  const offer: CredentialOfferObject = {
    credential_issuer: issuerMetadata.credentialIssuer.credential_issuer,
    credential_configuration_ids: [id],
    grants: { [AUTHORIZATION_CODE_GRANT]: {} },
  };
  return { offer, issuerMetadata, configurationId: id, configuration };
}

/** A fresh `c_nonce` from the nonce endpoint (OpenID4VCI 1.0 §7); `fallback` (a draft token's) without one. */
export async function requestNonce(
  issuerMetadata: IssuerMetadataResult,
  fallback: string | undefined,
  context: HolderContext = {},
): Promise<string | undefined> {
  if (!issuerMetadata.credentialIssuer.nonce_endpoint) return fallback;
  try {
    return (await client(context, 'ISSUER_UNREACHABLE').requestNonce({ issuerMetadata })).c_nonce;
  } catch (err) {
    throw holderErrorIn(err) ?? new HolderError('ISSUER_ERROR', `The nonce endpoint failed: ${errorMessage(err)}`);
  }
}

/** The key proof (OpenID4VCI 1.0 Appendix F.1): `openid4vci-proof+jwt`, `jwk` header, `aud` = issuer, `nonce`. */
export async function createKeyProof(
  issuance: Pick<Issuance, 'issuerMetadata' | 'configurationId'>,
  key: HolderKey,
  nonce: string | undefined,
  context: HolderContext = {},
  /** A key attestation of `key` from the wallet provider (OpenID4VCI 1.0 Appendix D), sent in the proof header. */
  keyAttestation?: string,
): Promise<string> {
  try {
    const { jwt } = await client(context, 'ISSUER_UNREACHABLE', key).createCredentialRequestJwtProof({
      issuerMetadata: issuance.issuerMetadata,
      credentialConfigurationId: issuance.configurationId,
      ...(nonce ? { nonce } : {}),
      ...(keyAttestation ? { keyAttestationJwt: keyAttestation } : {}),
      signer: { method: 'jwk', alg: key.signer.alg, publicJwk: key.publicJwk as never },
    });
    return jwt;
  } catch (err) {
    throw holderErrorIn(err) ?? new HolderError('OFFER_UNSUPPORTED', `No key proof possible: ${errorMessage(err)}`);
  }
}

type CredentialAttempt = { credentials: string[] } | { invalidNonce: string | undefined };

/** The one key agreement this holder asks credential responses to be encrypted with (HAIP 1.0). */
const RESPONSE_ENCRYPTION_ALG = 'ECDH-ES';
/** The content encryptions it reads, preferred first. */
const RESPONSE_ENCRYPTION_ENCS = ['A128GCM', 'A256GCM'];

/**
 * The `enc` this holder asks the issuer to encrypt the credential response with (OpenID4VCI 1.0 §12.2.4
 * `credential_response_encryption`: ECDH-ES, A128GCM or A256GCM), or undefined when the issuer does not offer
 * it. An issuer that requires encryption this holder cannot read is refused.
 */
export function responseEncryptionEnc(issuerMetadata: IssuerMetadataResult): string | undefined {
  const offered = issuerMetadata.credentialIssuer.credential_response_encryption;
  if (!offered) return undefined;
  const enc = offered.alg_values_supported?.includes(RESPONSE_ENCRYPTION_ALG)
    ? RESPONSE_ENCRYPTION_ENCS.find((candidate) => offered.enc_values_supported?.includes(candidate))
    : undefined;
  if (!enc && offered.encryption_required) {
    throw new HolderError(
      'OFFER_UNSUPPORTED',
      'The issuer requires a response encryption this wallet does not support',
    );
  }
  return enc;
}

/** The credentials of a credential response (§8.3): `credentials[].credential`, or the drafts' `credential`. */
function credentialIn(body: Record<string, unknown>): CredentialAttempt {
  const listed = Array.isArray(body.credentials) ? (body.credentials as unknown[]) : [];
  const credentials = listed.map((entry) => (isObject(entry) ? str(entry.credential) : str(entry)));
  if (credentials.length > 0 && credentials.every((c): c is string => c !== undefined)) return { credentials };
  const single = listed.length === 0 ? str(body.credential) : undefined;
  if (single) return { credentials: [single] };
  if (body.transaction_id) throw new HolderError('OFFER_UNSUPPORTED', 'Deferred issuance is not supported');
  throw new HolderError('ISSUER_ERROR', 'The credential response holds no credential');
}

/**
 * The credential request with the key proofs and `credential_response_encryption` (OpenID4VCI 1.0 §8.2): a key
 * made for this one request (its private half never leaves this call), and the response must be a JWE to it
 * (§8.3: the issuer MUST encrypt when asked; a plaintext answer is refused). Sent with @openid4vc/oauth2's
 * resource request (Bearer or DPoP, `use_dpop_nonce` followed): the 0.4 client reads the parameters in a
 * draft's form and no encrypted answer.
 */
async function postEncryptedCredentialRequest(
  issuance: Pick<Issuance, 'issuerMetadata' | 'configurationId'>,
  accessToken: string,
  proofs: string[],
  enc: string,
  context: HolderContext,
  dpop?: DpopSession,
): Promise<CredentialAttempt> {
  const { publicKey, privateKey } = await generateKeyPair(RESPONSE_ENCRYPTION_ALG, { crv: 'P-256' });
  const jwk = { ...(await exportJWK(publicKey)), alg: RESPONSE_ENCRYPTION_ALG, use: 'enc' };
  const body = {
    credential_configuration_id: issuance.configurationId,
    proofs: { jwt: proofs },
    credential_response_encryption: { jwk, enc },
  };
  let answer: Awaited<ReturnType<typeof resourceRequest>>;
  try {
    answer = await resourceRequest({
      url: issuance.issuerMetadata.credentialIssuer.credential_endpoint,
      accessToken,
      callbacks: holderCallbacks(context, { unreachable: 'ISSUER_UNREACHABLE', ...(dpop ? { key: dpop.key } : {}) }),
      requestOptions: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      ...(dpop ? { dpop: dpopOptions(dpop) } : {}),
    });
  } catch (err) {
    throw holderErrorIn(err) ?? new HolderError('ISSUER_ERROR', `The credential request failed: ${errorMessage(err)}`);
  }
  if (dpop && answer.dpop?.nonce) dpop.nonce = answer.dpop.nonce;
  const { response } = answer;
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!answer.ok) {
    // Errors are plain JSON (§8.3.1.2), encrypted or not.
    const errorBody: unknown = type === 'application/json' ? await response.json().catch(() => undefined) : undefined;
    const remote = remoteErrorOf(errorBody);
    if (remote?.error === 'invalid_nonce') {
      return { invalidNonce: isObject(errorBody) ? str(errorBody.c_nonce) : undefined };
    }
    throw new HolderError(
      'ISSUER_ERROR',
      `The credential endpoint answered ${response.status}`,
      remoteDetail(remote),
      remote,
    );
  }
  if (type !== 'application/jwt') {
    throw new HolderError('ISSUER_ERROR', 'The issuer answered in plaintext although the response was to be encrypted');
  }
  let plaintext: string;
  try {
    const { plaintext: bytes, protectedHeader } = await compactDecrypt((await response.text()).trim(), privateKey, {
      keyManagementAlgorithms: [RESPONSE_ENCRYPTION_ALG],
      contentEncryptionAlgorithms: [enc],
    });
    if (protectedHeader.zip !== undefined) throw new Error('compressed');
    plaintext = new TextDecoder().decode(bytes);
  } catch {
    throw new HolderError('ISSUER_ERROR', 'The encrypted credential response cannot be decrypted');
  }
  let decrypted: unknown;
  try {
    decrypted = JSON.parse(plaintext);
  } catch {
    decrypted = undefined;
  }
  if (!isObject(decrypted)) throw new HolderError('ISSUER_ERROR', 'The decrypted credential response is not JSON');
  return credentialIn(decrypted);
}

/**
 * The credential request with the key proofs (OpenID4VCI 1.0 §8), its response encrypted to a one-time key
 * when the issuer offers that (responseEncryptionEnc).
 */
export async function postCredentialRequest(
  issuance: Pick<Issuance, 'issuerMetadata' | 'configurationId'>,
  accessToken: string,
  proofs: string[],
  context: HolderContext = {},
  dpop?: DpopSession,
): Promise<CredentialAttempt> {
  const enc = responseEncryptionEnc(issuance.issuerMetadata);
  if (enc) return postEncryptedCredentialRequest(issuance, accessToken, proofs, enc, context, dpop);
  let response: Awaited<ReturnType<Openid4vciClient['retrieveCredentials']>>;
  try {
    // With DPoP, the library sends `Authorization: DPoP` and a proof with `ath`, and once more with the
    // server's nonce when the answer is a `use_dpop_nonce` challenge (RFC 9449 §7.1, §9).
    response = await client(context, 'ISSUER_UNREACHABLE', dpop?.key).retrieveCredentials({
      issuerMetadata: issuance.issuerMetadata,
      accessToken,
      credentialConfigurationId: issuance.configurationId,
      proofs: { jwt: proofs },
      ...(dpop ? { dpop: dpopOptions(dpop) } : {}),
    });
    if (dpop && response.dpop?.nonce) dpop.nonce = response.dpop.nonce;
  } catch (err) {
    const own = holderErrorIn(err);
    if (own) throw own;
    const failed = (err as { response?: { credentialErrorResponseResult?: { data?: unknown } } }).response;
    const body = failed?.credentialErrorResponseResult?.data;
    const remote = remoteErrorOf(body);
    // A stale nonce: the issuer says so (drafts also return a new c_nonce).
    if (remote?.error === 'invalid_nonce') {
      return { invalidNonce: isObject(body) ? str(body.c_nonce) : undefined };
    }
    const status = statusOf(err);
    throw new HolderError(
      'ISSUER_ERROR',
      typeof status === 'number' ? `The credential endpoint answered ${status}` : errorMessage(err),
      remoteDetail(remote),
      remote,
    );
  }
  return credentialIn(response.credentialResponse);
}

export interface RequestCredentialOptions {
  /** The key the first (or only) credential is bound to. */
  key: HolderKey;
  txCode?: string;
  dpopKey?: HolderKey;
  /** At most this many credentials in one batch (default: the issuer's batch_size; 1: no batch). */
  batchSize?: number;
  /** Makes the key of each further batch instance (default createHolderKey): the caller keeps them. */
  createKey?: () => Promise<HolderKey>;
  /** The wallet provider's attestation of this wallet instance, sent with the token request. */
  walletAttestation?: WalletAttestation;
  /** The wallet provider's key attestation of `key`, sent in the header of that key's proof. */
  keyAttestation?: string;
  /**
   * Redeem through the authorization code flow (PAR, PKCE, a browser step) instead of the pre-authorized code:
   * required for a wallet-initiated issuance, possible for an offer that carries both grants.
   */
  authorizationCode?: AuthorizationCodeOptions;
  /**
   * Redeem the code of an authorization code flow started earlier (startAuthorizationCodeFlow) with the URL the
   * issuer sent the browser back to: a web wallet that navigated to the issuer and came back. With DPoP, pass the
   * PAR's key as `dpopKey`.
   */
  authorizationResponse?: { pending: PendingAuthorization; redirectUrl: string };
}

/**
 * Redeems a resolved offer for the credentials of its configuration, as issued (not read): token (with the
 * transaction code when the offer asks for one), nonce, key proofs, credentials (once more with a fresh nonce when
 * the issuer calls the first one stale). Answers them with the keys proven, `key` first. Reading them is the
 * caller's: requestCredential (SD-JWT VC), `requestMdocCredential` of `@cp/holder/mdoc`.
 *
 * When the issuer announces batch issuance (batchSizeFor), a fresh key is made for each further instance and
 * one proof per key sent with the same `c_nonce` (OpenID4VCI 1.0 §8.2). The issuer may answer fewer than asked
 * for; never more.
 *
 * When the issuer takes DPoP (issuerSupportsDpop), the token is bound to `dpopKey`, or else to a key made for
 * this one request and forgotten after it: never the holder key, so the issuer cannot link requests by it.
 */
export async function requestIssuedCredentials(
  issuance: Issuance,
  options: RequestCredentialOptions,
  context: HolderContext = {},
): Promise<{ credentials: string[]; keys: HolderKey[] }> {
  const dpop: DpopSession | undefined = issuerSupportsDpop(issuance)
    ? { key: options.dpopKey ?? (await createHolderKey()) }
    : undefined;
  const size = batchSizeFor(issuance.issuerMetadata, options.batchSize);
  const createKey = options.createKey ?? createHolderKey;
  const keys = [options.key, ...(await Promise.all(Array.from({ length: size - 1 }, () => createKey())))];
  const common = {
    ...(dpop ? { dpop } : {}),
    ...(options.walletAttestation ? { walletAttestation: options.walletAttestation } : {}),
  };
  const token = options.authorizationResponse
    ? await finishAuthorizationCodeFlow(
        issuance,
        options.authorizationResponse.pending,
        options.authorizationResponse.redirectUrl,
        common,
        context,
      )
    : options.authorizationCode
      ? await requestAccessTokenWithAuthorizationCode(
          issuance,
          { authorization: options.authorizationCode, ...common },
          context,
        )
      : await requestAccessToken(
          issuance,
          { ...(options.txCode !== undefined ? { txCode: options.txCode } : {}), ...common },
          context,
        );
  let nonce = await requestNonce(issuance.issuerMetadata, str(token.c_nonce), context);
  for (let attempt = 0; attempt < 2; attempt++) {
    const proofs = await Promise.all(
      keys.map((key) =>
        createKeyProof(issuance, key, nonce, context, key === options.key ? options.keyAttestation : undefined),
      ),
    );
    const answer = await postCredentialRequest(issuance, token.access_token, proofs, context, dpop);
    if ('credentials' in answer) {
      if (answer.credentials.length > keys.length) {
        throw new HolderError('CREDENTIAL_INVALID', 'The issuer answered more credentials than keys were proven');
      }
      return { credentials: answer.credentials, keys };
    }
    nonce = answer.invalidNonce ?? (await requestNonce(issuance.issuerMetadata, undefined, context));
  }
  throw new HolderError('ISSUER_ERROR', 'The issuer refused the key proof twice (invalid_nonce)');
}

/** One credential of the offer's configuration, as issued, bound (the issuer says) to `key`: no batch. */
export async function requestIssuedCredential(
  issuance: Issuance,
  options: RequestCredentialOptions,
  context: HolderContext = {},
): Promise<string> {
  const { credentials } = await requestIssuedCredentials(issuance, { ...options, batchSize: 1 }, context);
  const [credential] = credentials;
  if (credentials.length !== 1 || !credential) {
    throw new HolderError('CREDENTIAL_INVALID', 'The issuer answered more than the one credential asked for');
  }
  return credential;
}

/**
 * The credentials answered, each with the key it is bound to, in the order of `keys`: each must be bound to one
 * of them, no two to the same (a batch's instances are unlinkable only on keys of their own), at most one each.
 */
async function boundInstances(credentials: string[], keys: HolderKey[]): Promise<ReceivedInstance[]> {
  const byKey = new Map<HolderKey, ReceivedInstance>();
  for (const credential of credentials) {
    const parsed = await parseSdJwtVc(credential);
    const key = keys.find((candidate) => isBoundTo(parsed, candidate.publicJwk));
    if (!key) throw new HolderError('CREDENTIAL_INVALID', 'The credential is not bound to the holder key');
    if (byKey.has(key)) throw new HolderError('CREDENTIAL_INVALID', 'Two credentials are bound to the same key');
    byKey.set(key, { credential, parsed, key });
  }
  return keys.flatMap((key) => byKey.get(key) ?? []);
}

/**
 * Redeems a resolved offer for SD-JWT VCs (requestIssuedCredentials): every credential must be an SD-JWT VC whose
 * `cnf.jwk` is one of the holder keys, the first bound to `key`; a batch answers every instance with its key.
 */
export async function requestCredential(
  issuance: Issuance,
  options: RequestCredentialOptions,
  context: HolderContext = {},
): Promise<ReceivedCredential> {
  if (!SD_JWT_FORMATS.has(String(issuance.configuration.format))) {
    throw new HolderError(
      'OFFER_UNSUPPORTED',
      'Not an SD-JWT VC configuration: mdocs are received with @cp/holder/mdoc',
    );
  }
  const { credentials, keys } = await requestIssuedCredentials(issuance, options, context);
  const instances = await boundInstances(credentials, keys);
  const [first] = instances;
  if (!first || first.key !== options.key) {
    throw new HolderError('CREDENTIAL_INVALID', 'No credential is bound to the holder key');
  }
  return { credential: first.credential, parsed: first.parsed, instances };
}

/** resolveCredentialOffer then requestCredential: a holder that accepts whatever it is offered (tests, benchmarks). */
export async function receiveCredential(
  offerLink: string,
  options: RequestCredentialOptions,
  context: HolderContext = {},
): Promise<ReceivedCredential> {
  return requestCredential(await resolveCredentialOffer(offerLink, context), options, context);
}

export type { Fetch };
