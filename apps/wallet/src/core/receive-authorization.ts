import { generateEs256KeyPair, signerFromPrivateJwk } from '@cp/credentials';
import {
  type HolderKey,
  type Issuance,
  issuerSupportsDpop,
  type PendingAuthorization,
  resolveIssuerMetadata,
  resolveWalletInitiatedIssuance,
  startAuthorizationCodeFlow,
} from '@cp/holder';
import { WalletError } from './errors.ts';
import { withHolder } from './holder.ts';
import { isObject } from './http.ts';
import {
  acceptMdoc,
  configurationDisplay,
  issuanceIn,
  issuerInfo,
  type ResolvedOfferWithSession,
  receiveSdJwtVc,
} from './receive.ts';
import type {
  CredentialDisplay,
  CredentialFormat,
  IssuerInfo,
  ResolvedOffer,
  StoredCredential,
  WalletVault,
} from './types.ts';

/**
 * Receiving through the authorization code flow (OpenID4VCI 1.0 §5 with PAR, RFC 9126, and PKCE S256, RFC 7636)
 * in a web page: the wallet pushes the request, then navigates this tab to the issuer's authorization page, and
 * the issuer sends the browser back to `/receive/callback` with `code` and `state`. Everything the second half
 * needs (PKCE verifier, state, DPoP key, issuer metadata, the offer and how it is shown) is kept in this tab's
 * sessionStorage meanwhile: never in a URL, used once (removed as soon as a callback reads it, whatever it says),
 * and refused after PENDING_TTL_MS. A callback whose `state` is not the pending request's redeems nothing.
 */

/** sessionStorage key of the one pending request of this tab. */
export const PENDING_AUTHORIZATION_KEY = 'cp-wallet.pending-authorization';
/** As long as the issuer's own browser flow (10 min): after that the request is dead at the issuer too. */
export const PENDING_TTL_MS = 10 * 60 * 1000;
/** The wallet's route the issuer sends the browser back to. */
export const CALLBACK_PATH = '/receive/callback';

/** The storage the pending request is kept in (sessionStorage; tests pass their own). */
export type PendingStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

interface PendingReceive {
  version: 1;
  createdAt: number;
  authorization: PendingAuthorization;
  /** The DPoP key of the PAR (the code is bound to it), when the issuer takes DPoP. */
  dpopKey?: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
  /** The offer (or, wallet-initiated, the configuration) and the issuer's metadata, as resolved. */
  issuance: Issuance;
  /** How it was shown (issuer, display, claim labels): what the stored credential keeps. */
  resolved: ResolvedOffer;
  /** The format asked for (absent in requests written before mdocs: SD-JWT VC). */
  format?: CredentialFormat;
}

const defaultStorage = (): PendingStorage => {
  const storage = globalThis.sessionStorage;
  if (!storage) throw new WalletError('VAULT_STATE', 'This browser keeps no session storage');
  return storage;
};

/** Where the issuer sends the browser back: this wallet's callback route, on the origin it is served from. */
export function callbackUrl(): string {
  return new URL(CALLBACK_PATH, globalThis.location.href).href;
}

/**
 * Starts the authorization code flow for a resolved offer (its `authorizationCode` grant) or a wallet-initiated
 * issuance (resolveIssuerConfiguration): PAR with PKCE (and a DPoP proof when the issuer takes DPoP), the pending
 * request kept in this tab. Answers the issuer's authorization URL: the caller navigates this tab to it.
 */
export async function startAuthorizedReceive(
  resolved: ResolvedOffer,
  options: { format?: CredentialFormat; redirectUri?: string; storage?: PendingStorage; now?: number } = {},
): Promise<string> {
  const session = (resolved as Partial<ResolvedOfferWithSession>).session;
  if (!session) throw new WalletError('OFFER_INVALID', 'Resolve the offer first');
  if (!resolved.authorizationCode) {
    throw new WalletError('OFFER_UNSUPPORTED', 'The offer has no authorization code grant');
  }
  // The format chosen on the offer screen; wallet-initiated, the chosen configuration's.
  const format = options.format ?? resolved.formats?.[0] ?? 'dc+sd-jwt';
  const issuance = issuanceIn(session, format);
  if (!issuance) throw new WalletError('OFFER_UNSUPPORTED', 'The offer has no credential in this format');
  const storage = options.storage ?? defaultStorage();
  const dpopPair = issuerSupportsDpop(issuance) ? await generateEs256KeyPair() : undefined;
  const dpop = dpopPair ? { key: await keyOf(dpopPair) } : undefined;
  const authorization = await withHolder('ISSUER_ERROR', (context) =>
    startAuthorizationCodeFlow(
      issuance,
      { redirectUri: options.redirectUri ?? callbackUrl(), ...(dpop ? { dpop } : {}) },
      context,
    ),
  );
  const { session: _session, ...shown } = resolved as ResolvedOfferWithSession;
  const pending: PendingReceive = {
    version: 1,
    createdAt: options.now ?? Date.now(),
    authorization,
    ...(dpopPair ? { dpopKey: dpopPair } : {}),
    issuance,
    resolved: shown,
    format,
  };
  storage.setItem(PENDING_AUTHORIZATION_KEY, JSON.stringify(pending));
  return authorization.authorizationRequestUrl;
}

async function keyOf(pair: { privateJwk: JsonWebKey; publicJwk: JsonWebKey }): Promise<HolderKey> {
  return { signer: await signerFromPrivateJwk(pair.privateJwk), publicJwk: pair.publicJwk };
}

/** Takes the pending request out of the storage (single use), if it is one this wallet wrote. */
function takePending(storage: PendingStorage): PendingReceive | undefined {
  const text = storage.getItem(PENDING_AUTHORIZATION_KEY);
  storage.removeItem(PENDING_AUTHORIZATION_KEY);
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value) || value.version !== 1 || typeof value.createdAt !== 'number') return undefined;
    return value as unknown as PendingReceive;
  } catch {
    return undefined;
  }
}

/** Whether this tab has a pending request the issuer may still send the browser back for. */
export function hasPendingAuthorization(storage: PendingStorage = defaultStorage()): boolean {
  return storage.getItem(PENDING_AUTHORIZATION_KEY) !== null;
}

/**
 * The second half, on the wallet's callback route: the pending request (once), then the issuer's answer: an
 * `error` (`access_denied`: the holder declined), or a `code` whose `state` must be the pending request's. Then
 * exactly as a pre-authorized offer: token (PKCE verifier, DPoP key of the PAR), nonce, key proofs (a batch when
 * the issuer issues them), the credential verified against the issuer the wallet trusts, its status, the vault.
 */
export async function completeAuthorizedReceive(
  callback: string,
  vault: WalletVault,
  options: { storage?: PendingStorage; now?: number } = {},
): Promise<StoredCredential> {
  const pending = takePending(options.storage ?? defaultStorage());
  if (!pending) throw new WalletError('AUTHORIZATION_EXPIRED', 'No authorization request is pending in this tab');
  if ((options.now ?? Date.now()) - pending.createdAt > PENDING_TTL_MS) {
    throw new WalletError('AUTHORIZATION_EXPIRED', 'The authorization request has expired');
  }
  const params = new URL(callback).searchParams;
  const error = params.get('error');
  if (error) {
    const description = params.get('error_description')?.slice(0, 300) || undefined;
    const remote = { error: error.slice(0, 100), ...(description ? { description } : {}) };
    throw new WalletError(
      error === 'access_denied' ? 'AUTHORIZATION_DENIED' : 'ISSUER_ERROR',
      `The issuer answered ${remote.error}`,
      description ? `${remote.error}: ${description}` : remote.error,
      remote,
    );
  }
  // RFC 6749 §10.12: an answer to a request this tab did not make (another tab, an attacker's link) is refused.
  if (params.get('state') !== pending.authorization.state) {
    throw new WalletError('AUTHORIZATION_STATE_MISMATCH', 'The answer is not for the request this wallet made');
  }
  const dpopKey = pending.dpopKey ? await keyOf(pending.dpopKey) : undefined;
  const resolved: ResolvedOfferWithSession = { ...pending.resolved, session: pending.issuance };
  const redemption = {
    ...(dpopKey ? { dpopKey } : {}),
    authorizationResponse: { pending: pending.authorization, redirectUrl: callback },
  };
  return pending.format === 'mso_mdoc'
    ? acceptMdoc(resolved, pending.issuance, vault, redemption)
    : receiveSdJwtVc(resolved, pending.issuance, vault, redemption);
}

// ---- Wallet-initiated issuance -----------------------------------------------------------------------

/** A credential an issuer describes, as the holder chooses among them. */
export interface IssuerConfiguration {
  id: string;
  display: CredentialDisplay;
  claimDisplay: ResolvedOffer['claimDisplay'];
  format: CredentialFormat;
}

/** An issuer as the wallet-initiated screen shows it: who it is and what it issues (SD-JWT VCs and mdocs). */
export interface ResolvedIssuer {
  credentialIssuer: string;
  issuer: IssuerInfo;
  configurations: IssuerConfiguration[];
}

const SD_JWT_FORMATS = new Set(['dc+sd-jwt', 'vc+sd-jwt']);
const formatOf = (value: unknown): CredentialFormat | undefined =>
  SD_JWT_FORMATS.has(String(value)) ? 'dc+sd-jwt' : value === 'mso_mdoc' ? 'mso_mdoc' : undefined;

/** Reads an issuer's metadata (OpenID4VCI 1.0 §12.2) and the credentials it issues, shown in `locale`. */
export async function resolveIssuer(credentialIssuer: string, locale: string): Promise<ResolvedIssuer> {
  let url: URL;
  try {
    url = new URL(credentialIssuer.trim());
  } catch {
    throw new WalletError('ISSUER_UNREACHABLE', 'This is not an issuer address');
  }
  const address = url.href.replace(/\/$/, '');
  const metadata = await withHolder('ISSUER_UNREACHABLE', (context) => resolveIssuerMetadata(address, context));
  const issuerId = metadata.credentialIssuer.credential_issuer;
  const described = metadata.credentialIssuer.credential_configurations_supported as Record<string, unknown>;
  const configurations = Object.entries(described).flatMap(([id, configuration]) => {
    if (!isObject(configuration)) return [];
    const format = formatOf(configuration.format);
    if (!format) return [];
    return [{ id, format, ...configurationDisplay({ configuration, configurationId: id }, locale, format) }];
  });
  if (configurations.length === 0) {
    throw new WalletError('OFFER_UNSUPPORTED', 'The issuer issues no credential this wallet can receive');
  }
  const issuer = await issuerInfo(issuerId, metadata.credentialIssuer as Record<string, unknown>, locale);
  return { credentialIssuer: issuerId, issuer, configurations };
}

/**
 * One of the issuer's configurations as an offer only the authorization code flow redeems (@cp/holder's
 * resolveWalletInitiatedIssuance): startAuthorizedReceive then sends the holder to the issuer's page, where the
 * issuer finds out who they are (this platform: the recipient's e-mail address and a one-time code).
 */
export async function resolveIssuerConfiguration(
  resolvedIssuer: ResolvedIssuer,
  configurationId: string,
): Promise<ResolvedOfferWithSession> {
  const configuration = resolvedIssuer.configurations.find((candidate) => candidate.id === configurationId);
  if (!configuration) throw new WalletError('OFFER_INVALID', 'The issuer does not describe this credential');
  const session = await withHolder('ISSUER_UNREACHABLE', (context) =>
    resolveWalletInitiatedIssuance(resolvedIssuer.credentialIssuer, configurationId, context),
  );
  return {
    credentialIssuer: resolvedIssuer.credentialIssuer,
    issuer: resolvedIssuer.issuer,
    configurationId,
    display: configuration.display,
    claimDisplay: configuration.claimDisplay,
    formats: [configuration.format],
    authorizationCode: 'required',
    session,
  };
}
