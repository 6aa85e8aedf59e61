import { randomInt } from 'node:crypto';
import type { Language } from '@cp/contracts';
import type { SecretBox } from '@cp/db';
import { authorizationCodeGrantIdentifier, pushedAuthorizationRequestUriPrefix } from '@openid4vc/oauth2';
import { z } from 'zod';
import { OAuthError } from '../../errors/oauth-error.ts';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { issuerUrl } from '../organization-keys/identifiers.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as repository from './authorization-code.repository.ts';
import { type AuthorizeMessage, EMAIL_CODE_MAIL } from './authorize-page.ts';
import { bindAccessToken } from './dpop.ts';
import { authorizationServer, libraryError } from './issuer.protocol.ts';
import {
  authorizationServerMetadataOf,
  type IssuerDeps,
  issuableConfigurationIds,
  type ProtocolRequest,
  recordWalletAttestation,
  type TokenRequest,
  tokenResponse,
} from './issuer.service.ts';
import { offerOfIssuerState } from './issuer-state.ts';
import { readConfigurationId } from './mdoc-issuance.ts';

/** The schema a credential configuration is of (`<slug>` or `<slug>_mdoc`): what offers are kept by. */
const slugOf = (configurationId: string) => readConfigurationId(configurationId).slug;

/**
 * The authorization code flow of an organization's issuer (OpenID4VCI 1.0 §5, RFC 6749 §4.1) with pushed
 * authorization requests (RFC 9126, required) and PKCE S256 (RFC 7636, required), as HAIP 1.0 asks:
 *
 * - issuer-initiated: the offer carries `issuer_state` next to the pre-authorized code; it names the offer
 *   (its id and an HMAC under the offer-code key, so it cannot be forged). The offer link is the proof, as for
 *   the pre-authorized code: the authorization endpoint answers with a code at once. Offers with a PIN
 *   (tx_code) carry no `issuer_state`: the PIN must not be bypassed.
 * - wallet-initiated: no `issuer_state`; the authorization endpoint asks for the recipient's e-mail address and
 *   a 6-digit code sent to it. The code then grants the oldest still claimable credential (ISSUED, offer open)
 *   issued to that address in the requested configuration. One code grants one credential; the wallet repeats
 *   the flow for the next (the delivered one is no longer claimable).
 *
 * The code is exchanged at the token endpoint for an access token on the granted offer, exactly as the
 * pre-authorized code would: from there the credential endpoint is the same, and one offer is redeemed once,
 * by whichever grant comes first.
 */

export const AUTHORIZATION_CODE_GRANT = authorizationCodeGrantIdentifier;
const PAR_TTL_SECONDS = 60;
const CODE_TTL_SECONDS = 60;
const FLOW_TTL_SECONDS = 600;
const EMAIL_CODE_TTL_SECONDS = 600;
const EMAIL_CODE_MAX_ATTEMPTS = 5;
const EMAIL_CODES_PER_FLOW = 3;
/** Codes sent to one address in an hour, over all flows of the organization. */
const EMAIL_CODES_PER_ADDRESS_HOUR = 10;
const ACCESS_TOKEN_TTL_SECONDS = 600;
/** RFC 7636 §4.2: BASE64URL(SHA-256(verifier)) is 43 characters. */
const S256_CHALLENGE = /^[\w-]{43}$/;
/** Schemes a redirect must never use (a browser would run or read them). */
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

/** The job that e-mails a one-time code: the code travels sealed under the master key. */
export interface EmailCodeJob {
  organizationId: string;
  authorizationRequestId: string;
  email: string;
  sealedCode: string;
  language: Language;
}

export interface AuthorizationDeps extends IssuerDeps {
  secretBox: SecretBox;
  enqueueEmailCode: (job: EmailCodeJob) => Promise<void>;
}

export const emailCodeSealName = (authorizationRequestId: string) => `email-one-time-code:${authorizationRequestId}`;

const zAuthorizationDetails = z
  .array(
    z
      .object({
        type: z.string().max(100),
        credential_configuration_id: z.string().min(1).max(200).optional(),
      })
      .loose(),
  )
  .min(1)
  .max(10);

function redirectUriOf(value: string | undefined): string {
  if (!value) throw new OAuthError('invalid_request', 'redirect_uri is required.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError('invalid_request', 'redirect_uri must be an absolute URI.');
  }
  // RFC 6749 §3.1.2: no fragment.
  if (url.hash || value.includes('#'))
    throw new OAuthError('invalid_request', 'redirect_uri must not have a fragment.');
  if (UNSAFE_SCHEMES.has(url.protocol)) throw new OAuthError('invalid_request', 'redirect_uri has an unsafe scheme.');
  return value;
}

/**
 * The one credential configuration requested: by `authorization_details` of type `openid_credential`
 * (OpenID4VCI 1.0 §5.1.1, RFC 9396) or by `scope` (§5.1.2; each configuration's scope is its id).
 */
function requestedConfiguration(body: Record<string, unknown>, issuable: string[]) {
  const details = body.authorization_details;
  if (details !== undefined) {
    let parsed: z.infer<typeof zAuthorizationDetails>;
    try {
      parsed = zAuthorizationDetails.parse(typeof details === 'string' ? JSON.parse(details) : details);
    } catch {
      throw new OAuthError('invalid_authorization_details', 'authorization_details must be a JSON array of objects.');
    }
    const ids = parsed.map((detail) => {
      if (detail.type !== 'openid_credential' || !detail.credential_configuration_id) {
        throw new OAuthError(
          'invalid_authorization_details',
          'Each authorization_details entry must be of type openid_credential with a credential_configuration_id.',
        );
      }
      return detail.credential_configuration_id;
    });
    const [id] = ids;
    if (ids.length !== 1 || !id) {
      throw new OAuthError('invalid_authorization_details', 'Ask for one credential configuration per request.');
    }
    if (!issuable.includes(id)) {
      throw new OAuthError('invalid_authorization_details', 'Unknown credential_configuration_id.');
    }
    return { id, authorizationDetails: parsed as unknown[], scope: null };
  }
  const scopes = typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : [];
  const matching = scopes.filter((scope) => issuable.includes(scope));
  const [id] = matching;
  if (!id || matching.length !== 1) {
    throw new OAuthError(
      'invalid_scope',
      scopes.length === 0
        ? 'Send authorization_details (openid_credential) or the scope of one credential configuration.'
        : 'The scope must name exactly one credential configuration of this issuer.',
    );
  }
  return { id, authorizationDetails: null, scope: id };
}

/**
 * Pushed authorization request (RFC 9126 §2): parsed by @openid4vc/oauth2, then this issuer's rules: a
 * `code` request of a client, with a redirect URI, PKCE S256 (plain and none refused), one credential
 * configuration, and, if any, the `issuer_state` of an open offer of this organization without a PIN. The DPoP
 * key of a proof at this endpoint, or `dpop_jkt` (RFC 9449 §10), binds the code to that key.
 */
export async function pushAuthorizationRequest(
  deps: AuthorizationDeps,
  organizationId: string,
  request: ProtocolRequest & { body: Record<string, unknown> },
) {
  const { body } = request;
  if (body.request !== undefined || body.request_uri !== undefined) {
    throw new OAuthError('invalid_request', 'Request objects (request, request_uri) are not supported here.');
  }
  let parsed: Awaited<ReturnType<typeof authorizationServer.parsePushedAuthorizationRequest>>;
  try {
    parsed = await authorizationServer.parsePushedAuthorizationRequest({
      authorizationRequest: body,
      request: request.http,
    });
  } catch (err) {
    throw libraryError(err);
  }
  const authorizationRequest = parsed.authorizationRequest;
  if (authorizationRequest.response_type !== 'code') {
    throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.');
  }
  // RFC 7636 §4.3: a missing method means plain, which HAIP 1.0 and this issuer refuse.
  if (!authorizationRequest.code_challenge)
    throw new OAuthError('invalid_request', 'code_challenge is required (PKCE).');
  if (authorizationRequest.code_challenge_method !== 'S256') {
    throw new OAuthError('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  }
  if (!S256_CHALLENGE.test(authorizationRequest.code_challenge)) {
    throw new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters).');
  }
  const redirectUri = redirectUriOf(authorizationRequest.redirect_uri);
  const configuration = requestedConfiguration(body, await issuableConfigurationIds(deps, organizationId));
  const dpopJkt = request.dpopJkt ?? authorizationRequest.dpop_jkt;
  if (request.dpopJkt && authorizationRequest.dpop_jkt && request.dpopJkt !== authorizationRequest.dpop_jkt) {
    throw new OAuthError('invalid_dpop_proof', 'dpop_jkt is not the key of the DPoP proof.');
  }
  const now = new Date();
  let offerId: string | null = null;
  if (authorizationRequest.issuer_state !== undefined) {
    const named = offerOfIssuerState(deps, authorizationRequest.issuer_state);
    const open = named
      ? await repository.findClaimableOffer(deps.db, organizationId, '', slugOf(configuration.id), now, named)
      : undefined;
    // Another organization's offer, a forged or used one, one of another configuration: all the same answer.
    if (!open || open.hasTxCode) {
      throw new OAuthError('invalid_request', 'issuer_state does not name an open offer of this issuer.');
    }
    offerId = open.offerId;
  }
  const requestUri = `${pushedAuthorizationRequestUriPrefix}${randomToken(32)}`;
  await repository.insertAuthorizationRequest(deps.db, {
    organizationId,
    requestUriHash: sha256(requestUri),
    clientId: authorizationRequest.client_id,
    redirectUri,
    codeChallenge: authorizationRequest.code_challenge,
    credentialConfigurationId: configuration.id,
    scope: configuration.scope,
    authorizationDetails: configuration.authorizationDetails,
    offerId,
    state: authorizationRequest.state ?? null,
    dpopJkt: dpopJkt ?? null,
    walletProviderName: request.walletAttestation?.record.provider_name ?? null,
    expiresAt: new Date(now.getTime() + PAR_TTL_SECONDS * 1000),
  });
  return authorizationServer.createPushedAuthorizationResponse({ requestUri, expiresInSeconds: PAR_TTL_SECONDS })
    .pushedAuthorizationResponse;
}

/**
 * Who receives what the browser flow grants: the redirect URI (its origin is shown) and the wallet provider
 * whose attestation was checked at the PAR. Shown on every page of the flow, so that a holder who follows a
 * link someone else pushed sees that the credentials would go to that someone's app.
 */
export interface FlowRecipient {
  redirectUri: string;
  walletProviderName: string | null;
}

/** What the authorization endpoint answers: a redirect with a code, or a page of the browser flow. */
export type AuthorizeOutcome =
  | { kind: 'redirect'; location: string }
  | ({ kind: 'email'; flow: string } & FlowRecipient)
  | ({ kind: 'code'; flow: string; message?: AuthorizeMessage; attemptsLeft?: number } & FlowRecipient)
  | { kind: 'message'; message: AuthorizeMessage; status: number };

const recipientOf = (row: repository.AuthorizationRequestRow): FlowRecipient => ({
  redirectUri: row.redirectUri,
  walletProviderName: row.walletProviderName,
});

const refused = (message: AuthorizeMessage, status = 400): AuthorizeOutcome => ({ kind: 'message', message, status });

/** RFC 6749 §4.1.2 and RFC 9207: the redirect with the code, the client's state and this issuer. */
function codeRedirect(deps: IssuerDeps, organizationId: string, row: repository.AuthorizationRequestRow, code: string) {
  const url = new URL(row.redirectUri);
  url.searchParams.set('code', code);
  if (row.state !== null) url.searchParams.set('state', row.state);
  url.searchParams.set('iss', issuerUrl(deps.publicUrl, organizationId));
  return url.href;
}

async function issueCode(
  deps: IssuerDeps,
  organizationId: string,
  row: repository.AuthorizationRequestRow,
  grant: { offerId: string; credentialId: string },
): Promise<AuthorizeOutcome> {
  const code = randomToken(32);
  await repository.insertAuthorizationCode(deps.db, {
    codeHash: sha256(code),
    organizationId,
    authorizationRequestId: row.id,
    offerId: grant.offerId,
    credentialId: grant.credentialId,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    codeChallenge: row.codeChallenge,
    dpopJkt: row.dpopJkt,
    expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
  });
  return { kind: 'redirect', location: codeRedirect(deps, organizationId, row, code) };
}

/**
 * Authorization endpoint (RFC 6749 §4.1.1 with RFC 9126 §4): only a pushed request, by its request_uri and
 * client_id, once. Its failures are shown to the user, never redirected (§4.1.2.1: the redirect URI is not
 * known to be the client's until the request is). With an offer: a code at once. Without: the e-mail page.
 */
export async function authorize(
  deps: IssuerDeps,
  organizationId: string,
  query: { client_id?: string | undefined; request_uri?: string | undefined },
): Promise<AuthorizeOutcome> {
  await organizationsService.getPublicOrganization(deps.db, organizationId);
  if (!query.client_id || !query.request_uri?.startsWith(pushedAuthorizationRequestUriPrefix)) {
    return refused('invalid_request');
  }
  const flow = randomToken(32);
  const now = new Date();
  const row = await repository.useAuthorizationRequest(
    deps.db,
    organizationId,
    sha256(query.request_uri),
    query.client_id,
    now,
    { flowHash: sha256(flow), flowExpiresAt: new Date(now.getTime() + FLOW_TTL_SECONDS * 1000) },
  );
  if (!row) return refused('invalid_request');
  if (!row.offerId) return { kind: 'email', flow, ...recipientOf(row) };
  const open = await repository.findClaimableOffer(
    deps.db,
    organizationId,
    '',
    slugOf(row.credentialConfigurationId),
    now,
    row.offerId,
  );
  if (!open) return refused('invalid_request');
  return issueCode(deps, organizationId, row, open);
}

/** The flow of a form post: its secret in the form and in the flow cookie (double submit, against CSRF). */
async function openFlow(deps: IssuerDeps, organizationId: string, flow: string, cookie: string | undefined) {
  if (!cookie || !safeEqual(cookie, flow)) return undefined;
  return repository.findOpenFlow(deps.db, organizationId, sha256(flow), new Date());
}

const zEmail = z.email().max(320);

/**
 * The e-mail step: a fresh 6-digit code (hashed) is e-mailed to the address, whoever it is, so that the answer
 * says nothing about which addresses have credentials here (the same work, the same page, either way).
 */
export async function submitEmail(
  deps: AuthorizationDeps,
  organizationId: string,
  input: { flow: string; cookie: string | undefined; email: string; language: Language },
): Promise<AuthorizeOutcome> {
  const row = await openFlow(deps, organizationId, input.flow, input.cookie);
  if (!row) return refused('session', 403);
  const email = zEmail.safeParse(input.email.trim());
  if (!email.success) return { kind: 'email', flow: input.flow, ...recipientOf(row) };
  const address = email.data.toLowerCase();
  // Against mail bombing through many flows: the same limit whether or not the address has credentials here.
  const sinceHour = new Date(Date.now() - 3600_000);
  if (
    (await repository.countCodesSentTo(deps.db, organizationId, address, sinceHour)) >= EMAIL_CODES_PER_ADDRESS_HOUR
  ) {
    await repository.endFlow(deps.db, row.id, new Date());
    return refused('too_many_codes', 429);
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const stored = await repository.putEmailOneTimeCode(
    deps.db,
    {
      authorizationRequestId: row.id,
      organizationId,
      email: address,
      codeHash: sha256(`${row.id}:${code}`),
      expiresAt: new Date(Date.now() + EMAIL_CODE_TTL_SECONDS * 1000),
    },
    EMAIL_CODES_PER_FLOW,
  );
  if (!stored) {
    await repository.endFlow(deps.db, row.id, new Date());
    return refused('too_many_codes', 429);
  }
  await deps.enqueueEmailCode({
    organizationId,
    authorizationRequestId: row.id,
    email: address,
    sealedCode: deps.secretBox.seal(code, emailCodeSealName(row.id)),
    language: input.language,
  });
  return { kind: 'code', flow: input.flow, ...recipientOf(row), message: 'code_sent' };
}

/**
 * The code step: each attempt counted before the comparison (at most EMAIL_CODE_MAX_ATTEMPTS per code, then the
 * flow ends). The right code ends the flow and, when something is claimable at that address, answers an
 * authorization code for it; otherwise a page that says so (seen only by whoever holds the address).
 */
export async function submitEmailCode(
  deps: IssuerDeps,
  organizationId: string,
  input: { flow: string; cookie: string | undefined; code: string },
): Promise<AuthorizeOutcome> {
  const row = await openFlow(deps, organizationId, input.flow, input.cookie);
  if (!row) return refused('session', 403);
  const now = new Date();
  const attempt = await repository.reserveEmailCodeAttempt(deps.db, row.id, EMAIL_CODE_MAX_ATTEMPTS, now);
  if (!attempt) {
    await repository.endFlow(deps.db, row.id, now);
    return refused('start_again');
  }
  if (!/^\d{6}$/.test(input.code) || !safeEqual(sha256(`${row.id}:${input.code}`), attempt.codeHash)) {
    if (attempt.attempt >= EMAIL_CODE_MAX_ATTEMPTS) {
      await repository.endFlow(deps.db, row.id, now);
      return refused('start_again');
    }
    return {
      kind: 'code',
      flow: input.flow,
      ...recipientOf(row),
      message: 'wrong_code',
      attemptsLeft: EMAIL_CODE_MAX_ATTEMPTS - attempt.attempt,
    };
  }
  await repository.endFlow(deps.db, row.id, now);
  const claimable = await repository.findClaimableOffer(
    deps.db,
    organizationId,
    attempt.email,
    slugOf(row.credentialConfigurationId),
    now,
  );
  if (!claimable) return refused('nothing_claimable', 200);
  return issueCode(deps, organizationId, row, claimable);
}

/**
 * Token endpoint, authorization code grant (RFC 6749 §4.1.3, RFC 7636 §4.6): the code once (a replay revokes
 * the token it gave, §4.1.2), before it expires, by its client, with its redirect URI, the PKCE verifier of its
 * challenge, and the DPoP key it was bound to at the PAR. Then the granted offer is redeemed for the token.
 */
export async function exchangeAuthorizationCode(deps: IssuerDeps, organizationId: string, request: TokenRequest) {
  // The issuer policy before the code is looked at: a request it refuses leaves the code unused.
  await request.policy.enforce();
  let parsed: ReturnType<typeof authorizationServer.parseAccessTokenRequest>;
  try {
    parsed = authorizationServer.parseAccessTokenRequest({ accessTokenRequest: request.body, request: request.http });
  } catch (err) {
    throw libraryError(err);
  }
  const { grant } = parsed;
  if (grant.grantType !== AUTHORIZATION_CODE_GRANT) {
    throw new OAuthError('unsupported_grant_type', 'Expected the authorization code grant.');
  }
  const codeHash = sha256(grant.code);
  const now = new Date();
  const code = await repository.useAuthorizationCode(deps.db, organizationId, codeHash, now);
  if (!code) {
    const used = await repository.findAuthorizationCode(deps.db, organizationId, codeHash);
    if (used) await repository.revokeTokenOfCode(deps.db, used, now);
    throw new OAuthError('invalid_grant', 'The authorization code is not valid or was already used.');
  }
  const body = request.body;
  if (typeof body.client_id !== 'string') throw new OAuthError('invalid_request', 'client_id is required.');
  if (body.client_id !== code.clientId) {
    throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
  }
  if (body.redirect_uri !== code.redirectUri) {
    throw new OAuthError('invalid_grant', 'redirect_uri is not the one of the authorization request.');
  }
  // RFC 7636 §4.6: without the verifier the code is worth nothing (the library would say invalid_request).
  if (typeof body.code_verifier !== 'string' || !/^[\w.~-]{43,128}$/.test(body.code_verifier)) {
    throw new OAuthError('invalid_grant', 'The PKCE code_verifier is missing or malformed.');
  }
  if (code.dpopJkt && request.dpopJkt !== code.dpopJkt) {
    throw new OAuthError('invalid_dpop_proof', 'The DPoP key is not the one the authorization request was bound to.');
  }
  try {
    await authorizationServer.verifyAuthorizationCodeAccessTokenRequest({
      authorizationServerMetadata: authorizationServerMetadataOf(deps, organizationId),
      grant,
      accessTokenRequest: parsed.accessTokenRequest,
      request: request.http,
      expectedCode: grant.code,
      codeExpiresAt: code.expiresAt,
      pkce: {
        codeVerifier: body.code_verifier,
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: 'S256' as never,
      },
      now,
    });
  } catch (err) {
    const mapped = libraryError(err);
    // The library's PKCE message echoes the verifier: say it plainly instead.
    if (
      mapped instanceof OAuthError &&
      mapped.error === 'invalid_grant' &&
      /code challenge/i.test(mapped.description)
    ) {
      throw new OAuthError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
    }
    throw mapped;
  }
  const accessToken = bindAccessToken(randomToken(32), request.dpopJkt);
  const tokenHash = sha256(accessToken);
  const redeemed = await repository.redeemOfferForCode(
    deps.db,
    organizationId,
    code.offerId,
    tokenHash,
    new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    now,
  );
  if (!redeemed)
    throw new OAuthError('invalid_grant', 'The credential of this code was already delivered or withdrawn.');
  await repository.recordCodeAccessToken(deps.db, codeHash, tokenHash);
  await recordWalletAttestation(deps, organizationId, accessToken, request.walletAttestation);
  // OpenID4VCI 1.0 §6.2: asked by authorization_details, the token response names the credential it grants
  // (`credential_identifiers`: the configuration's id, which the credential endpoint accepts as such).
  const asked = await repository.findAuthorizationRequestDetails(deps.db, code.authorizationRequestId);
  if (!asked?.authorizationDetails) return tokenResponse(accessToken, request.dpopJkt);
  return {
    ...tokenResponse(accessToken, request.dpopJkt),
    authorization_details: [
      {
        type: 'openid_credential',
        credential_configuration_id: asked.credentialConfigurationId,
        credential_identifiers: [asked.credentialConfigurationId],
      },
    ],
  };
}

/** The organization's name as the pages show it. */
export async function organizationName(deps: IssuerDeps, organizationId: string) {
  return (await organizationsService.getPublicOrganization(deps.db, organizationId)).name;
}

export interface EmailCodeMailDeps {
  db: IssuerDeps['db'];
  secretBox: SecretBox;
  mailer: Pick<Mailer, 'send'>;
}

/** The e-mail job: opens the sealed code and sends it, in the language of the page it was asked from. */
export async function sendEmailCode(deps: EmailCodeMailDeps, job: EmailCodeJob) {
  const code = deps.secretBox.open(job.sealedCode, emailCodeSealName(job.authorizationRequestId));
  const name = (await organizationsService.getPublicOrganization(deps.db, job.organizationId)).name;
  const mail = EMAIL_CODE_MAIL[job.language];
  await deps.mailer.send({
    to: job.email,
    subject: mail.subject(name),
    text: mail.text(code, name),
  });
}
