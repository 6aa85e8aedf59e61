import { decodeJwt, jwtVcIssuerMetadataUrl, SdJwtVcError, verifySdJwtVc } from '@cp/credentials';
import {
  AUTHORIZATION_CODE_GRANT,
  createHolderKey,
  type Issuance,
  PRE_AUTHORIZED_GRANT,
  REGISTERED_CLAIMS,
  type RequestCredentialOptions,
  requestCredential,
  resolveCredentialOffer,
  sameKey,
} from '@cp/holder';
import { batchInstances, batchKeyMaker } from './batch.ts';
import { localizedFrom, pickEntry } from './display.ts';
import { WalletError } from './errors.ts';
import { withHolder } from './holder.ts';
import { getJson, isObject, randomId } from './http.ts';
import { type ResolvedKey, resolveSignerKey } from './issuer-key.ts';
import { loadPlatformTrust, type PlatformTrust } from './platform-trust.ts';
import { checkStatus } from './status.ts';
import type {
  ClaimDisplay,
  CredentialDisplay,
  CredentialFormat,
  IssuerAssurance,
  IssuerInfo,
  LocalizedText,
  ResolvedOffer,
  StoredCredential,
  WalletVault,
} from './types.ts';

/**
 * Receiving a credential (OpenID4VCI 1.0, pre-authorized code flow). The protocol is @cp/holder's: offer,
 * issuer and authorization server metadata, token with the PIN, nonce, key proof, credential. What is the
 * wallet's own: how the offer is shown (issuer, credential and claim display in the holder's language),
 * who vouches for the issuer (before and after issuance), verifying the credential against that, its
 * status, and keeping it in the vault.
 */

/** A resolved offer with what acceptOffer redeems it with (plain, cloneable data; opaque to the screens). */
export type ResolvedOfferWithSession = ResolvedOffer & { session: Issuance; locale?: string };

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

/**
 * Claim labels from `claims` as an array of `{path, display}` (1.0) or an object map (drafts). An mdoc's claims are
 * addressed `[namespace, element]` (OpenID4VCI 1.0 Appendix A.2.2): labelled by element.
 */
function claimDisplaysFrom(claims: unknown, format: CredentialFormat = 'dc+sd-jwt'): ClaimDisplay[] {
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
      // Only top-level claims (an mdoc's elements) have a label of their own here.
      const depth = format === 'mso_mdoc' ? 2 : 1;
      if (isObject(claim) && Array.isArray(claim.path) && claim.path.length === depth)
        add(claim.path[depth - 1], claim.display);
    }
  } else if (isObject(claims)) {
    for (const [name, value] of Object.entries(claims)) add(name, isObject(value) ? value.display : undefined);
  }
  return result;
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

/**
 * The issuer as the holder is shown it: its name and logo from its metadata (in the holder's language),
 * and, from its JWT VC Issuer Metadata when it publishes one, the platform's KYB decision and who vouches
 * for its key.
 */
export async function issuerInfo(
  credentialIssuer: string,
  metadata: Record<string, unknown>,
  locale: string,
): Promise<IssuerInfo> {
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
    id: credentialIssuer,
    name: Object.keys(name).length > 0 ? name : { und: fallbackName },
    ...(logoUri ? { logoUri } : {}),
    ...(verifiedOrganization !== undefined ? { verifiedOrganization } : {}),
    ...(assurance ? { assurance } : {}),
  };
}

/** Fetches what the offer points to (@cp/holder) and everything needed to show it and to accept it. */
export async function resolveOffer(input: string, locale: string): Promise<ResolvedOffer> {
  return resolveOfferWithSession(input, locale);
}

/** The offer's configuration in a format, from the offer and metadata already read (undefined: none). */
export function issuanceIn(issuance: Issuance, format: CredentialFormat): Issuance | undefined {
  const described = issuance.issuerMetadata.credentialIssuer.credential_configurations_supported;
  const matches = (value: unknown) =>
    format === 'mso_mdoc' ? value === 'mso_mdoc' : value === 'dc+sd-jwt' || value === 'vc+sd-jwt';
  const configurationId = issuance.offer.credential_configuration_ids.find((id) => {
    const configuration = described[id] as Record<string, unknown> | undefined;
    return isObject(configuration) && matches(configuration.format);
  });
  if (!configurationId) return undefined;
  return { ...issuance, configurationId, configuration: described[configurationId] as Record<string, unknown> };
}

/** How a configuration is shown: its display (1.0 `credential_metadata`, or on itself in drafts) and claim labels. */
export function configurationDisplay(
  issuance: Pick<Issuance, 'configuration' | 'configurationId'>,
  locale: string,
  format: CredentialFormat,
) {
  const { configuration, configurationId } = issuance;
  const credentialMetadata = isObject(configuration.credential_metadata) ? configuration.credential_metadata : {};
  return {
    display: credentialDisplayFrom(credentialMetadata.display ?? configuration.display, locale, configurationId),
    claimDisplay: claimDisplaysFrom(credentialMetadata.claims ?? configuration.claims, format),
  };
}

/** resolveOffer, typed with the protocol session it carries. */
export async function resolveOfferWithSession(input: string, locale: string): Promise<ResolvedOfferWithSession> {
  let issuance: Issuance | undefined;
  try {
    issuance = await withHolder('OFFER_INVALID', (context) =>
      resolveCredentialOffer(input, context, { authorizationCode: true }),
    );
  } catch (err) {
    // The offer's first configuration is not an SD-JWT VC: its first SD-JWT VC (the default whenever one is
    // offered), else its mdoc; else what was wrong with the offer in the first place.
    if (!(err instanceof WalletError) || err.code !== 'OFFER_UNSUPPORTED') throw err;
    for (const format of ['dc+sd-jwt', 'mso_mdoc'] as const) {
      issuance = await withHolder('OFFER_INVALID', (context) =>
        resolveCredentialOffer(input, context, { authorizationCode: true, format }),
      ).catch(() => undefined);
      if (issuance) break;
    }
    if (!issuance) throw err;
  }
  const { offer, configurationId, txCode } = issuance;
  const metadata = issuance.issuerMetadata.credentialIssuer as Record<string, unknown>;
  const issuer = await issuerInfo(offer.credential_issuer, metadata, locale);
  const format: CredentialFormat = issuance.configuration.format === 'mso_mdoc' ? 'mso_mdoc' : 'dc+sd-jwt';
  const authorizationCode = offer.grants?.[AUTHORIZATION_CODE_GRANT]
    ? offer.grants[PRE_AUTHORIZED_GRANT]
      ? ('possible' as const)
      : ('required' as const)
    : undefined;
  // The authorization code flow receives SD-JWT VCs only (an mdoc needs the pre-authorized code).
  if (authorizationCode === 'required' && format === 'mso_mdoc') {
    throw new WalletError('OFFER_UNSUPPORTED', 'An mdoc is received with a pre-authorized code only');
  }
  const formats: CredentialFormat[] =
    format === 'dc+sd-jwt' && authorizationCode !== 'required' && issuanceIn(issuance, 'mso_mdoc')
      ? ['dc+sd-jwt', 'mso_mdoc']
      : [format];
  return {
    ...(authorizationCode ? { authorizationCode } : {}),
    credentialIssuer: offer.credential_issuer,
    issuer,
    configurationId,
    ...configurationDisplay(issuance, locale, format),
    ...(txCode ? { txCode } : {}),
    formats,
    session: issuance,
    locale,
  };
}

// ---- Accepting ---------------------------------------------------------------------------------------

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
  const claims = Object.fromEntries(Object.entries(decoded.claims).filter(([name]) => !REGISTERED_CLAIMS.has(name)));
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

/**
 * Redeems the offer (@cp/holder: token with the PIN when one is asked, nonce, key proofs, credentials bound to
 * the vault's key and, when the issuer issues batches, to a fresh key per further instance), then verifies each
 * credential against the issuer the wallet trusts, reads its status and stores it: a batch as ONE credential
 * with its instances (each with its key, in the encrypted record), presented a fresh one at a time.
 */
export async function acceptOffer(
  resolved: ResolvedOffer,
  vault: WalletVault,
  options: {
    txCode?: string;
    /** At most this many instances (default: the issuer's batch_size). */
    batchSize?: number;
    /** The format to receive it in, among `resolved.formats` (default: the first, SD-JWT VC when offered). */
    format?: CredentialFormat;
  } = {},
): Promise<StoredCredential> {
  const session = (resolved as Partial<ResolvedOfferWithSession>).session;
  if (!session) throw new WalletError('OFFER_INVALID', 'Resolve the offer with resolveOffer first');
  const format = options.format ?? resolved.formats?.[0] ?? 'dc+sd-jwt';
  const issuance = issuanceIn(session, format);
  if (!issuance) throw new WalletError('OFFER_UNSUPPORTED', `The offer has no ${format} credential`);
  if (resolved.authorizationCode === 'required') {
    throw new WalletError('OFFER_UNSUPPORTED', 'This offer is redeemed at the issuer’s page (authorization code)');
  }
  if (format === 'mso_mdoc') return acceptMdoc(resolved, issuance, vault, options);
  return receiveSdJwtVc(resolved, issuance, vault, {
    // DPoP (RFC 9449) when the issuer takes it: a key of this one request, never the holder key, so that the
    // access token is useless to whoever intercepts it and issuers cannot link requests by it.
    dpopKey: await createHolderKey(),
    ...(options.txCode !== undefined ? { txCode: options.txCode } : {}),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
  });
}

/**
 * Redeems an SD-JWT VC configuration (@cp/holder: token by the grant `redeem` says, nonce, key proofs, credentials
 * bound to the vault's key and, in a batch, to a fresh key per further instance), then verifies each credential
 * against the issuer the wallet trusts, reads its status and stores it: a batch as ONE credential with its
 * instances (each with its key, in the encrypted record), presented a fresh one at a time.
 */
export async function receiveSdJwtVc(
  resolved: ResolvedOffer,
  issuance: Issuance,
  vault: WalletVault,
  redeem: Omit<RequestCredentialOptions, 'key' | 'createKey'>,
): Promise<StoredCredential> {
  const holder = vault.holder();
  const { keys: batchKeys, createKey } = batchKeyMaker();
  const { credential: raw, instances: received } = await withHolder('ISSUER_ERROR', (context) =>
    requestCredential(issuance, { ...redeem, key: holder, createKey }, context),
  );
  const vct = str(issuance.configuration.vct);
  const trust = await loadPlatformTrust();
  const stored = await storedCredentialFrom(raw, {
    issuer: resolved.issuer,
    display: resolved.display,
    claimDisplay: resolved.claimDisplay,
    holderJwk: holder.publicJwk,
    ...(vct ? { vct } : {}),
    trust,
  });
  const instances = await batchInstances(received.slice(1), batchKeys, async (credential, pair) => {
    const { claims, payload } = await verifyIssuedCredential(credential, {
      holderJwk: pair.publicJwk,
      credentialIssuer: stored.issuer.id,
      vct: stored.vct,
      trust,
    });
    const reference = (payload.status as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list;
    return {
      sameAsFirst: JSON.stringify(sorted(claims)) === JSON.stringify(sorted(stored.claims)),
      ...(reference && typeof reference.idx === 'number' && typeof reference.uri === 'string'
        ? { statusReference: { uri: reference.uri, idx: reference.idx } }
        : {}),
    };
  });
  const lastStatus = await checkStatus(stored, { trust });
  // lastCheckedAt: when a status was last answered (none yet when the list could not be read).
  const saved: StoredCredential = {
    ...stored,
    lastStatus,
    ...(lastStatus !== 'UNKNOWN' ? { lastCheckedAt: new Date().toISOString() } : {}),
    ...(instances.length > 0
      ? {
          instances: [
            { raw, ...(stored.statusReference ? { statusReference: stored.statusReference } : {}) },
            ...instances,
          ],
        }
      : {}),
  };
  await vault.saveCredential(saved);
  return saved;
}

/**
 * Redeems the offer's mdoc configuration (core/mdoc.ts, loaded now: @owf/mdoc is for the holders who choose an mdoc),
 * verifies it, reads its status (the MSO's status list entry) and stores it with its format: a batch as ONE
 * credential with its instances (each with its key), as for an SD-JWT VC.
 */
/** Receives the mdoc configuration of an offer (pre-authorized, or with `authorizationResponse` the code flow's end). */
export async function acceptMdoc(
  resolved: ResolvedOffer,
  issuance: Issuance,
  vault: WalletVault,
  {
    txCode,
    batchSize,
    dpopKey,
    authorizationResponse,
  }: Pick<RequestCredentialOptions, 'txCode' | 'batchSize' | 'dpopKey' | 'authorizationResponse'>,
): Promise<StoredCredential> {
  const { receiveMdoc } = await import('./mdoc.ts');
  const trust = await loadPlatformTrust();
  // The mdoc configuration's own display and labels, in the holder's language; the offer's labels when it has none.
  const own = configurationDisplay(issuance, (resolved as ResolvedOfferWithSession).locale ?? 'en', 'mso_mdoc');
  const stored = await receiveMdoc(issuance, vault.holder(), {
    issuer: resolved.issuer,
    display: own.display,
    claimDisplay: own.claimDisplay.length > 0 ? own.claimDisplay : resolved.claimDisplay,
    trust,
    ...(txCode !== undefined ? { txCode } : {}),
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...(dpopKey ? { dpopKey } : {}),
    ...(authorizationResponse ? { authorizationResponse } : {}),
  });
  const lastStatus = await checkStatus(stored, { trust });
  const saved: StoredCredential = {
    ...stored,
    lastStatus,
    ...(lastStatus !== 'UNKNOWN' ? { lastCheckedAt: new Date().toISOString() } : {}),
  };
  await vault.saveCredential(saved);
  return saved;
}

const sorted = (claims: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(claims).sort(([a], [b]) => a.localeCompare(b)));
