import { randomUUID } from 'node:crypto';
import type { IndividualStatus, OAuthErrorCode, VerificationCheck, VerificationCheckCode } from '@cp/contracts';
import {
  buildDcqlQuery,
  buildMdocDcqlQuery,
  type DcqlQuery,
  type PresentationCheck,
  type PresentationRule,
  type RequestedClaim,
  signJwt,
  verifySdJwtPresentation,
  x5cLeafJwk,
  x509Hash,
} from '@cp/credentials';
import { type MdocHandoverInput, mdocNames, verifyMdocPresentation } from '@cp/credentials/mdoc';
import type { Database, SecretBox, schema } from '@cp/db';
import type { Jwk } from '@openid4vc/oauth2';
import { createOpenid4vpAuthorizationRequest, parseOpenid4vpAuthorizationResponse } from '@openid4vc/openid4vp';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { AppError } from '../../errors/app-error.ts';
import { OAuthError } from '../../errors/oauth-error.ts';
import { randomToken } from '../../lib/crypto.ts';
import { claimLabel } from '../credential-schemas/platform-schema-display.ts';
import { mediaUrl } from '../media/media.presenter.ts';
import { credentialVct } from '../organization-keys/identifiers.ts';
import type { KeyDeps } from '../organization-keys/organization-keys.service.ts';
import * as keysService from '../organization-keys/organization-keys.service.ts';
import { presentHolderOrganization } from '../organizations/organizations.presenter.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import { dispatchWebhookDeliveries, recordWebhookEvents, type WebhookDeps } from '../webhooks/webhooks.service.ts';
import { type CustomerBinding, customerBindingOf } from './customer-links.ts';
import { decryptEcdhEsJwe, generateResponseKey, responseDecryptionKey } from './response-decryption.ts';
import { responseMemory } from './response-memory.ts';
import * as repository from './verifications.repository.ts';
import { generateCustomerId } from './verifications.service.ts';
import type { VerifierTrust } from './verifier-trust.ts';

/** How long a wallet has between fetching the request and answering it. */
export const REQUEST_TTL_SECONDS = 600;
export const RESPONSE_MAX_CHARS = 200_000;
const QUERY_ID = 'credential';
const RESPONSE_MODE = 'direct_post.jwt' as const;
const ENCRYPTION_ALGORITHMS = { key: ['ECDH-ES'], content: ['A128GCM', 'A256GCM'] };

export interface VerifierDeps {
  db: Database;
  keys: KeyDeps;
  secretBox: SecretBox;
  publicUrl: string;
  trust: VerifierTrust;
  /** `verification.completed` events, recorded with the outcome and sent after it commits. */
  webhooks?: WebhookDeps;
}

/** An OpenID4VP error for the wallet: `{error, error_description}` (RFC 6749 style, OpenID4VP 1.0 §8.5). */
export class VerifierError extends OAuthError {
  constructor(
    error: Extract<OAuthErrorCode, 'invalid_request' | 'invalid_request_uri' | 'invalid_response'>,
    description: string,
    status = 400,
  ) {
    super(error, description, status);
    this.name = 'VerifierError';
  }
}

/** What an attempt asked for, frozen when it began. */
export interface FrozenRequest {
  clientId: string;
  vctValues: string[];
  requestedClaims: RequestedClaim[];
  trustPolicy: schema.TrustPolicy;
  trustedIssuers: string[];
  rules: PresentationRule[];
  dcql: DcqlQuery;
  /** `mso_mdoc`: an ISO mdoc of `docType` is asked for (absent: an SD-JWT VC, as every request before mdocs). */
  format?: schema.VerificationFormat;
  docType?: string;
}

/** The frozen request of an attempt, including those frozen before trust policies and claim paths existed. */
export function frozenRequest(stored: Record<string, unknown>): FrozenRequest {
  const raw = stored as Partial<FrozenRequest> & { requestedClaims?: (string | RequestedClaim)[] };
  const trustedIssuers = raw.trustedIssuers ?? [];
  return {
    clientId: raw.clientId ?? '',
    vctValues: raw.vctValues ?? [],
    requestedClaims: (raw.requestedClaims ?? []).map((claim) =>
      typeof claim === 'string' ? { name: claim, path: [claim] } : claim,
    ),
    // Before trust policies, an empty list meant "any issuer": such attempts now get the safe default.
    trustPolicy: raw.trustPolicy ?? (trustedIssuers.length > 0 ? 'NAMED_ISSUERS' : 'PLATFORM_VERIFIED'),
    trustedIssuers,
    rules: raw.rules ?? [],
    dcql: raw.dcql ?? { credentials: [] },
    ...(raw.format === 'mso_mdoc' ? { format: raw.format, docType: raw.docType ?? '' } : {}),
  };
}

export const requestUri = (publicUrl: string, individualId: string) => `${publicUrl}/oid4vp/requests/${individualId}`;
export const responseUri = (publicUrl: string, individualId: string) => `${publicUrl}/oid4vp/responses/${individualId}`;
export const holderPageUrl = (publicUrl: string, individualId: string) =>
  `${publicUrl}/connect/verification/${individualId}`;

/**
 * The organization's verifier identity (OpenID4VP 1.0 §5.9.3) and the chain to send: `x509_hash:` of its
 * certificate, or `x509_san_dns:` the host of the platform's public URL, with a certificate naming that host
 * (getSanDnsVerifierSigner). Under x509_san_dns the wallet sends the response only to that host: the
 * `response_uri` is on PUBLIC_URL (responseUri), so it is.
 */
export async function verifierSigner(
  deps: VerifierDeps,
  organizationId: string,
  scheme: schema.VerifierClientIdScheme,
) {
  if (scheme === 'x509_san_dns') {
    const signer = await keysService.getSanDnsVerifierSigner(deps.keys, organizationId);
    return { ...signer, clientId: `x509_san_dns:${new URL(deps.publicUrl).hostname}` };
  }
  const signer = await keysService.getActiveSigner(deps.keys, organizationId);
  const leaf = signer.x5c[0];
  if (!leaf) throw new Error('The organization key has no certificate');
  return { ...signer, clientId: `x509_hash:${await x509Hash(leaf)}` };
}

/** The client identifier prefix an attempt was frozen with. */
export const schemeOf = (clientId: string): schema.VerifierClientIdScheme =>
  clientId.startsWith('x509_san_dns:') ? 'x509_san_dns' : 'x509_hash';

/**
 * The credential a verification asks for: the `vct` values (SD-JWT VC) or the doctype (mdoc), and the claims
 * with their paths (`[namespace, element]` for an mdoc).
 */
function requestedCredential(
  deps: VerifierDeps,
  verification: repository.VerificationRow,
  schema: repository.AttemptSchema | null,
): { vctValues: string[]; requestedClaims: RequestedClaim[]; docType?: string } {
  const claimsByName = (paths: Map<string, RequestedClaim['path']>) =>
    verification.requestedClaims.map((name) => ({ name, path: paths.get(name) ?? [name] }));
  if (verification.credentialType) {
    const paths = new Map(verification.credentialType.claims.map((c) => [c.name, c.path]));
    return {
      vctValues: verification.credentialType.vctValues,
      requestedClaims: claimsByName(paths),
      ...(verification.credentialType.docType ? { docType: verification.credentialType.docType } : {}),
    };
  }
  if (!verification.schemaId) throw new AppError('VERIFICATION_NOT_FOUND');
  if (!schema) throw new AppError('CREDENTIAL_SCHEMA_NOT_FOUND');
  // A platform schema is one shared type; an organization's schema is issued by that organization only.
  const vctValues = [credentialVct(deps.publicUrl, schema.organizationId ?? verification.organizationId, schema.slug)];
  if (verification.format === 'mso_mdoc') {
    // The schema's mdoc (issuer metadata `<slug>_mdoc`): doctype and namespace derived from its vct.
    const { docType, namespace } = mdocNames({ vct: vctValues[0]! });
    const paths = new Map(verification.requestedClaims.map((name) => [name, [namespace, name]]));
    return { vctValues, docType, requestedClaims: claimsByName(paths) };
  }
  return { vctValues, requestedClaims: claimsByName(new Map()) };
}

export interface CreateIndividualInput {
  verification_id: string;
  customer_id?: string | undefined;
  /** A holder link signed by the integrator: when the link expires (seconds), and its signature. */
  expires?: number | undefined;
  signature?: string | undefined;
}

/**
 * A holder opens a verification link: one attempt with its own nonce, state and response-encryption key.
 * A used single-use link is refused. `vouchedBy` is set when the integrator itself starts the attempt
 * (with its API key, for its organization); otherwise the customer id is vouched for only by a valid
 * link signature.
 */
export async function createIndividual(
  deps: VerifierDeps,
  input: CreateIndividualInput,
  vouchedBy?: { organizationId: string },
) {
  const found = await repository.findVerificationToAttempt(deps.db, input.verification_id);
  if (!found || (vouchedBy && vouchedBy.organizationId !== found.verification.organizationId)) {
    throw new AppError('VERIFICATION_NOT_FOUND');
  }
  const { verification } = found;
  if (verification.type === 'SINGLE' && verification.completedAt) {
    throw new AppError('VERIFICATION_ALREADY_USED', { detail: 'This single-use verification link has been used.' });
  }
  let customerBinding: CustomerBinding;
  let customerId: string;
  if (vouchedBy) {
    customerBinding = 'API';
    customerId = input.customer_id ?? generateCustomerId();
  } else {
    ({ customerBinding, customerId } = customerBindingOf(deps, verification, input));
  }
  const { vctValues, requestedClaims, docType } = requestedCredential(deps, verification, found.schema);
  const { clientId } = await verifierSigner(deps, verification.organizationId, verification.clientIdScheme);
  const responseKey = await generateResponseKey();
  const id = randomUUID();
  const responseKeyPublic = { ...responseKey.publicJwk, kid: randomToken(8), use: 'enc', alg: 'ECDH-ES' };
  const claimTypes = new Map(verification.credentialType?.claims.map((c) => [c.name, c.type]) ?? []);
  const frozen: FrozenRequest = {
    clientId,
    vctValues,
    requestedClaims,
    trustPolicy: verification.trustPolicy,
    trustedIssuers: verification.trustedIssuers,
    rules: verification.rules.map((r) => ({
      attribute: r.name,
      type: (claimTypes.get(r.name) ?? r.type) as PresentationRule['type'],
      operator: r.operator,
      value: r.value,
    })),
    dcql:
      verification.format === 'mso_mdoc' && docType
        ? buildMdocDcqlQuery({
            id: QUERY_ID,
            docType,
            claims: requestedClaims.map((c) => [String(c.path[0]), String(c.path[1])]),
          })
        : buildDcqlQuery({ id: QUERY_ID, vctValues, claims: requestedClaims.map((c) => c.path) }),
    ...(verification.format === 'mso_mdoc' && docType ? { format: 'mso_mdoc' as const, docType } : {}),
  };
  const individual = await repository.insertIndividual(deps.db, {
    id,
    verificationId: verification.id,
    organizationId: verification.organizationId,
    customerId,
    customerBinding,
    nonce: randomToken(24),
    state: randomToken(16),
    responseKeyPublic: responseKeyPublic as never,
    responseKeyCiphertext: deps.secretBox.seal(JSON.stringify(responseKey.privateJwk), `oid4vp-response:${id}`),
    request: frozen as unknown as Record<string, unknown>,
  });
  responseMemory.rememberAttempt(individual, verification, responseKey.privateKey);
  return individual;
}

export const isOpen = (status: string) => status === 'CREATED' || status === 'REQUESTED';

async function loadIndividual(deps: VerifierDeps, id: string) {
  const row = await repository.findIndividual(deps.db, id);
  if (!row) throw new AppError('VERIFICATION_INDIVIDUAL_NOT_FOUND');
  return row;
}

/**
 * The holder page's data (one statement): who asks, for what, and the `openid4vp://` link while the attempt is
 * open. The requested claims take the labels of the verification's schema (platform schemas are translated); those
 * of another issuer's credential type, or of a schema no longer readable, are known by name only.
 */
export async function connectData(deps: VerifierDeps, individualId: string) {
  const row = await repository.findHolderPage(deps.db, individualId);
  if (!row) throw new AppError('VERIFICATION_INDIVIDUAL_NOT_FOUND');
  const { individual, verification, schema } = row;
  const frozen = frozenRequest(individual.request);
  const link = `openid4vp://?client_id=${encodeURIComponent(frozen.clientId)}&request_uri=${encodeURIComponent(
    requestUri(deps.publicUrl, individual.id),
  )}`;
  return {
    id: individual.id,
    status: individual.status as IndividualStatus,
    verification: { name: verification.name, description: verification.description },
    verifier: presentHolderOrganization(organizationsService.holderBrand(row.brand), deps.publicUrl),
    requested_claims: frozen.requestedClaims.map((c) => c.name),
    requested_claim_labels: frozen.requestedClaims.map((c) => claimLabel(schema, c.name)),
    connection_url: isOpen(individual.status) ? link : null,
  };
}

/**
 * Who asks, for the page of the shareable link (`/connect/redirect/{verificationId}`) before it has an attempt, or
 * when it cannot have one (a used single-use link, a bad signature): the organization's name and look only.
 */
export async function requesterOf(deps: VerifierDeps, verificationId: string) {
  const verification = await repository.findPublicVerification(deps.db, verificationId);
  if (!verification) throw new AppError('VERIFICATION_NOT_FOUND');
  const brand = await organizationsService.getOrganizationBrand(deps.db, verification.organizationId);
  return presentHolderOrganization(brand, deps.publicUrl);
}

export async function outcome(deps: VerifierDeps, individualId: string) {
  const { individual } = await loadIndividual(deps, individualId);
  const checks = individual.checks as unknown as VerificationCheck[];
  return {
    id: individual.id,
    status: individual.status as IndividualStatus,
    verified_at: individual.verifiedAt?.toISOString() ?? null,
    failed_checks: checks.filter((c) => !c.passed).map((c) => c.code as VerificationCheckCode),
  };
}

/** Of an attempt, what its request object's payload carries. */
export type PayloadIndividual = Pick<repository.ResponseIndividual, 'id' | 'nonce' | 'state' | 'responseKeyPublic'>;

/** The request object's payload for an attempt (what the wallet is sent, and what its answer is read against). */
export function requestPayload(
  deps: VerifierDeps,
  individual: PayloadIndividual,
  frozen: FrozenRequest,
  clientMetadata: Record<string, unknown> = {},
) {
  return {
    client_id: frozen.clientId,
    response_type: 'vp_token' as const,
    response_mode: RESPONSE_MODE,
    response_uri: responseUri(deps.publicUrl, individual.id),
    nonce: individual.nonce,
    state: individual.state,
    dcql_query: frozen.dcql as unknown as Record<string, unknown>,
    client_metadata: {
      ...clientMetadata,
      jwks: { keys: [individual.responseKeyPublic] },
      encrypted_response_enc_values_supported: ENCRYPTION_ALGORITHMS.content,
      vp_formats_supported: {
        'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'] as [string], 'kb-jwt_alg_values': ['ES256'] as [string] },
        // OpenID4VP 1.0 B.2.2: COSE ES256 for issuerAuth and the device signature.
        ...(frozen.format === 'mso_mdoc'
          ? { mso_mdoc: { issuerauth_alg_values: [-7] as [number], deviceauth_alg_values: [-7] as [number] } }
          : {}),
      },
    },
  };
}

/** What a wallet may POST to the `request_uri` (OpenID4VP 1.0 §5.10, `request_uri_method=post`). */
export interface WalletRequestUriPost {
  /** Echoed in the request object as `wallet_nonce`, so the wallet knows it is fresh. */
  walletNonce?: string | undefined;
}

/**
 * An attempt a wallet may still be sent the request of (one statement, which marks it REQUESTED at
 * `markRequestedAt` when given, as the `request_uri` does): its frozen request, the signer its client id names,
 * and the client metadata a wallet shows (the organization's name and public logo). `error` is the OAuth error
 * code the endpoint answers with.
 */
export async function openAttemptRequest(
  deps: VerifierDeps,
  individualId: string,
  options: { markRequestedAt?: Date; error: 'invalid_request_uri' | 'invalid_request' },
) {
  const row = await repository.findIndividualForRequest(deps.db, individualId, options.markRequestedAt);
  if (!row) throw new VerifierError(options.error, 'No such verification request.', 404);
  const { individual, verification } = row;
  if (!isOpen(individual.status)) {
    throw new VerifierError(options.error, 'This verification request has already been answered.', 410);
  }
  if (verification.type === 'SINGLE' && verification.completedAt) {
    throw new VerifierError(options.error, 'This single-use verification link has been used.', 410);
  }
  const frozen = frozenRequest(individual.request);
  const signer = await verifierSigner(deps, verification.organizationId, schemeOf(frozen.clientId));
  const logo = organizationsService.publicLogo(row.brand.logo);
  const clientMetadata = {
    client_name: row.brand.organization.name,
    ...(logo ? { logo_uri: mediaUrl(deps.publicUrl, logo.id) } : {}),
  };
  return { individual, frozen, signer, clientMetadata };
}

/**
 * A request object (JAR, RFC 9101) signed by the verifier's key with its `x5c` chain, for the static discovery
 * audience (OpenID4VP 1.0 §5.8). Built and checked against the standard's schema by @openid4vc/openid4vp.
 */
export async function signRequestObject(
  signer: Awaited<ReturnType<typeof verifierSigner>>,
  payload: Parameters<typeof createOpenid4vpAuthorizationRequest>[0]['authorizationRequestPayload'],
  options: { requestUri?: string; walletNonce?: string | undefined } = {},
) {
  const { jar } = await createOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: { ...payload, ...(options.walletNonce ? { wallet_nonce: options.walletNonce } : {}) },
    ...(options.walletNonce ? { wallet: { expectedNonce: options.walletNonce } } : {}),
    jar: {
      ...(options.requestUri ? { requestUri: options.requestUri } : {}),
      jwtSigner: { method: 'x5c', alg: 'ES256', x5c: signer.x5c },
      expiresInSeconds: REQUEST_TTL_SECONDS,
      additionalJwtPayload: { iss: signer.clientId, aud: 'https://self-issued.me/v2', jti: randomToken(12) },
    },
    callbacks: {
      signJwt: async (_jwtSigner, { header, payload: claims }) => ({
        jwt: await signJwt(signer.signer, header, claims),
        signerJwk: (await x5cLeafJwk(signer.x5c)) as Jwk,
      }),
      encryptJwe: () => {
        throw new Error('Request objects are signed, not encrypted');
      },
    },
  });
  if (!jar) throw new Error('The request object was not signed');
  return jar.authorizationRequestJwt;
}

/**
 * The signed request object at the `request_uri`: `x509_hash:` (or `x509_san_dns:`) client id with the `x5c`
 * chain, a DCQL query, this attempt's nonce and state, and `direct_post.jwt` to an encryption key made for this
 * attempt alone. Fetching it marks the attempt REQUESTED.
 */
export async function requestObject(deps: VerifierDeps, individualId: string, wallet: WalletRequestUriPost = {}) {
  const markRequestedAt = new Date();
  try {
    const { individual, frozen, signer, clientMetadata } = await openAttemptRequest(deps, individualId, {
      markRequestedAt,
      error: 'invalid_request_uri',
    });
    return await signRequestObject(signer, requestPayload(deps, individual, frozen, clientMetadata), {
      requestUri: requestUri(deps.publicUrl, individual.id),
      walletNonce: wallet.walletNonce,
    });
  } catch (err) {
    // No request left this endpoint (its signer or key store failed): the attempt is not REQUESTED. A refusal
    // never marked it, so there is nothing to take back then; the original error is the answer either way.
    if (!(err instanceof VerifierError)) {
      await repository.unmarkRequested(deps.db, individualId, markRequestedAt).catch(() => undefined);
    }
    throw err;
  }
}

type Body = Record<string, unknown>;

/** The authorization request a response is read against (its mode, its keys, its state). */
export type AuthorizationRequestPayload = Record<string, unknown>;

/**
 * How an answer reached the verifier: the request it answers, the audience an SD-JWT VC's key binding names,
 * and the session transcript an mdoc's device signature covers. `direct_post.jwt` to the response URI by
 * default; the Digital Credentials API (dc-api.ts) is the other.
 */
export interface ResponseChannel {
  requestPayload: (individual: repository.ResponseIndividual, frozen: FrozenRequest) => AuthorizationRequestPayload;
  audience: (frozen: FrozenRequest) => string;
  mdocHandover: (individual: repository.ResponseIndividual, frozen: FrozenRequest) => Promise<MdocHandoverInput>;
}

/**
 * The session transcript inputs of an attempt answered at its response URI (OpenID4VP 1.0 B.2.6.1): this
 * request, and the key the response was encrypted to (direct_post.jwt is the only mode this verifier accepts).
 */
async function redirectMdocHandover(
  deps: VerifierDeps,
  individual: repository.ResponseIndividual,
  frozen: FrozenRequest,
): Promise<MdocHandoverInput> {
  return {
    clientId: frozen.clientId,
    nonce: individual.nonce,
    responseUri: responseUri(deps.publicUrl, individual.id),
    jwkThumbprint: await calculateJwkThumbprint(individual.responseKeyPublic as JWK, 'sha256'),
  };
}

/** The wallet declined or could not answer (OpenID4VP §8.5): `{error, error_description, state}`. */
interface WalletDecline {
  error: string;
  description?: string;
}

const isCompactJwe = (value: string) => /^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Reads the wallet's answer as the request asked for it: `direct_post.jwt`, a JWE encrypted to this
 * attempt's key (OpenID4VP §8.3.1), parsed and checked (state, DCQL `vp_token`) by @openid4vc/openid4vp.
 * A plain `vp_token` (a downgrade), a signed-only JWT, an undecryptable body, a wrong or missing `state`
 * or a malformed `vp_token` is refused with `invalid_request` and nothing is recorded. A decline (`error`)
 * with this attempt's state is accepted plain or encrypted, as wallets send both.
 */
async function readResponse(
  deps: VerifierDeps,
  individual: repository.ResponseIndividual,
  frozen: FrozenRequest,
  body: Body,
  authorizationRequestPayload: AuthorizationRequestPayload = requestPayload(deps, individual, frozen),
): Promise<{ presentation: string } | { declined: WalletDecline }> {
  const decline = (payload: Body): WalletDecline | undefined => {
    if (typeof payload.error !== 'string') return undefined;
    // The request's state: this attempt's, or none over the DC API (A.2), where the page holds the session.
    if (payload.state !== authorizationRequestPayload.state) {
      throw new VerifierError('invalid_request', 'The state does not match this request.');
    }
    return {
      error: payload.error.slice(0, 100),
      ...(typeof payload.error_description === 'string'
        ? { description: payload.error_description.slice(0, 200) }
        : {}),
    };
  };
  if (typeof body.response !== 'string') {
    const declined = decline(body);
    if (declined) return { declined };
    throw new VerifierError(
      'invalid_request',
      body.vp_token !== undefined
        ? 'This request asked for an encrypted response (direct_post.jwt): a plain vp_token is refused.'
        : 'Send the encrypted response (direct_post.jwt), or error and state.',
    );
  }
  if (body.response.length > RESPONSE_MAX_CHARS || !isCompactJwe(body.response)) {
    throw new VerifierError('invalid_request', 'response must be a JWE encrypted to this request’s key.');
  }
  let decrypted: Body | undefined;
  const decryptJwe = async (jwe: string) => {
    // The key this process made for the attempt, else the stored one (response-memory.ts).
    const privateKey =
      responseMemory.key(individual.id) ??
      responseDecryptionKey(
        JSON.parse(deps.secretBox.open(individual.responseKeyCiphertext, `oid4vp-response:${individual.id}`)),
      );
    try {
      // ECDH-ES (the only key management accepted), A128GCM or A256GCM: see response-decryption.ts.
      const { plaintext } = await decryptEcdhEsJwe(jwe, privateKey, ENCRYPTION_ALGORITHMS.content);
      const payload = plaintext.toString('utf8');
      const parsed = JSON.parse(payload) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) decrypted = parsed as Body;
      return { decrypted: true as const, payload, decryptionJwk: individual.responseKeyPublic as never };
    } catch {
      return { decrypted: false as const };
    }
  };
  let presentations: Record<string, unknown[]>;
  try {
    const parsed = await parseOpenid4vpAuthorizationResponse({
      authorizationResponse: body,
      authorizationRequestPayload: authorizationRequestPayload as never,
      callbacks: {
        decryptJwe,
        // Encrypted-only responses: a signed inner JWT is not something this verifier asked for.
        verifyJwt: async () => ({ verified: false }),
      },
    });
    if (parsed.type !== 'dcql') throw new Error('The response does not answer the DCQL query');
    presentations = parsed.dcql.presentations;
  } catch (err) {
    const declined = decrypted ? decline(decrypted) : undefined;
    if (declined) return { declined };
    if (!decrypted)
      throw new VerifierError('invalid_request', 'The response cannot be decrypted with this request’s key.');
    throw new VerifierError('invalid_request', `The response cannot be read: ${errorMessage(err)}`.slice(0, 300));
  }
  const answers = presentations[QUERY_ID];
  if (!Array.isArray(answers) || answers.length !== 1 || typeof answers[0] !== 'string') {
    throw new VerifierError('invalid_request', `vp_token must hold one presentation for "${QUERY_ID}".`);
  }
  if (answers[0].length > RESPONSE_MAX_CHARS)
    throw new VerifierError('invalid_request', 'The presentation is too large.');
  return { presentation: answers[0] };
}

/** What a presentation's check stores (and, when it took the issuer from memory, on what condition). */
interface PresentationOutcome {
  checks: PresentationCheck[] | VerificationCheck[];
  /** Empty unless the issuer signature and the key binding passed: only then are they this holder's claims. */
  claims: Record<string, unknown>;
  issuer: string | null;
  issuerTrust: Record<string, unknown> | null;
  snapshot?: repository.IssuerSnapshot;
}

/** Verifies one presentation (SD-JWT VC or mdoc) against the attempt's frozen request and trust. */
async function checkPresentation(
  deps: VerifierDeps,
  row: NonNullable<Awaited<ReturnType<typeof repository.findIndividualForResponse>>>,
  frozen: FrozenRequest,
  presentation: string,
  channel: ResponseChannel | undefined,
  snapshots: boolean,
): Promise<PresentationOutcome> {
  const { individual, verification } = row;
  const trust = deps.trust.forVerification(
    {
      organizationId: verification.organizationId,
      trustPolicy: frozen.trustPolicy,
      trustedIssuers: frozen.trustedIssuers,
      anchors: row.anchors,
    },
    { snapshots },
  );
  const result =
    frozen.format === 'mso_mdoc'
      ? await verifyMdocPresentation(
          presentation,
          {
            docType: frozen.docType ?? '',
            requestedClaims: frozen.requestedClaims,
            rules: frozen.rules,
            // The session transcript: the one of the channel the answer came through (B.2.6.1 or B.2.6.2),
            // so a device signature made for the other invocation, origin or request fails KEY_BINDING.
            ...(channel
              ? await channel.mdocHandover(individual, frozen)
              : await redirectMdocHandover(deps, individual, frozen)),
          },
          await trust.mdocDeps(),
        ).then((mdoc) => ({ ...mdoc, issuer: mdoc.binding?.iss ?? null }))
      : await verifySdJwtPresentation(
          presentation,
          {
            nonce: individual.nonce,
            audience: channel ? channel.audience(frozen) : frozen.clientId,
            vctValues: frozen.vctValues,
            requestedClaims: frozen.requestedClaims,
            rules: frozen.rules,
          },
          trust.deps,
        );
  const snapshot = trust.snapshot();
  return {
    checks: result.checks,
    claims: result.claims,
    issuer: result.issuer,
    issuerTrust: (trust.record() as unknown as Record<string, unknown> | undefined) ?? null,
    ...(snapshot ? { snapshot } : {}),
  };
}

/**
 * The response endpoint: reads the answer (or refuses it, recording nothing), verifies the presentation,
 * records every check, why the issuer was admitted or refused, and the outcome, once. A single-use link
 * completes with its first finished attempt.
 */
export async function handleResponse(
  deps: VerifierDeps,
  individualId: string,
  rawBody: unknown,
  channel?: ResponseChannel,
) {
  // An attempt this process created, of an organization whose verifier side it read lately: taken from memory,
  // stored only on the condition that nothing it holds changed (response-memory.ts). Only where the outcome is
  // stored alone (a multi-use link, no event to record); otherwise one statement reads the attempt, its
  // verification, the organization's trust anchors and webhook subscription.
  const recalled = responseMemory.recall(individualId);
  const remembered =
    recalled && recalled.row.verification.type === 'MULTI' && !(deps.webhooks && recalled.row.notify)
      ? recalled
      : undefined;
  const row = remembered?.row ?? (await repository.findIndividualForResponse(deps.db, individualId));
  if (!row) throw new VerifierError('invalid_request', 'No such verification request.', 404);
  if (!remembered) responseMemory.rememberOrganization(row);
  const { individual, verification } = row;
  if (!isOpen(individual.status)) {
    throw new VerifierError('invalid_request', 'This verification request has already been answered.');
  }
  const body = (rawBody && typeof rawBody === 'object' && !Array.isArray(rawBody) ? rawBody : {}) as Body;
  const frozen = frozenRequest(individual.request);
  const read = await readResponse(
    deps,
    individual,
    frozen,
    body,
    channel ? channel.requestPayload(individual, frozen) : undefined,
  );

  const consumesLink = !('declined' in read);
  const singleUse = verification.type === 'SINGLE' && consumesLink;
  // Read with the attempt: an endpoint created while this response was being checked may miss the event.
  const notify = deps.webhooks ? row.notify : false;
  // Nothing to keep atomic with the outcome (no single-use claim, no event): one statement, which may also hold
  // the check to the issuer as it took it from memory (verifier-trust.ts, snapshots).
  const alone = !singleUse && !notify;

  let result: PresentationOutcome;
  if ('declined' in read) {
    // The holder declined or the wallet could not answer: the attempt ends, the link stays usable.
    const detail = `${read.declined.error}${read.declined.description ? `: ${read.declined.description}` : ''}`;
    result = {
      checks: [{ code: 'WALLET_ERROR', passed: false, detail: detail.slice(0, 300) }],
      claims: {},
      issuer: null,
      issuerTrust: null,
    };
  } else {
    result = await checkPresentation(deps, row, frozen, read.presentation, channel, alone);
  }

  let checks = result.checks;
  let passed = checks.every((c) => c.passed);
  const outcome = () => ({
    status: passed ? ('VERIFIED' as const) : ('FAILED' as const),
    checks: checks as unknown as Record<string, unknown>[],
    presentedClaims: result.claims,
    issuer: result.issuer,
    issuerTrust: result.issuerTrust,
  });
  let deliveryIds: string[] = [];
  let completed: { status: string } | undefined;
  if (alone) {
    completed = await repository.completeIndividualAlone(
      deps.db,
      individual.id,
      outcome(),
      result.snapshot,
      remembered?.context,
    );
    if (!completed && remembered) {
      // Not stored: the attempt was answered (here or by another process), its verification deleted, or the
      // organization's anchors or webhooks changed since they were read. Read and checked again from the database.
      responseMemory.forget(individual.id);
      responseMemory.forgetOrganization(verification.organizationId);
      return handleResponse(deps, individualId, rawBody, channel);
    }
    if (!completed && result.snapshot && !('declined' in read)) {
      // Not stored: the issuer organization or its status list changed (a revocation), or the attempt was answered
      // meanwhile. Checked again from the database; the second update finds the attempt answered if it was.
      result = await checkPresentation(deps, row, frozen, read.presentation, channel, false);
      checks = result.checks;
      passed = checks.every((c) => c.passed);
      completed = await repository.completeIndividualAlone(deps.db, individual.id, outcome());
    }
  } else {
    completed = await deps.db.transaction(async (tx) => {
      if (singleUse && !(await repository.claimSingleUse(tx, verification.id))) {
        checks = [...checks, { code: 'SINGLE_USE', passed: false, detail: 'The single-use link was already used' }];
        passed = false;
      }
      const row = await repository.completeIndividual(tx, individual.id, outcome());
      // The event is stored with the outcome (same transaction): it is sent once the outcome is visible.
      if (row && notify && deps.webhooks) {
        deliveryIds = await recordWebhookEvents(tx, row.organizationId, 'verification.completed', async () => [
          completedEvent(deps, row),
        ]);
      }
      return row;
    });
  }
  // The attempt is over (answered now or before): its key and copy are not needed again.
  responseMemory.forget(individual.id);
  if (!completed) throw new VerifierError('invalid_request', 'This verification request has already been answered.');
  if (deps.webhooks) await dispatchWebhookDeliveries(deps.webhooks, deliveryIds);
  return { redirect_uri: holderPageUrl(deps.publicUrl, individual.id), status: completed.status };
}

/** Customer ids the integrator vouched for (its API key, or a link it signed) answer the per-customer lookup. */
export const isVouchedCustomer = (binding: string) => binding === 'API' || binding === 'SIGNED_LINK';

/** The `verification.completed` event: the outcome without the claims (read them with an API key). */
function completedEvent(deps: VerifierDeps, row: repository.VerificationIndividualRow) {
  const checks = row.checks as unknown as VerificationCheck[];
  const vouched = isVouchedCustomer(row.customerBinding);
  return {
    verification_id: row.verificationId,
    individual_id: row.id,
    customer_id: row.customerId,
    customer_verified: vouched,
    status: row.status,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    failed_checks: checks.filter((c) => !c.passed).map((c) => c.code),
    result_url: vouched
      ? `${deps.publicUrl}/api/verifications/${row.verificationId}/individuals/${encodeURIComponent(row.customerId)}`
      : `${deps.publicUrl}/api/verifications/${row.verificationId}/attempts/${row.id}`,
  };
}
