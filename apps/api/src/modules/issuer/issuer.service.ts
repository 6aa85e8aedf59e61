import { brandTextColor, type HolderOrganization, LANGUAGES } from '@cp/contracts';
import { type AttributeType, encodeStatusList, issueSdJwtVc, signStatusListToken } from '@cp/credentials';
import { MdocError } from '@cp/credentials/mdoc';
import type { Database } from '@cp/db';
import {
  authorizationCodeGrantIdentifier,
  preAuthorizedCodeGrantIdentifier,
  type RequestLike,
} from '@openid4vc/oauth2';
import { type IssuerMetadataResult, Openid4vciVersion } from '@openid4vc/openid4vci';
import { AppError } from '../../errors/app-error.ts';
import { OAuthError } from '../../errors/oauth-error.ts';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto.ts';
import { auditEventHead } from '../audit-events/audit-events.service.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import { isPlatformSchemaSlug } from '../credential-schemas/platform-credential-schemas.ts';
import {
  attributeDisplayLabel,
  type DisplayLocale,
  schemaDisplayName,
} from '../credential-schemas/platform-schema-display.ts';
import { findRevokedIndexes, findStatusList } from '../credentials/credentials.repository.ts';
import * as credentialsService from '../credentials/credentials.service.ts';
import { type CredentialDeps, preAuthorizedCode } from '../credentials/credentials.service.ts';
import * as nonces from '../nonces/nonces.service.ts';
import { credentialVct, issuerUrl, statusListUri } from '../organization-keys/identifiers.ts';
import type { KeyDeps } from '../organization-keys/organization-keys.service.ts';
import * as keysService from '../organization-keys/organization-keys.service.ts';
import { presentHolderOrganization } from '../organizations/organizations.presenter.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import { enqueueWebhookEvent } from '../webhooks/webhooks.service.ts';
import { bindAccessToken, DPOP_ALG } from './dpop.ts';
import { authorizationServer, libraryError, openid4vciIssuer, PROOF_ALG } from './issuer.protocol.ts';
import * as repository from './issuer.repository.ts';
import { issuerState } from './issuer-state.ts';
import { checkKeyAttestation } from './key-attestation.ts';
import {
  issueMdocCredential,
  MDOC_FORMAT,
  mdocClaimsMetadata,
  mdocConfigurationId,
  mdocCredentialConfiguration,
  readConfigurationId,
} from './mdoc-issuance.ts';
import {
  credentialResponseEncryptionMetadata,
  encryptCredentialResponse,
  parseResponseEncryption,
} from './response-encryption.ts';
import {
  ATTEST_JWT_CLIENT_AUTH,
  CLIENT_ATTESTATION_ALG,
  type VerifiedWalletAttestation,
} from './wallet-attestation.ts';

export const PRE_AUTHORIZED_GRANT = preAuthorizedCodeGrantIdentifier;
const ACCESS_TOKEN_TTL_SECONDS = 600;
const NONCE_TTL_SECONDS = 300;
const PROOF_MAX_AGE_SECONDS = 300;
const TX_CODE_MAX_ATTEMPTS = 5;
const LOCALES: readonly DisplayLocale[] = LANGUAGES;

/**
 * The most credentials one request may ask for, one per key proof (OpenID4VCI 1.0 §12.2.4
 * `batch_credential_issuance.batch_size`, HAIP 1.0 batch issuance): a wallet presents a fresh instance, bound to
 * a key of its own with a status entry of its own, on up to 10 occasions before it must reuse one. Bounded so a
 * request verifies and signs at most 10 JWTs (about 10 ms of CPU) and takes at most 10 status slots.
 */
export const BATCH_SIZE = 10;

/** The longest key proof JWT read (a P-256 `jwk` header and the standard claims need well under 1 kB). */
const PROOF_MAX_CHARS = 10_000;
const COMPACT_JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export interface IssuerDeps {
  db: Database;
  keys: KeyDeps;
  credentials: CredentialDeps;
  publicUrl: string;
  statusListTtlSeconds: number;
  statusListSize: number;
}

async function issuableSchemas(db: Database, organizationId: string) {
  const records: credentialSchemasService.CredentialSchemaRecord[] = [];
  for (let page = 1; page <= 50; page++) {
    const result = await credentialSchemasService.findCredentialSchemas(db, organizationId, { page, limit: 100 });
    records.push(...result.records);
    if (records.length >= result.total || result.records.length === 0) break;
  }
  return records.filter((r) => !r.schema.issueDisabled);
}

/** The ids of the organization's credential configurations (its issuable schemas' slugs). */
/** The ids of every credential configuration the organization issues: each schema as SD-JWT VC and as mdoc. */
export async function issuableConfigurationIds(deps: Pick<IssuerDeps, 'db'>, organizationId: string) {
  return (await issuableSchemas(deps.db, organizationId)).flatMap((record) => [
    record.schema.slug,
    mdocConfigurationId(record.schema.slug),
  ]);
}

/** The endpoints of an organization's issuer (OpenID4VCI 1.0 §12.2.4). */
function issuerEndpoints(deps: IssuerDeps, organizationId: string) {
  const issuer = issuerUrl(deps.publicUrl, organizationId);
  return { credential_issuer: issuer, credential_endpoint: `${issuer}/credential`, nonce_endpoint: `${issuer}/nonce` };
}

/** One credential configuration (OpenID4VCI 1.0 Appendix A.3.2, `dc+sd-jwt`): what a request is read against. */
function credentialConfiguration(deps: IssuerDeps, organizationId: string, slug: string) {
  return {
    format: 'dc+sd-jwt' as const,
    vct: credentialVct(deps.publicUrl, organizationId, slug),
    cryptographic_binding_methods_supported: ['jwk'],
    credential_signing_alg_values_supported: ['ES256'],
    proof_types_supported: { jwt: { proof_signing_alg_values_supported: [PROOF_ALG] } },
  };
}

/** OpenID4VCI 1.0 §12.2: the organization as a credential issuer, one configuration per schema. */
export async function credentialIssuerMetadata(deps: IssuerDeps, organizationId: string) {
  const brand = presentHolderOrganization(
    await organizationsService.getOrganizationBrand(deps.db, organizationId),
    deps.publicUrl,
  );
  const schemas = await issuableSchemas(deps.db, organizationId);
  // Checked against the standard's schema by @openid4vc/openid4vci (a malformed document is a server error).
  return openid4vciIssuer.createCredentialIssuerMetadata({
    ...issuerEndpoints(deps, organizationId),
    // §12.2.4: responses encrypted when the wallet asks (HAIP 1.0), never required.
    credential_response_encryption: credentialResponseEncryptionMetadata,
    // §12.2.4: up to BATCH_SIZE key proofs per request, one credential each (distinct keys, own status entries).
    batch_credential_issuance: { batch_size: BATCH_SIZE },
    // §12.2.4 `display`: the issuer's name and logo ({uri, alt_text}) per language.
    display: LOCALES.map((locale) => ({ name: brand.name, locale, ...logoDisplay(brand, locale) })),
    credential_configurations_supported: Object.fromEntries(
      schemas.flatMap((record) => [
        [
          record.schema.slug,
          {
            ...credentialConfiguration(deps, organizationId, record.schema.slug),
            // §12.2.4 `scope`: what a wallet may ask for instead of authorization_details (§5.1.2).
            scope: record.schema.slug,
            credential_metadata: {
              // §12.2.4 `credential_metadata.display`: the organization's colour (with the text colour that reads
              // on it) and logo, so wallets draw its cards in its own look.
              display: cardsDisplay(brand, record.schema),
              claims: record.attributes.map((attribute) => ({
                path: [attribute.name],
                display: claimDisplay(record.schema, attribute.name),
              })),
            },
          },
        ],
        // The same schema as an ISO mdoc (Appendix A.2.2): mdoc-issuance.ts.
        [
          mdocConfigurationId(record.schema.slug),
          {
            ...configurationOf(deps, organizationId, mdocConfigurationId(record.schema.slug)),
            scope: mdocConfigurationId(record.schema.slug),
            credential_metadata: {
              display: cardsDisplay(brand, record.schema),
              claims: mdocClaimsMetadata(
                credentialVct(deps.publicUrl, organizationId, record.schema.slug),
                record.attributes.map((a) => a.name),
                (name) => claimDisplay(record.schema, name),
              ),
            },
          },
        ],
      ]),
    ),
  });
}

type DisplaySchema = Parameters<typeof schemaDisplayName>[0] & Parameters<typeof attributeDisplayLabel>[0];

const cardsDisplay = (brand: HolderOrganization, schema: DisplaySchema) =>
  LOCALES.map((locale) => ({ name: schemaDisplayName(schema, locale), locale, ...cardDisplay(brand, locale) }));

const claimDisplay = (schema: DisplaySchema, name: string) =>
  LOCALES.map((locale) => ({ name: attributeDisplayLabel(schema, name, locale), locale }));

/** The credential configuration an id names: the schema's SD-JWT VC (`<slug>`) or its mdoc (`<slug>_mdoc`). */
function configurationOf(deps: IssuerDeps, organizationId: string, configurationId: string) {
  const { slug, format } = readConfigurationId(configurationId);
  return format === MDOC_FORMAT
    ? mdocCredentialConfiguration(credentialVct(deps.publicUrl, organizationId, slug))
    : credentialConfiguration(deps, organizationId, slug);
}

/**
 * The issuer metadata a credential request is parsed and its proof verified against: the endpoints and the
 * one configuration the access token was issued for (its display is of no use there, and needs no query).
 */
function requestIssuerMetadata(
  deps: IssuerDeps,
  organizationId: string,
  configurationId: string,
): IssuerMetadataResult {
  // Built from the URL, the organization and the id alone (no row): kept, as building checks it with zod.
  return remembered(requestMetadataCache, `${deps.publicUrl}|${organizationId}|${configurationId}`, () =>
    buildRequestIssuerMetadata(deps, organizationId, configurationId),
  );
}

/**
 * Documents that derive only from their key (no database row, nothing to invalidate), kept so that a
 * request does not build and validate them again. Bounded; oldest out first.
 */
function remembered<T>(cache: Map<string, T>, key: string, build: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = build();
  cache.set(key, value);
  if (cache.size > DERIVED_CACHE_MAX) cache.delete(cache.keys().next().value as string);
  return value;
}

const DERIVED_CACHE_MAX = 2000;
const requestMetadataCache = new Map<string, IssuerMetadataResult>();
const authorizationServerMetadataCache = new Map<
  string,
  ReturnType<typeof authorizationServer.createAuthorizationServerMetadata>
>();

function buildRequestIssuerMetadata(
  deps: IssuerDeps,
  organizationId: string,
  configurationId: string,
): IssuerMetadataResult {
  const credentialIssuer = openid4vciIssuer.createCredentialIssuerMetadata({
    ...issuerEndpoints(deps, organizationId),
    credential_configurations_supported: { [configurationId]: configurationOf(deps, organizationId, configurationId) },
  });
  return {
    originalDraftVersion: Openid4vciVersion.V1,
    credentialIssuer,
    authorizationServers: [],
    knownCredentialConfigurations: openid4vciIssuer.getKnownCredentialConfigurationsSupported(credentialIssuer),
  };
}

/** The logo's alternative text in each display language. */
const logoAltText: Record<DisplayLocale, (name: string) => string> = {
  en: (name) => `${name} logo`,
  ja: (name) => `${name}のロゴ`,
  es: (name) => `Logotipo de ${name}`,
  ko: (name) => `${name} 로고`,
};

/** `logo: {uri, alt_text}` (OpenID4VCI §12.2.4, SD-JWT VC Type Metadata simple rendering) when there is one. */
function logoDisplay(brand: HolderOrganization, locale: DisplayLocale) {
  return brand.logo_url ? { logo: { uri: brand.logo_url, alt_text: logoAltText[locale](brand.name) } } : {};
}

/**
 * How wallets draw the organization's credentials: its logo, its brand colour as the background and the text
 * colour that contrasts best with it (white or near-black). Without a brand colour, wallets keep their own.
 */
function cardDisplay(brand: HolderOrganization, locale: DisplayLocale) {
  return {
    ...logoDisplay(brand, locale),
    ...(brand.brand_color
      ? { background_color: brand.brand_color, text_color: brandTextColor(brand.brand_color) }
      : {}),
  };
}

/** RFC 8414 metadata: the issuer is its own authorization server, for both grants. */
export async function authorizationServerMetadata(deps: IssuerDeps, organizationId: string) {
  await organizationsService.getPublicOrganization(deps.db, organizationId);
  return authorizationServerMetadataOf(deps, organizationId);
}

export function authorizationServerMetadataOf(deps: IssuerDeps, organizationId: string) {
  return remembered(authorizationServerMetadataCache, `${deps.publicUrl}|${organizationId}`, () =>
    buildAuthorizationServerMetadata(deps, organizationId),
  );
}

function buildAuthorizationServerMetadata(deps: IssuerDeps, organizationId: string) {
  const issuer = issuerUrl(deps.publicUrl, organizationId);
  return authorizationServer.createAuthorizationServerMetadata({
    issuer,
    token_endpoint: `${issuer}/token`,
    grant_types_supported: [authorizationCodeGrantIdentifier, PRE_AUTHORIZED_GRANT],
    'pre-authorized_grant_anonymous_access_supported': true,
    // The authorization code flow (authorization-code.service.ts): pushed requests only (RFC 9126 §5), PKCE
    // S256 only (RFC 7636, HAIP 1.0), the issuer named in the response (RFC 9207).
    authorization_endpoint: `${issuer}/authorize`,
    pushed_authorization_request_endpoint: `${issuer}/par`,
    require_pushed_authorization_requests: true,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    // RFC 9396 §10, OpenID4VCI 1.0 §5.1.1.
    authorization_details_types_supported: ['openid_credential'],
    // OAuth 2.0 Attestation-Based Client Authentication §AS metadata: wallet attestations are accepted
    // (required by the organization's issuer policy), with a challenge endpoint for their PoP.
    token_endpoint_auth_methods_supported: ['none', ATTEST_JWT_CLIENT_AUTH],
    challenge_endpoint: `${issuer}/challenge`,
    client_attestation_signing_alg_values_supported: [CLIENT_ATTESTATION_ALG],
    client_attestation_pop_signing_alg_values_supported: [CLIENT_ATTESTATION_ALG],
    // RFC 9449 §5.1: DPoP-bound tokens (always offered; required by the organization's issuer policy).
    dpop_signing_alg_values_supported: [DPOP_ALG],
  });
}

/** The credential offer fetched by reference (OpenID4VCI §4.1.3); gone once used, revoked or expired. */
export async function credentialOffer(deps: IssuerDeps, organizationId: string, offerId: string) {
  const row = await repository.findOpenOffer(deps.db, organizationId, offerId, new Date());
  if (!row) return undefined;
  return {
    credential_issuer: issuerUrl(deps.publicUrl, organizationId),
    // The schema as an SD-JWT VC and as an mdoc: the wallet picks one; the offer delivers one credential.
    credential_configuration_ids: [row.slug, mdocConfigurationId(row.slug)],
    grants: {
      [PRE_AUTHORIZED_GRANT]: {
        'pre-authorized_code': preAuthorizedCode(deps.credentials, offerId),
        ...(row.hasTxCode
          ? { tx_code: { input_mode: 'numeric', length: 6, description: 'The PIN you received with your invitation' } }
          : {}),
      },
      // §4.1.1: the same offer through the authorization code flow, the link being the proof. Not with a PIN,
      // which that flow would bypass.
      ...(row.hasTxCode ? {} : { authorization_code: { issuer_state: issuerState(deps, offerId) } }),
    },
  };
}

/** A protocol request as @openid4vc reads it: the body (already parsed) and the HTTP request around it. */
export interface ProtocolRequest {
  body: Record<string, unknown>;
  http: RequestLike;
  /** The thumbprint of the verified DPoP proof's key (dpop.ts): the token is bound to it (RFC 9449 §5). */
  dpopJkt?: string | undefined;
  /** The verified wallet attestation (wallet-attestation.ts), recorded on the credential once the code is redeemed. */
  walletAttestation?: VerifiedWalletAttestation | undefined;
}

/**
 * A token request with the organization's issuer policy still to apply to what it lacks. The DPoP proof and
 * wallet attestation it carries are verified already (dpop.ts, wallet-attestation.ts); whether the policy demands
 * one it lacks is decided where the code is redeemed: by the redeeming statement itself on the common path, and
 * by `enforce` (which reads the policy and refuses as those checks do) before anything else on every other path.
 */
export interface TokenRequest extends ProtocolRequest {
  policy: {
    lacks: { dpop: boolean; walletAttestation: boolean };
    enforce: () => Promise<void>;
  };
}

/**
 * Token endpoint, pre-authorized code grant (OpenID4VCI 1.0 §6): one exchange per offer. @openid4vc/oauth2
 * parses the request (grant, `tx_code`) and checks the code and its expiry; the offer's rules stay here: the
 * code is looked up by its hash in this organization only, is used once, a withdrawn offer is refused, and a
 * PIN is compared at most TX_CODE_MAX_ATTEMPTS times.
 */
export async function exchangePreAuthorizedCode(deps: IssuerDeps, organizationId: string, request: TokenRequest) {
  let parsed: ReturnType<typeof authorizationServer.parseAccessTokenRequest>;
  try {
    parsed = authorizationServer.parseAccessTokenRequest({ accessTokenRequest: request.body, request: request.http });
  } catch (err) {
    throw libraryError(err);
  }
  const { grant } = parsed;
  // The library knows the authorization code and refresh token grants too; this server offers neither.
  if (grant.grantType !== PRE_AUTHORIZED_GRANT) {
    throw new OAuthError('unsupported_grant_type', 'Only the pre-authorized code grant is supported.');
  }
  const code = grant.preAuthorizedCode;
  const codeHash = sha256(code);
  const accessToken = bindAccessToken(randomToken(32), request.dpopJkt);
  const expiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
  // The common case in one statement: no PIN sent, the code is of an open offer without one, and the issuer
  // policy (read by the statement) demands nothing the request lacks. The request is checked first (the
  // library's checks need no row here: the expiry is the statement's).
  if (grant.txCode === undefined) {
    await verifyTokenRequest(deps, organizationId, request, parsed, code, undefined, undefined);
    const redeemed = await repository.redeemOpenOffer(
      deps.db,
      organizationId,
      codeHash,
      sha256(accessToken),
      expiresAt,
      new Date(),
      request.policy.lacks,
    );
    if (redeemed) {
      await recordWalletAttestation(deps, organizationId, accessToken, request.walletAttestation);
      return tokenResponse(accessToken, request.dpopJkt);
    }
  }
  // Otherwise the policy first (a request it refuses costs no PIN attempt and leaves the code unused), then the
  // offer is read: to say why it is refused, or to count a PIN attempt.
  await request.policy.enforce();
  const row = await repository.findOfferByCodeHash(deps.db, organizationId, codeHash);
  if (!row) throw new OAuthError('invalid_grant', 'The pre-authorized code is not valid.');
  const { offer, credential } = row;
  if (offer.redeemedAt) throw new OAuthError('invalid_grant', 'The pre-authorized code was already used.');
  if (offer.revokedAt || credential.revokedAt || credential.deletedAt) {
    throw new OAuthError('invalid_grant', 'This offer was withdrawn.');
  }
  if (offer.expiresAt <= new Date()) throw new OAuthError('invalid_grant', 'This offer has expired.');
  const txCode = grant.txCode;
  if (offer.txCodeHash) {
    if (!txCode) throw new OAuthError('invalid_request', 'This offer requires the transaction code (tx_code).');
    // The attempt is counted (reserved) before the PIN is compared, in one statement: concurrent
    // requests cannot all pass a stale count, so at most TX_CODE_MAX_ATTEMPTS PINs are ever compared.
    // A right PIN consumes its attempt too (the offer is redeemed just below: single use anyway).
    const attempt = await repository.reserveTxCodeAttempt(deps.db, offer.id, TX_CODE_MAX_ATTEMPTS);
    if (attempt === undefined) throw new OAuthError('invalid_grant', 'This offer was withdrawn.');
    if (!safeEqual(sha256(txCode), offer.txCodeHash)) {
      // The last attempt was wrong: the offer is withdrawn, as the code can no longer be exchanged.
      if (attempt >= TX_CODE_MAX_ATTEMPTS) await repository.revokeOfferAfterTxCodeAttempts(deps.db, offer.id);
      throw new OAuthError('invalid_grant', 'The transaction code is wrong.');
    }
  } else if (txCode !== undefined) {
    throw new OAuthError('invalid_request', 'This offer takes no transaction code (tx_code).');
  }
  // Only the PIN's hash is stored: it was compared above (with its attempt counted), so the one the
  // request carries is the expected one by now.
  await verifyTokenRequest(
    deps,
    organizationId,
    request,
    parsed,
    code,
    offer.expiresAt,
    offer.txCodeHash ? txCode : undefined,
  );
  if (!(await repository.redeemOffer(deps.db, offer.id, sha256(accessToken), expiresAt))) {
    throw new OAuthError('invalid_grant', 'The pre-authorized code was already used.');
  }
  await recordWalletAttestation(deps, organizationId, accessToken, request.walletAttestation);
  return tokenResponse(accessToken, request.dpopJkt);
}

/** Which wallet provider vouched for the wallet that redeemed the offer, on its credential (for operators). */
export async function recordWalletAttestation(
  deps: IssuerDeps,
  organizationId: string,
  accessToken: string,
  attestation: VerifiedWalletAttestation | undefined,
) {
  if (!attestation) return;
  await repository.recordWalletAttestation(
    deps.db,
    organizationId,
    sha256(accessToken),
    attestation.providerId,
    attestation.record,
  );
}

/** RFC 6749 §5.1. An opaque token, stored as its hash (the library's own makes signed JWT access tokens). */
export const tokenResponse = (accessToken: string, dpopJkt: string | undefined) => ({
  access_token: accessToken,
  token_type: dpopJkt ? 'DPoP' : 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
});

/** @openid4vc/oauth2's checks of a pre-authorized code token request (the code, the PIN, the expiry if known). */
async function verifyTokenRequest(
  deps: IssuerDeps,
  organizationId: string,
  request: ProtocolRequest,
  parsed: ReturnType<typeof authorizationServer.parseAccessTokenRequest>,
  code: string,
  expiresAt: Date | undefined,
  expectedTxCode: string | undefined,
) {
  if (parsed.grant.grantType !== PRE_AUTHORIZED_GRANT) return;
  try {
    await authorizationServer.verifyPreAuthorizedCodeAccessTokenRequest({
      authorizationServerMetadata: authorizationServerMetadataOf(deps, organizationId),
      grant: parsed.grant,
      accessTokenRequest: parsed.accessTokenRequest,
      request: request.http,
      expectedPreAuthorizedCode: code,
      ...(expiresAt ? { preAuthorizedCodeExpiresAt: expiresAt } : {}),
      ...(expectedTxCode !== undefined ? { expectedTxCode } : {}),
    });
  } catch (err) {
    throw libraryError(err);
  }
}

const noncePurpose = (organizationId: string) => `oid4vci:${organizationId}`;

/** Nonce endpoint (OpenID4VCI 1.0 §7): a fresh single-use `c_nonce` for this organization's key proofs. */
export async function issueNonce(deps: IssuerDeps, organizationId: string) {
  // Stateless (signed with the platform's offer-code key): nothing is written until the nonce is spent.
  const cNonce = nonces.issueNonce(deps.credentials.offerCodeKey, noncePurpose(organizationId), NONCE_TTL_SECONDS);
  return openid4vciIssuer.createNonceResponse({ cNonce, cNonceExpiresIn: NONCE_TTL_SECONDS });
}

/**
 * The `jwt` key proofs of a request (OpenID4VCI 1.0 §8.2 `proofs`, or the older single `proof`): 1 to
 * BATCH_SIZE of them, one credential each. A missing, unreadable or extra proof is `invalid_proof`
 * (§8.3.1.2: the `proofs` parameter is invalid), not a malformed request.
 */
function jwtProofs(body: Record<string, unknown>): string[] {
  const proofs = body.proofs as Record<string, unknown> | undefined;
  const proof = body.proof as { proof_type?: unknown; jwt?: unknown } | undefined;
  if (proofs && proof) throw new OAuthError('invalid_credential_request', 'Send proofs or proof, not both.');
  const jwts = proofs ? proofs.jwt : proof?.proof_type === 'jwt' ? [proof.jwt] : undefined;
  if (proofs && Object.keys(proofs).some((type) => type !== 'jwt')) {
    throw new OAuthError('invalid_proof', 'Only jwt key proofs are supported.');
  }
  if (proof && proof.proof_type !== 'jwt') throw new OAuthError('invalid_proof', 'Only jwt key proofs are supported.');
  if (!Array.isArray(jwts) || jwts.length === 0) {
    throw new OAuthError('invalid_proof', 'At least one jwt key proof is required.');
  }
  if (jwts.length > BATCH_SIZE) {
    throw new OAuthError('invalid_proof', `At most ${BATCH_SIZE} key proofs per request (batch_size).`);
  }
  for (const jwt of jwts) {
    if (typeof jwt !== 'string' || jwt.length > PROOF_MAX_CHARS || !COMPACT_JWT.test(jwt)) {
      throw new OAuthError('invalid_proof', 'A proof is not a compact JWT.');
    }
  }
  return jwts as string[];
}

/**
 * OpenID4VCI 1.0 Appendix F.1: the holder's key proof. @openid4vc/openid4vci checks its form (`typ`, `alg` not
 * none, `aud` this issuer, `iat` present, `exp`/`nbf`) and, through the callback, the key and signature; this
 * issuer adds its own rules: a recent `iat`, and a `c_nonce` of its nonce endpoint, used once.
 */
async function checkProof(deps: IssuerDeps, organizationId: string, issuerMetadata: IssuerMetadataResult, jwt: string) {
  let verified: Awaited<ReturnType<typeof openid4vciIssuer.verifyCredentialRequestJwtProof>>;
  try {
    verified = await openid4vciIssuer.verifyCredentialRequestJwtProof({ issuerMetadata, jwt });
  } catch (err) {
    throw libraryError(err);
  }
  const now = Math.floor(Date.now() / 1000);
  if (Math.abs(now - verified.payload.iat) > PROOF_MAX_AGE_SECONDS) {
    throw new OAuthError('invalid_proof', 'The proof is too old or from the future (iat).');
  }
  // Issued by this organization's nonce endpoint and not expired; spent with the claim (claimCredential).
  const nonce = verified.payload.nonce;
  const issued = nonce
    ? nonces.readNonce(deps.credentials.offerCodeKey, noncePurpose(organizationId), nonce)
    : undefined;
  if (!nonce || !issued) throw staleNonce();
  return { jwk: verified.signer.publicJwk as JsonWebKey, nonce: { hash: sha256(nonce), expiresAt: issued.expiresAt } };
}

const staleNonce = () =>
  new OAuthError('invalid_nonce', 'The proof must carry a fresh c_nonce from the nonce endpoint.');

type CheckedProof = Awaited<ReturnType<typeof checkProof>>;

/**
 * A batch's own rules, over proofs each already checked by checkProof: one `c_nonce` for all (the wallet uses
 * the nonce it was given until it gets a fresh one, OpenID4VCI 1.0 §7.2; it is spent once, with the claim), and
 * pairwise distinct keys by JWK thumbprint (RFC 7638): a credential per key, or the instances would be linkable.
 */
function checkBatch(proofs: CheckedProof[]) {
  const [first, ...rest] = proofs;
  if (!first) throw new OAuthError('invalid_proof', 'At least one jwt key proof is required.');
  const thumbprints = new Set(proofs.map((proof) => keysService.jwkThumbprint(proof.jwk)));
  if (thumbprints.size !== proofs.length) {
    throw new OAuthError('invalid_proof', 'The key proofs of a batch must be of distinct keys.');
  }
  if (rest.some((proof) => proof.nonce.hash !== first.nonce.hash)) {
    throw new OAuthError('invalid_nonce', 'All key proofs of a batch must carry the same c_nonce.');
  }
  return { jwks: proofs.map((proof) => proof.jwk), nonce: first.nonce };
}

/** The access token's offer, while the token is valid (OpenID4VCI 1.0 §8.3.1: `invalid_token` otherwise). */
function validToken(row: repository.TokenOffer | null | undefined): repository.TokenOffer {
  if (!row?.accessTokenExpiresAt || row.accessTokenExpiresAt <= new Date()) {
    throw new OAuthError('invalid_token', 'The access token is invalid or expired.', 401);
  }
  return row;
}

/** The configuration a request names must be the one of the token's offer (or its mdoc form). */
function assertConfiguration(configurationId: string, slug: string) {
  if (configurationId !== slug && configurationId !== mdocConfigurationId(slug)) {
    throw new OAuthError('unknown_credential_configuration', 'This offer is for another credential configuration.');
  }
}

const withdrawn = () => new OAuthError('credential_request_denied', 'This credential was withdrawn.');

/**
 * The claim statement's refusals, as the wallet is told them, in the order a request is checked: the token,
 * the configuration it grants, the credential and offer still standing, then the nonce and the offer's one use.
 */
function assertClaimed(claimed: repository.ClaimResult, configurationId: string) {
  const token = validToken(claimed.token);
  assertConfiguration(configurationId, token.slug);
  if (token.revokedAt || token.deletedAt || token.offerRevokedAt) throw withdrawn();
  if (!claimed.nonceFresh) throw staleNonce();
  if (!claimed.offerCompleted) {
    throw new OAuthError('credential_request_denied', 'This offer already delivered its credential.');
  }
  return { ...claimed, token };
}

/**
 * Credential endpoint (OpenID4VCI 1.0 §8): one SD-JWT VC per proven holder key (a batch: §8.2 `proofs`, up to
 * BATCH_SIZE, each instance with its own status entry, all revoked with the credential), or one mdoc per key when the
 * request names the schema's mdoc configuration (mdoc-issuance.ts). The access token
 * names the offer (and so the organization and the one configuration it may deliver); @openid4vc/openid4vci
 * parses the request against that configuration and builds the response: plain JSON, or a JWE to the wallet's
 * key when the request carries `credential_response_encryption` (§8.3).
 *
 * The common request (an SD-JWT VC by configuration id) is checked in full first (its form, its proofs,
 * their nonce's signature, a key attestation), then one statement reads the token's offer and, when it
 * grants that configuration and stands, claims it (repository.claimCredential); the credential is signed
 * once claimed. A request that fails a check reads the token's offer first, so that it is refused for its
 * token or configuration before anything else, as when the offer is read first. A request by identifier
 * (authorization code flow) or for an mdoc reads the offer first: the identifier names the configuration,
 * and an mdoc is built before the claim (its claims may not fit the mdoc's types).
 */
export async function requestCredential(
  deps: IssuerDeps,
  organizationId: string,
  /** The access token, its scheme and DPoP proof already checked (dpop.ts authorizeCredentialRequest). */
  token: string,
  body: Record<string, unknown>,
) {
  const accessTokenHash = sha256(token);
  const readToken = async () =>
    validToken(await repository.findOfferByAccessTokenHash(deps.db, organizationId, accessTokenHash));
  const byIdentifier = body.credential_identifier !== undefined;
  const forMdoc =
    typeof body.credential_configuration_id === 'string' &&
    readConfigurationId(body.credential_configuration_id).format === MDOC_FORMAT;
  const known = byIdentifier || forMdoc ? await readToken() : undefined;
  // OpenID4VCI 1.0 §6.2, §8.2: a token of the authorization code flow asked by authorization_details names its
  // one credential by an identifier, the configuration's id; a request by identifier is read as by that id.
  if (known && byIdentifier) {
    if (body.credential_identifier !== known.slug || body.credential_configuration_id !== undefined) {
      throw new OAuthError('unknown_credential_identifier', 'This access token grants no such credential identifier.');
    }
    const { credential_identifier: _identifier, ...byConfiguration } = body;
    body = { ...byConfiguration, credential_configuration_id: known.slug };
  }
  if (body.credential_configuration_id === undefined) {
    // Requests by `format` are of the drafts before OpenID4VCI 1.0.
    const refusal =
      body.format !== undefined
        ? new OAuthError('unsupported_credential_format', 'Name the credential_configuration_id of the offer.')
        : new OAuthError('invalid_credential_request', 'credential_configuration_id is missing.');
    if (!known) await readToken();
    throw refusal;
  }
  const configurationId = body.credential_configuration_id as string;
  if (known) assertConfiguration(configurationId, known.slug);
  let checked: Awaited<ReturnType<typeof checkCredentialRequest>>;
  try {
    checked = await checkCredentialRequest(deps, organizationId, configurationId, body);
  } catch (err) {
    // Refused for its token or configuration first, as when the offer is read before the request is checked.
    if (!known) assertConfiguration(configurationId, (await readToken()).slug);
    throw err;
  }
  const { parsed, jwks, nonce, keyAttestation, encryption } = checked;
  const jwk = jwks[0] as JsonWebKey;
  if (known && (known.revokedAt || known.deletedAt || known.offerRevokedAt)) throw withdrawn();
  const signer = await keysService.getActiveSigner(deps.keys, organizationId);
  const vct = credentialVct(deps.publicUrl, organizationId, readConfigurationId(configurationId).slug);
  const issuer = issuerUrl(deps.publicUrl, organizationId);
  const issueInstance = (
    credential: Pick<repository.TokenOffer, 'attributes' | 'claims'>,
    holderJwk: JsonWebKey,
    slot: { statusListId: string; statusIndex: number },
  ) => {
    const status = { idx: slot.statusIndex, uri: statusListUri(deps.publicUrl, organizationId, slot.statusListId) };
    return forMdoc
      ? issueMdocCredential({
          signer,
          vct,
          attributes: credential.attributes ?? [],
          claims: credential.claims,
          holderJwk,
          status,
        }).catch((err: unknown) => {
          if (err instanceof MdocError) throw new OAuthError('credential_request_denied', err.message);
          throw err;
        })
      : issueSdJwtVc({
          signer: signer.signer,
          header: { kid: signer.kid, x5c: signer.x5c },
          issuer,
          vct,
          holderJwk,
          claims: credential.claims,
          status,
        });
  };
  // An mdoc is built before the claim: one whose claims do not fit its types is refused unclaimed.
  const early = known && forMdoc ? await issueInstance(known, jwk, known) : undefined;
  const { action, targetType, actorType } = auditEventHead(
    { organizationId, actor: { kind: 'holder' } },
    'credential.claimed',
  );
  const claimInput: repository.ClaimInput = {
    organizationId,
    accessTokenHash,
    slug: readConfigurationId(configurationId).slug,
    nonceHash: nonce.hash,
    noncePurpose: noncePurpose(organizationId),
    nonceExpiresAt: nonce.expiresAt,
    holderJwk: jwk as Record<string, unknown>,
    signingKeyId: signer.keyId,
    // The statement writes the event's target and details, of the credential it claims, itself.
    audit: { action, targetType, actorType },
    now: new Date(),
  };
  // One proof: the claim statement alone. Several: the claim and the further instances' status slots in one
  // transaction, slots taken only once the claim succeeded (a refused request, or a replay of a used token,
  // allocates nothing).
  const { claimed, slots } =
    jwks.length === 1
      ? { claimed: assertClaimed(await repository.claimCredential(deps.db, claimInput), configurationId), slots: [] }
      : await deps.db.transaction(async (tx) => {
          const claimed = assertClaimed(await repository.claimCredentialInTransaction(tx, claimInput), configurationId);
          // Revoked between the read and the claim: no instances to add to lists already published as revoked.
          if (!claimed.claimedAt) throw withdrawn();
          const more = jwks.slice(1) as Record<string, unknown>[];
          return {
            claimed,
            slots: await credentialsService.addBatchInstances(
              deps.credentials,
              tx,
              organizationId,
              claimed.token.id,
              more,
            ),
          };
        });
  const credential = claimed.token;
  // After the commit (the slots exist only then): signing with the organization's key in memory does not fail
  // short of a bug, which would leave the claim without its answer, as a lost response would.
  const issued = [
    early ?? (await issueInstance(credential, jwk, credential)),
    ...(await Promise.all(slots.map((slot, i) => issueInstance(credential, jwks[i + 1] as JsonWebKey, slot)))),
  ];
  if (keyAttestation) await repository.recordKeyAttestation(deps.db, organizationId, credential.id, keyAttestation);
  if (claimed.claimedAt && claimed.notify) {
    await enqueueWebhookEvent(deps.credentials.webhooks, {
      organizationId,
      type: 'credential.claimed',
      data: { credential_id: credential.id, schema_id: claimed.schemaId, claimed_at: claimed.claimedAt.toISOString() },
    });
  }
  const response = openid4vciIssuer.createCredentialResponse({
    credentialRequest: parsed,
    credentials: issued.map((credential) => ({ credential })),
  });
  return encryption ? { jwe: await encryptCredentialResponse(encryption, response) } : { json: response };
}

/**
 * A credential request's own checks, before any row is read or written: its encryption parameters, its key
 * proofs' form, the library's parse against the configuration, each proof (signature, `aud`, `iat`, this
 * organization's `c_nonce`), the batch's rules and any key attestation. A request refused here spends nothing.
 */
async function checkCredentialRequest(
  deps: IssuerDeps,
  organizationId: string,
  configurationId: string,
  body: Record<string, unknown>,
) {
  const { credential_response_encryption: encryptionRequest, ...request } = body;
  const encryption = await parseResponseEncryption(encryptionRequest);
  const jwts = jwtProofs(request);
  const issuerMetadata = requestIssuerMetadata(deps, organizationId, configurationId);
  let parsed: ReturnType<typeof openid4vciIssuer.parseCredentialRequest>;
  try {
    // Without the encryption parameters: the library reads them in the drafts' form (a top-level `alg`).
    parsed = openid4vciIssuer.parseCredentialRequest({ issuerMetadata, credentialRequest: request });
  } catch (err) {
    throw libraryError(err);
  }
  // Each proof checked on its own, then the batch's rules: any failure refuses the whole request, unclaimed.
  const { jwks, nonce } = checkBatch(
    await Promise.all(jwts.map((jwt) => checkProof(deps, organizationId, issuerMetadata, jwt))),
  );
  // OpenID4VCI 1.0 Appendix D: a key attestation in a proof, vouched for by a trusted wallet provider (each proof
  // that carries one is checked; the first is recorded with the credential).
  const keyAttestations = await Promise.all(
    jwts.map((jwt, i) => checkKeyAttestation(deps.db, organizationId, jwt, jwks[i] as JsonWebKey)),
  );
  const keyAttestation = keyAttestations.find((record) => record !== undefined);
  return { parsed, jwks, nonce, keyAttestation, encryption };
}

/** SD-JWT VC Type Metadata at the `vct` URL. */
export async function typeMetadata(deps: IssuerDeps, organizationId: string | null, slug: string) {
  const record = organizationId
    ? (await issuableSchemas(deps.db, organizationId)).find((r) => r.schema.slug === slug)
    : await credentialSchemasService.findPlatformCredentialSchema(deps.db, slug);
  if (!record || (organizationId && isPlatformSchemaSlug(slug))) return undefined;
  // An organization's own type is drawn in its look; the platform's shared types belong to no one organization.
  const brand = organizationId
    ? presentHolderOrganization(
        await organizationsService.getOrganizationBrand(deps.db, organizationId),
        deps.publicUrl,
      )
    : null;
  return {
    vct: organizationId ? credentialVct(deps.publicUrl, organizationId, slug) : `${deps.publicUrl}/vct/${slug}`,
    name: record.schema.name,
    ...(record.schema.description ? { description: record.schema.description } : {}),
    display: LOCALES.map((locale) => ({
      locale,
      name: schemaDisplayName(record.schema, locale),
      // SD-JWT VC Type Metadata, rendering metadata: the "simple" method's logo and colours.
      ...(brand && (brand.logo_url || brand.brand_color) ? { rendering: { simple: cardDisplay(brand, locale) } } : {}),
    })),
    claims: record.attributes.map((attribute) => ({
      path: [attribute.name],
      display: LOCALES.map((locale) => ({
        locale,
        label: attributeDisplayLabel(record.schema, attribute.name, locale),
        ...(attribute.description ? { description: attribute.description } : {}),
      })),
      sd: 'always',
    })),
    attribute_types: Object.fromEntries(record.attributes.map((a) => [a.name, a.type as AttributeType])),
  };
}

/**
 * Signed status lists by URI, with the list revision they were built from. Building one reads the list's
 * revoked indexes, encodes and signs it: done again only when a revocation in that list bumped its revision
 * (any process, same transaction as the revocation), or the token is older than its refresh period (so `iat`
 * stays recent and a key rotation shows). A revocation in one list leaves the others' tokens cached. Bounded;
 * oldest out first.
 */
const statusListCache = new Map<string, { revision: number; size: number; at: number; token: Promise<string> }>();
const STATUS_LIST_CACHE_MAX = 1000;
const STATUS_LIST_REFRESH_MS = 60_000;

/**
 * One Token Status List of the organization: `statusListId`, or without one the list the older URI
 * (`/orgs/:id/status-list`) names, its first. Never stale: the list's revision is read first, so a token
 * cached under a revision always holds every revocation committed before that revision was read. A list of
 * another organization is not found (CREDENTIAL_STATUS_LIST_NOT_FOUND).
 */
export async function statusListToken(
  deps: IssuerDeps,
  organizationId: string,
  statusListId?: string,
  /** The list's row when the caller read it in this request already (the verifier, with the issuer): not read again. */
  read?: { list: Awaited<ReturnType<typeof findStatusList>> },
): Promise<string> {
  const list = read
    ? read.list
    : await findStatusList(deps.db, organizationId, statusListId ? { id: statusListId } : { number: 1 });
  if (statusListId && !list) throw new AppError('CREDENTIAL_STATUS_LIST_NOT_FOUND');
  const uri = statusListUri(deps.publicUrl, organizationId, statusListId);
  const refreshMs = Math.min(STATUS_LIST_REFRESH_MS, deps.statusListTtlSeconds * 1000);
  const hit = statusListCache.get(uri);
  if (list && hit && hit.revision === list.revision && hit.size === list.size && Date.now() - hit.at < refreshMs) {
    return hit.token;
  }
  const token = buildStatusListToken(deps, organizationId, uri, list);
  if (list) {
    statusListCache.delete(uri);
    statusListCache.set(uri, { revision: list.revision, size: list.size, at: Date.now(), token });
    token.catch(() => statusListCache.delete(uri));
    if (statusListCache.size > STATUS_LIST_CACHE_MAX) {
      statusListCache.delete(statusListCache.keys().next().value as string);
    }
  }
  return token;
}

async function buildStatusListToken(
  deps: IssuerDeps,
  organizationId: string,
  uri: string,
  list: { id: string; size: number } | undefined,
) {
  await organizationsService.getPublicOrganization(deps.db, organizationId);
  // An organization that has issued nothing yet: an empty list at the older URI, as before it had lists.
  const size = Math.max(list?.size ?? deps.statusListSize, 8);
  const lst = encodeStatusList(size, list ? await findRevokedIndexes(deps.db, organizationId, list.id) : []);
  const signer = await keysService.getActiveSigner(deps.keys, organizationId);
  return signStatusListToken({
    signer: signer.signer,
    header: { kid: signer.kid, x5c: signer.x5c },
    uri,
    lst,
    ttl: deps.statusListTtlSeconds,
  });
}
