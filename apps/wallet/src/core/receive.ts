import { decodeJwt, jwtVcIssuerMetadataUrl, SdJwtVcError, signJwt, verifySdJwtVc } from '@cp/credentials';
import { localizedFrom, pickEntry } from './display.ts';
import { WalletError, type WalletErrorCode } from './errors.ts';
import { getJson, http, isObject, randomId, wellKnownAppended, wellKnownInserted } from './http.ts';
import { type ResolvedKey, resolveSignerKey } from './issuer-key.ts';
import { loadPlatformTrust, type PlatformTrust } from './platform-trust.ts';
import { checkStatus } from './status.ts';
import type {
  ClaimDisplay,
  CredentialDisplay,
  IssuerAssurance,
  IssuerInfo,
  LocalizedText,
  ResolvedOffer,
  StoredCredential,
  WalletVault,
} from './types.ts';

/**
 * OpenID4VCI 1.0, pre-authorized code flow: offer (by value or reference) → issuer and authorization
 * server metadata → token (with the PIN when asked) → nonce → key proof → credential, verified before
 * it is stored.
 */

export const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export interface CredentialOffer {
  credential_issuer: string;
  credential_configuration_ids: string[];
  grants?: Record<string, unknown>;
}

/** What a link, QR code or paste holds: the offer itself, or where to fetch it. */
export type OfferLink = { offer: CredentialOffer; offerUri?: undefined } | { offer?: undefined; offerUri: string };

/** The protocol details acceptOffer needs, carried along with the resolved offer (plain, cloneable data). */
export interface OfferSession {
  preAuthorizedCode: string;
  tokenEndpoint: string;
  credentialEndpoint: string;
  nonceEndpoint?: string;
  vct?: string;
}

export type ResolvedOfferWithSession = ResolvedOffer & { session: OfferSession };

const invalid = (message: string): never => {
  throw new WalletError('OFFER_INVALID', message);
};

function parseOfferJson(text: string): CredentialOffer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid('The credential offer is not JSON');
  }
  if (
    !isObject(value) ||
    typeof value.credential_issuer !== 'string' ||
    !Array.isArray(value.credential_configuration_ids) ||
    value.credential_configuration_ids.length === 0 ||
    !value.credential_configuration_ids.every((id) => typeof id === 'string')
  ) {
    return invalid('The credential offer lacks credential_issuer or credential_configuration_ids');
  }
  try {
    const url = new URL(value.credential_issuer);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
  } catch {
    return invalid('The credential issuer is not an https URL');
  }
  return value as unknown as CredentialOffer;
}

/**
 * Reads a credential offer from what the user scanned, pasted or followed: `openid-credential-offer://?
 * credential_offer=…|credential_offer_uri=…`, an https link with those parameters (also the wallet's own
 * `/receive?offer=<link>`), or the offer JSON itself.
 */
export function parseOfferLink(input: string): OfferLink {
  const text = input.trim();
  if (text.startsWith('{')) return { offer: parseOfferJson(text) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('This is neither a credential offer link nor an offer');
  }
  const params = url.searchParams;
  const byValue = params.get('credential_offer');
  const byReference = params.get('credential_offer_uri');
  if (byValue) return { offer: parseOfferJson(byValue) };
  if (byReference) {
    let reference: URL;
    try {
      reference = new URL(byReference);
    } catch {
      return invalid('credential_offer_uri is not a URL');
    }
    if (reference.protocol !== 'https:' && reference.protocol !== 'http:') invalid('credential_offer_uri is not https');
    return { offerUri: reference.href };
  }
  const nested = params.get('offer');
  if (nested && nested !== text) return parseOfferLink(nested);
  return invalid('The link carries no credential_offer or credential_offer_uri');
}

// ---- Metadata ----------------------------------------------------------------------------------------

/** Tries the well-known URL inserted before the path (the standard), then appended (what some do). */
async function wellKnownJson(base: string, name: string): Promise<Record<string, unknown>> {
  const urls = [wellKnownInserted(base, name), wellKnownAppended(base, name)];
  let last: unknown;
  for (const url of [...new Set(urls)]) {
    try {
      return await getJson(url, 'ISSUER_UNREACHABLE');
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof WalletError ? last : new WalletError('ISSUER_UNREACHABLE', `No ${name} metadata at ${base}`);
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const logoOf = (entry: unknown) => {
  if (!isObject(entry) || !isObject(entry.logo)) return undefined;
  return str(entry.logo.uri) ?? str(entry.logo.url);
};

function credentialDisplayFrom(entries: unknown, locale: string, fallbackName: string): CredentialDisplay {
  const list = Array.isArray(entries) ? (entries.filter(isObject) as Record<string, unknown>[]) : [];
  const name = localizedFrom(list, 'name');
  const description = localizedFrom(list, 'description');
  const chosen = pickEntry(list, locale);
  const backgroundColor = str(chosen?.background_color);
  const textColor = str(chosen?.text_color);
  const logoUri = logoOf(chosen);
  return {
    name: Object.keys(name).length > 0 ? name : { und: fallbackName },
    ...(Object.keys(description).length > 0 ? { description } : {}),
    ...(backgroundColor ? { backgroundColor } : {}),
    ...(textColor ? { textColor } : {}),
    ...(logoUri ? { logoUri } : {}),
  };
}

/** Claim labels from `claims` as an array of `{path, display}` (1.0) or an object map (drafts). */
function claimDisplaysFrom(claims: unknown): ClaimDisplay[] {
  const result: ClaimDisplay[] = [];
  const seen = new Set<string>();
  const add = (name: unknown, display: unknown) => {
    if (typeof name !== 'string' || seen.has(name)) return;
    seen.add(name);
    const label: LocalizedText = localizedFrom(display, 'name');
    result.push({ name, label: Object.keys(label).length > 0 ? label : { und: name } });
  };
  if (Array.isArray(claims)) {
    for (const claim of claims) {
      // Only top-level claims have a label of their own here.
      if (isObject(claim) && Array.isArray(claim.path) && claim.path.length === 1) add(claim.path[0], claim.display);
    }
  } else if (isObject(claims)) {
    for (const [name, value] of Object.entries(claims)) add(name, isObject(value) ? value.display : undefined);
  }
  return result;
}

interface IssuerContext {
  issuer: IssuerInfo;
  metadata: Record<string, unknown>;
}

/**
 * Who vouches for the issuer, from the keys its JWT VC Issuer Metadata publishes with a certificate chain
 * (`x5c` in a JWK, RFC 7517 §4.7), before anything is issued: the same trust function as for the
 * credential, which is decided again on the credential's own signature when it arrives.
 */
async function announcedAssurance(
  credentialIssuer: string,
  vcMetadata: Record<string, unknown>,
  trust: PlatformTrust | null,
): Promise<IssuerAssurance | undefined> {
  const keys = isObject(vcMetadata.jwks) && Array.isArray(vcMetadata.jwks.keys) ? vcMetadata.jwks.keys : [];
  for (const key of keys.filter(isObject)) {
    if (!Array.isArray(key.x5c)) continue;
    try {
      const resolved = await resolveSignerKey({ x5c: key.x5c }, { iss: credentialIssuer }, trust);
      if (resolved.binding.source === 'x5c' && sameKey(resolved.jwk, key as JsonWebKey)) return resolved.assurance;
    } catch {
      // A chain that does not hold or names someone else says nothing about this issuer.
    }
  }
  return undefined;
}

async function issuerContext(credentialIssuer: string, locale: string): Promise<IssuerContext> {
  const metadata = await wellKnownJson(credentialIssuer, 'openid-credential-issuer');
  if (str(metadata.credential_issuer)?.replace(/\/$/, '') !== credentialIssuer.replace(/\/$/, '')) {
    throw new WalletError('ISSUER_UNREACHABLE', 'The issuer metadata describes another issuer');
  }
  const display = Array.isArray(metadata.display)
    ? (metadata.display.filter(isObject) as Record<string, unknown>[])
    : [];
  const name = localizedFrom(display, 'name');
  const logoUri = logoOf(pickEntry(display, locale));
  // The JWT VC Issuer Metadata may carry the platform's KYB decision (not part of the standard).
  let verifiedOrganization: boolean | undefined;
  let organizationName: string | undefined;
  let assurance: IssuerAssurance | undefined;
  try {
    const vcMetadata = await getJson(jwtVcIssuerMetadataUrl(credentialIssuer), 'ISSUER_UNREACHABLE');
    if (vcMetadata.issuer === credentialIssuer && isObject(vcMetadata.organization)) {
      if (typeof vcMetadata.organization.verified === 'boolean')
        verifiedOrganization = vcMetadata.organization.verified;
      organizationName = str(vcMetadata.organization.name);
    }
    if (vcMetadata.issuer === credentialIssuer) {
      assurance = await announcedAssurance(credentialIssuer, vcMetadata, await loadPlatformTrust());
    }
  } catch {
    // Optional: most issuers publish no such metadata.
  }
  const fallbackName = organizationName ?? new URL(credentialIssuer).host;
  return {
    metadata,
    issuer: {
      id: credentialIssuer,
      name: Object.keys(name).length > 0 ? name : { und: fallbackName },
      ...(logoUri ? { logoUri } : {}),
      ...(verifiedOrganization !== undefined ? { verifiedOrganization } : {}),
      ...(assurance ? { assurance } : {}),
    },
  };
}

async function tokenEndpointOf(credentialIssuer: string, metadata: Record<string, unknown>): Promise<string> {
  const servers = Array.isArray(metadata.authorization_servers)
    ? metadata.authorization_servers.filter((s): s is string => typeof s === 'string')
    : [];
  const server = servers[0] ?? credentialIssuer;
  try {
    const as = await wellKnownJson(server, 'oauth-authorization-server');
    const endpoint = str(as.token_endpoint);
    if (endpoint) return endpoint;
  } catch {
    // Falls back below.
  }
  try {
    const openid = await getJson(wellKnownAppended(server, 'openid-configuration'));
    const endpoint = str(openid.token_endpoint);
    if (endpoint) return endpoint;
  } catch {
    // Falls back below.
  }
  // Draft-era issuers put the token endpoint in the issuer metadata.
  const legacy = str(metadata.token_endpoint);
  if (legacy) return legacy;
  throw new WalletError('ISSUER_UNREACHABLE', 'The authorization server publishes no token endpoint');
}

/** Fetches what the offer points to and everything needed to show it and to accept it. */
export async function resolveOffer(input: string, locale: string): Promise<ResolvedOffer> {
  return resolveOfferWithSession(input, locale);
}

/** resolveOffer, typed with the protocol session it carries. */
export async function resolveOfferWithSession(input: string, locale: string): Promise<ResolvedOfferWithSession> {
  const link = parseOfferLink(input);
  let offer: CredentialOffer;
  if (link.offer) {
    offer = link.offer;
  } else {
    const answer = await http(link.offerUri, {
      headers: { accept: 'application/json' },
      unreachable: 'ISSUER_UNREACHABLE',
    });
    if (answer.status === 404 || answer.status === 410) {
      throw new WalletError('OFFER_EXPIRED', 'The offer is no longer available', errorDetail(answer.json));
    }
    if (!answer.ok) throw new WalletError('ISSUER_UNREACHABLE', `The offer endpoint answered ${answer.status}`);
    offer = parseOfferJson(answer.text);
  }
  const grant = offer.grants?.[PRE_AUTHORIZED_GRANT];
  if (!isObject(grant) || !str(grant['pre-authorized_code'])) {
    throw new WalletError('OFFER_UNSUPPORTED', 'Only offers with a pre-authorized code are supported');
  }
  const configurationId = offer.credential_configuration_ids[0]!;
  const { issuer, metadata } = await issuerContext(offer.credential_issuer, locale);
  const configurations = isObject(metadata.credential_configurations_supported)
    ? metadata.credential_configurations_supported
    : {};
  const configuration = configurations[configurationId];
  if (!isObject(configuration)) {
    throw new WalletError('OFFER_INVALID', `The issuer does not describe ${configurationId}`);
  }
  if (configuration.format !== 'dc+sd-jwt' && configuration.format !== 'vc+sd-jwt') {
    throw new WalletError('OFFER_UNSUPPORTED', `Credential format ${String(configuration.format)} is not supported`);
  }
  const credentialMetadata = isObject(configuration.credential_metadata) ? configuration.credential_metadata : {};
  const display = credentialDisplayFrom(credentialMetadata.display ?? configuration.display, locale, configurationId);
  const claimDisplay = claimDisplaysFrom(credentialMetadata.claims ?? configuration.claims);
  const credentialEndpoint = str(metadata.credential_endpoint);
  if (!credentialEndpoint) throw new WalletError('ISSUER_UNREACHABLE', 'The issuer publishes no credential endpoint');
  const tokenEndpoint = await tokenEndpointOf(offer.credential_issuer, metadata);

  let txCode: ResolvedOffer['txCode'];
  if (grant.tx_code !== undefined || grant.user_pin_required === true) {
    const spec = isObject(grant.tx_code) ? grant.tx_code : {};
    const inputMode = spec.input_mode === 'text' ? 'text' : 'numeric';
    const description = str(spec.description);
    txCode = {
      ...(typeof spec.length === 'number' ? { length: spec.length } : {}),
      inputMode,
      ...(description ? { description } : {}),
    };
  }
  const nonceEndpoint = str(metadata.nonce_endpoint);
  const vct = str(configuration.vct);
  return {
    credentialIssuer: offer.credential_issuer,
    issuer,
    configurationId,
    display,
    claimDisplay,
    ...(txCode ? { txCode } : {}),
    session: {
      preAuthorizedCode: str(grant['pre-authorized_code'])!,
      tokenEndpoint,
      credentialEndpoint,
      ...(nonceEndpoint ? { nonceEndpoint } : {}),
      ...(vct ? { vct } : {}),
    },
  };
}

// ---- Accepting ---------------------------------------------------------------------------------------

function errorDetail(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const error = str(body.error);
  const description = str(body.error_description);
  return error ? `${error}${description ? `: ${description}` : ''}` : undefined;
}

/** OAuth / OpenID4VCI errors → what the user can act on. */
export function oauthErrorCode(body: unknown, pinGiven: boolean): WalletErrorCode {
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

const REGISTERED = new Set([
  'iss',
  'vct',
  'cnf',
  'status',
  'iat',
  'exp',
  'nbf',
  'jti',
  'aud',
  '_sd',
  '_sd_alg',
  'vct#integrity',
]);
const sameKey = (a: JsonWebKey | undefined, b: JsonWebKey) =>
  !!a && a.kty === b.kty && a.crv === b.crv && a.x === b.x && a.y === b.y;
const isoOf = (seconds: unknown) =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : undefined;

/**
 * Verifies an issued SD-JWT VC for this holder: issuer signature (x5c, JWT VC Issuer Metadata or DID),
 * disclosures, validity dates, `cnf.jwk` = the holder key, and the type when one was expected.
 */
export async function verifyIssuedCredential(
  raw: string,
  expected: { holderJwk: JsonWebKey; credentialIssuer?: string; vct?: string; trust?: PlatformTrust | null },
): Promise<{ claims: Record<string, unknown>; payload: Record<string, unknown>; key: ResolvedKey }> {
  let key: ResolvedKey | undefined;
  let decoded: Awaited<ReturnType<typeof verifySdJwtVc>>;
  try {
    decoded = await verifySdJwtVc(raw, {
      resolveIssuerKey: async (header, payload) => {
        key = await resolveSignerKey(header, payload, expected.trust ?? null);
        return key;
      },
    });
  } catch (err) {
    const message = err instanceof SdJwtVcError || err instanceof Error ? err.message : String(err);
    throw new WalletError('CREDENTIAL_INVALID', `The credential does not verify: ${message}`);
  }
  const { payload } = decodeJwt(raw.split('~')[0]!);
  const iss = str(payload.iss);
  if (
    expected.credentialIssuer &&
    iss?.replace(/\/$/, '') !== expected.credentialIssuer.replace(/\/$/, '') &&
    !iss?.startsWith('did:')
  ) {
    throw new WalletError('CREDENTIAL_INVALID', 'The credential was issued by someone else');
  }
  if (!sameKey((payload.cnf as { jwk?: JsonWebKey } | undefined)?.jwk, expected.holderJwk)) {
    throw new WalletError('CREDENTIAL_INVALID', 'The credential is not bound to this wallet’s key');
  }
  if (expected.vct && payload.vct !== expected.vct) {
    throw new WalletError('CREDENTIAL_INVALID', 'The credential is not of the offered type');
  }
  if (typeof payload.vct !== 'string') throw new WalletError('CREDENTIAL_INVALID', 'The credential has no vct');
  const claims = Object.fromEntries(Object.entries(decoded.claims).filter(([name]) => !REGISTERED.has(name)));
  return { claims, payload, key: key! };
}

/** Builds the stored form of a verified credential (status not checked yet: UNKNOWN). */
export async function storedCredentialFrom(
  raw: string,
  context: {
    issuer: IssuerInfo;
    display: CredentialDisplay;
    claimDisplay: ClaimDisplay[];
    holderJwk: JsonWebKey;
    vct?: string;
    /** The platform's anchors, to say who vouches for the issuer (null: unknown or unreachable). */
    trust?: PlatformTrust | null;
  },
): Promise<StoredCredential> {
  const { claims, payload, key } = await verifyIssuedCredential(raw, {
    holderJwk: context.holderJwk,
    credentialIssuer: context.issuer.id,
    ...(context.vct ? { vct: context.vct } : {}),
    trust: context.trust ?? null,
  });
  const reference = (payload.status as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list;
  const issuedAt = isoOf(payload.iat);
  const expiresAt = isoOf(payload.exp);
  // Claims without a label in the metadata are still shown, under their own name.
  const claimDisplay = [
    ...context.claimDisplay,
    ...Object.keys(claims)
      .filter((name) => !context.claimDisplay.some((c) => c.name === name))
      .map((name) => ({ name, label: { und: name } })),
  ];
  return {
    id: randomId(),
    format: 'dc+sd-jwt',
    raw,
    vct: payload.vct as string,
    // Decided on the credential's own signature: it replaces whatever the metadata announced.
    issuer: { ...context.issuer, keySource: key.keySource, assurance: key.assurance },
    display: context.display,
    claimDisplay,
    claims,
    ...(issuedAt ? { issuedAt } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    ...(reference && typeof reference.idx === 'number' && typeof reference.uri === 'string'
      ? { statusReference: { uri: reference.uri, idx: reference.idx } }
      : {}),
    lastStatus: 'UNKNOWN',
    receivedAt: new Date().toISOString(),
  };
}

async function postForToken(session: OfferSession, txCode: string | undefined) {
  const answer = await http(session.tokenEndpoint, {
    form: {
      grant_type: PRE_AUTHORIZED_GRANT,
      'pre-authorized_code': session.preAuthorizedCode,
      ...(txCode !== undefined ? { tx_code: txCode } : {}),
    },
    headers: { accept: 'application/json' },
    unreachable: 'ISSUER_UNREACHABLE',
  });
  if (!answer.ok || !isObject(answer.json) || !str(answer.json.access_token)) {
    throw new WalletError(
      oauthErrorCode(answer.json, txCode !== undefined),
      `The token endpoint answered ${answer.status}`,
      errorDetail(answer.json),
    );
  }
  return answer.json;
}

async function freshNonce(session: OfferSession, token: Record<string, unknown>): Promise<string | undefined> {
  if (session.nonceEndpoint) {
    const answer = await http(session.nonceEndpoint, { method: 'POST', unreachable: 'ISSUER_UNREACHABLE' });
    if (answer.ok && isObject(answer.json) && str(answer.json.c_nonce)) return str(answer.json.c_nonce);
    throw new WalletError('ISSUER_ERROR', `The nonce endpoint answered ${answer.status}`, errorDetail(answer.json));
  }
  return str(token.c_nonce);
}

/** Redeems the offer with the PIN when one is asked, verifies the credential and stores it. */
export async function acceptOffer(
  resolved: ResolvedOffer,
  vault: WalletVault,
  options: { txCode?: string } = {},
): Promise<StoredCredential> {
  const session = (resolved as Partial<ResolvedOfferWithSession>).session;
  if (!session) throw new WalletError('OFFER_INVALID', 'Resolve the offer with resolveOffer first');
  const txCode = options.txCode?.trim();
  if (resolved.txCode && !txCode) throw new WalletError('PIN_REQUIRED', 'This offer needs the PIN');
  const holder = vault.holder();
  const token = await postForToken(session, resolved.txCode ? txCode : undefined);
  const accessToken = str(token.access_token)!;
  const tokenType = str(token.token_type) ?? 'Bearer';

  let nonce = await freshNonce(session, token);
  let raw: string | undefined;
  for (let attempt = 0; attempt < 2 && raw === undefined; attempt++) {
    const proof = await signJwt(
      holder.signer,
      { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk },
      { aud: resolved.credentialIssuer, iat: Math.floor(Date.now() / 1000), ...(nonce ? { nonce } : {}) },
    );
    const answer = await http(session.credentialEndpoint, {
      headers: {
        accept: 'application/json',
        authorization: `${/^dpop$/i.test(tokenType) ? 'DPoP' : 'Bearer'} ${accessToken}`,
      },
      json: { credential_configuration_id: resolved.configurationId, proofs: { jwt: [proof] } },
      unreachable: 'ISSUER_UNREACHABLE',
    });
    const body = answer.json;
    if (!answer.ok) {
      // A stale nonce: the issuer may say so (drafts return a new c_nonce); try once with a fresh one.
      if (attempt === 0 && isObject(body) && body.error === 'invalid_nonce') {
        nonce = str(body.c_nonce) ?? (await freshNonce(session, {}));
        continue;
      }
      throw new WalletError('ISSUER_ERROR', `The credential endpoint answered ${answer.status}`, errorDetail(body));
    }
    if (!isObject(body)) throw new WalletError('ISSUER_ERROR', 'The credential response is not JSON');
    const first = Array.isArray(body.credentials) ? body.credentials[0] : undefined;
    raw = isObject(first) ? str(first.credential) : (str(first) ?? str(body.credential));
    if (!raw) {
      if (body.transaction_id) throw new WalletError('OFFER_UNSUPPORTED', 'Deferred issuance is not supported');
      throw new WalletError('ISSUER_ERROR', 'The credential response holds no credential');
    }
  }
  if (!raw) throw new WalletError('ISSUER_ERROR', 'The issuer did not issue the credential');

  const trust = await loadPlatformTrust();
  const stored = await storedCredentialFrom(raw, {
    issuer: resolved.issuer,
    display: resolved.display,
    claimDisplay: resolved.claimDisplay,
    holderJwk: holder.publicJwk,
    ...(session.vct ? { vct: session.vct } : {}),
    trust,
  });
  const lastStatus = await checkStatus(stored, { trust });
  // lastCheckedAt: when a status was last answered (none yet when the list could not be read).
  const saved: StoredCredential = {
    ...stored,
    lastStatus,
    ...(lastStatus !== 'UNKNOWN' ? { lastCheckedAt: new Date().toISOString() } : {}),
  };
  await vault.saveCredential(saved);
  return saved;
}
