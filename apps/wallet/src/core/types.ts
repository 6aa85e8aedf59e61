import type { DcqlQuery, JwsSigner } from '@cp/credentials';
import type { CoseSigner } from '@cp/credentials/mdoc';

/**
 * The wallet core's contract between its protocol/storage code (src/core) and its screens.
 * Everything here runs in the browser (WebCrypto, IndexedDB, fetch) and in tests (jsdom + fake-indexeddb).
 */

export type Locale = 'en' | 'ja' | 'es' | 'ko';

/** Minutes an opened wallet stays open without activity (0: it locks whenever the page is left). */
export type LockAfterMinutes = 0 | 1 | 5 | 15;
/** Display texts by locale, with an `undefined`-safe fallback chosen by `pickDisplay`. */
export type LocalizedText = Partial<Record<string, string>>;

export interface IssuerInfo {
  /** `credential_issuer` (OpenID4VCI) or the SD-JWT `iss`. */
  id: string;
  name: LocalizedText;
  logoUri?: string;
  /** The platform's KYB decision when the issuer publishes it (JWT VC Issuer Metadata `organization.verified`). */
  verifiedOrganization?: boolean;
  /** How the issuer key was established: x5c chain, JWT VC Issuer Metadata or a DID. */
  keySource?: 'x5c' | 'metadata' | 'did';
  /** Who vouches for the issuer's key (absent: not established yet, e.g. a credential stored by an older wallet). */
  assurance?: IssuerAssurance;
}

/**
 * How sure the wallet is that the key speaks for the issuer, from the binding bindIssuerKey established:
 * - `platform`: an `x5c` path ending at the certificate authority of the platform that serves this wallet;
 * - `anchor`: an `x5c` path ending at one of the platform-wide trust anchors;
 * - `self`: only the issuer vouches for its key (its DID document, its JWT VC Issuer Metadata, or a
 *   certificate chain no anchor the wallet knows vouches for).
 */
export interface IssuerAssurance {
  level: 'platform' | 'anchor' | 'self';
  /** `platform`: the platform's host; `anchor`: the anchor's common name; `self`: the issuer's host or DID. */
  by: string;
  source: 'x5c' | 'metadata' | 'did';
  /**
   * The platform's anchors could not all be read when this was decided, so an unanchored chain may yet be
   * certified: decided again the next time the credential is checked.
   */
  provisional?: boolean;
  checkedAt: string;
}

export interface CredentialDisplay {
  name: LocalizedText;
  description?: LocalizedText;
  backgroundColor?: string;
  textColor?: string;
  logoUri?: string;
}

export interface ClaimDisplay {
  /** Top-level claim name. */
  name: string;
  label: LocalizedText;
}

export type CredentialStatus = 'VALID' | 'REVOKED' | 'SUSPENDED' | 'EXPIRED' | 'UNKNOWN';

export type CredentialFormat = 'dc+sd-jwt' | 'mso_mdoc';

export interface StoredCredential {
  id: string;
  format: CredentialFormat;
  /** The SD-JWT VC as issued (issuer JWT + every disclosure), or the mdoc's IssuerSigned (base64url CBOR). */
  raw: string;
  /** The credential's type: an SD-JWT VC's `vct`, an mdoc's doctype. */
  vct: string;
  issuer: IssuerInfo;
  display: CredentialDisplay;
  claimDisplay: ClaimDisplay[];
  /** Every disclosable claim, decoded (an mdoc: its elements by identifier, across its namespaces). */
  claims: Record<string, unknown>;
  /** An mdoc (`format: mso_mdoc`): what DCQL matches and the status check needs. */
  mdoc?: MdocDetails;
  issuedAt?: string;
  expiresAt?: string;
  statusReference?: { uri: string; idx: number };
  lastStatus: CredentialStatus;
  lastCheckedAt?: string;
  receivedAt: string;
  /**
   * A batch (OpenID4VCI 1.0 §8.2 `proofs`, HAIP 1.0): every instance of this one credential, the first being
   * `raw` (bound to the vault's holder key). Each is bound to a key of its own with a status entry of its own,
   * so that each presentation can use a fresh one (chooseInstance). Absent: one instance, `raw`.
   */
  instances?: CredentialInstance[];
}

/** What the wallet keeps of an mdoc besides its flattened claims. */
export interface MdocDetails {
  docType: string;
  /** Every element by namespace then identifier (dates as ISO 8601 text), as DCQL paths address them. */
  namespaces: Record<string, Record<string, unknown>>;
  /** The issuer's x5chain, leaf first (base64 DER): the key its issuerAuth verified with on receipt. */
  x5chain: string[];
}

/** One instance of a credential issued as a batch. Its private key is stored with it, in the encrypted record. */
export interface CredentialInstance {
  raw: string;
  /** The key it is bound to; absent: the vault's holder key (the first instance). */
  key?: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
  statusReference?: { uri: string; idx: number };
  /** When it was last presented (absent: never). */
  usedAt?: string;
}

export interface PresentationRecord {
  id: string;
  at: string;
  verifier: { name: string; clientId: string; logoUri?: string };
  credentialId: string;
  credentialName: LocalizedText;
  sharedClaims: string[];
  outcome: 'SENT' | 'ERROR' | 'DECLINED';
  detail?: string;
  /** The verifier's own refusal (its `error` and `error_description`), when it refused the answer. */
  refusal?: RemoteError;
  /**
   * Which instance of a batch credential was presented (0-based, of `count`); `reused`: every instance had been
   * presented before, so this one (the least recently used) may be linked to an earlier presentation.
   */
  instance?: { index: number; count: number; reused: boolean };
}

/** An OAuth-style error answered by the other party (`error`, `error_description`). */
export interface RemoteError {
  error: string;
  description?: string;
}

/** The encrypted local store (IndexedDB): holder key and credentials never stored in clear. */
export interface WalletVault {
  isInitialized(): Promise<boolean>;
  /** First use: makes the holder key (P-256) and the data key, protected by the passcode. */
  create(passcode: string): Promise<void>;
  unlock(passcode: string): Promise<boolean>;
  /**
   * Opens the wallet from the session a reload or another tab of this browser left, if it is younger than the
   * lock setting (since the last activity); false: the passcode is needed.
   */
  resume(): Promise<boolean>;
  /** The user did something: the session lives on from now. False (and locked): it had expired or was locked. */
  recordActivity(): Promise<boolean>;
  /** Still open? False (and locked) once the session expired or another tab locked the wallet. */
  checkSession(): Promise<boolean>;
  /**
   * Locks now: the key leaves memory at once and, `everywhere` (the default), the stored session is deleted, so
   * every tab locks; `here`: this tab only (another tab locked already).
   */
  lock(scope?: 'everywhere' | 'here'): Promise<void>;
  isUnlocked(): boolean;
  /** Minutes without activity before the wallet locks (0: whenever it is left). */
  getLockAfter(): Promise<LockAfterMinutes>;
  setLockAfter(minutes: LockAfterMinutes): Promise<void>;
  /** The holder key (unlocked only): its JWS signer, and its COSE signer for an mdoc's device signature. */
  holder(): { signer: JwsSigner; publicJwk: JsonWebKey; cose: CoseSigner };
  listCredentials(): Promise<StoredCredential[]>;
  getCredential(id: string): Promise<StoredCredential | undefined>;
  saveCredential(credential: StoredCredential): Promise<void>;
  deleteCredential(id: string): Promise<void>;
  addPresentation(record: PresentationRecord): Promise<void>;
  listPresentations(): Promise<PresentationRecord[]>;
  /** One file with every credential, the history and the holder key, encrypted with the passphrase. */
  exportBackup(passphrase: string): Promise<string>;
  /** Replaces this wallet's content with the backup's; the current passcode stays. False: wrong passphrase. */
  importBackup(file: string, passphrase: string): Promise<boolean>;
  /** Deletes everything (reset). */
  destroy(): Promise<void>;
}

export interface ResolvedOffer {
  credentialIssuer: string;
  issuer: IssuerInfo;
  configurationId: string;
  display: CredentialDisplay;
  claimDisplay: ClaimDisplay[];
  /** Present when the offer needs a PIN (OpenID4VCI tx_code). */
  txCode?: { length?: number; inputMode?: 'numeric' | 'text'; description?: string };
  /**
   * The formats the offer can be redeemed in, this wallet's default (SD-JWT VC) first; two when the issuer also
   * offers the credential as an ISO mdoc (`mso_mdoc`), so the holder may choose (absent: SD-JWT VC only).
   */
  formats?: CredentialFormat[];
  /**
   * The offer carries the authorization code grant (OpenID4VCI 1.0 §4.1.1, `issuer_state`): `possible` next to a
   * pre-authorized code, `required` without one (then only the issuer's page leads to the credential). Absent: the
   * pre-authorized code only. A wallet-initiated issuance (no offer) is `required` too.
   */
  authorizationCode?: 'possible' | 'required';
}

export interface ResolvedPresentationRequest {
  clientId: string;
  clientIdScheme: 'x509_hash' | 'x509_san_dns' | 'decentralized_identifier' | 'redirect_uri';
  verifier: { name: string; logoUri?: string; certificateSubject?: string };
  dcql: DcqlQuery;
  nonce: string;
  state?: string;
  responseUri: string;
  responseMode: 'direct_post' | 'direct_post.jwt';
}

export interface PresentationCandidate {
  queryId: string;
  credential: StoredCredential;
  /** Exactly the claims that will be shared (an mdoc: its element identifiers). */
  disclose: string[];
  /** An mdoc: the elements to share as DCQL paths `[namespace, element]` (OpenID4VP 1.0 §7.2). */
  paths?: (string | number | null)[][];
}

/** One DCQL credential query (OpenID4VP 1.0 §6.1) and the stored credentials that answer it. */
export interface RequestedCredential {
  queryId: string;
  /** Usable ones first (see `isUsable`); empty when nothing held answers the query. */
  candidates: PresentationCandidate[];
  /** The accepted `vct` values, or an mdoc query's `doctype_value` (empty: any type). */
  vctValues: string[];
  /** Every top-level claim the query names (all `claim_sets` alternatives), to say what is missing. */
  claimNames: string[];
  /** `multiple`: the verifier would take several; this wallet answers with one. */
  multiple: boolean;
}

/** One Credential Set Query (OpenID4VP 1.0 §6.2), or, without `credential_sets`, every query as one required set. */
export interface RequestedCredentialSet {
  /** `required` (default true); an optional set may be left out. */
  required: boolean;
  /** Alternatives in the verifier's order: each lists query ids answered together. */
  options: { queryIds: string[]; isSatisfiable: boolean }[];
}

/** What a request asks for and what this wallet can answer with (`planPresentation`). */
export interface PresentationPlan {
  /** Every credential query some option refers to, in the query's order. */
  credentials: RequestedCredential[];
  sets: RequestedCredentialSet[];
  /** Every required set has an option whose every query has a candidate. */
  canShare: boolean;
  /** The query ids without any candidate that leave a required set unanswerable. */
  missing: string[];
}

/** The holder's choice on the consent screen. */
export interface PresentationChoice {
  /** Per set of the plan (same order): the chosen option's index, or null to leave an optional set out. */
  options: (number | null)[];
  /** Per query id: the chosen credential's id (the first candidate otherwise). */
  credentials: Record<string, string>;
}
