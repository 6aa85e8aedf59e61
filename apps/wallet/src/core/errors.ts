import type { RemoteError } from './types.ts';

/**
 * The wallet core's errors: a stable `code` that the screens translate (`errors.<code>` in every language) and
 * compare against these constants (`code === WalletErrorCode.PIN_WRONG`), and an English `message` for logs.
 */
export const WalletErrorCode = {
  /** The link, QR code or JSON is not a credential offer this wallet understands. */
  OFFER_INVALID: 'OFFER_INVALID',
  /** The offer only supports a flow this wallet does not (authorization code, deferred issuance…). */
  OFFER_UNSUPPORTED: 'OFFER_UNSUPPORTED',
  /** The offer was used, withdrawn or has expired. */
  OFFER_EXPIRED: 'OFFER_EXPIRED',
  /** The offer needs the PIN (tx_code) and none was given. */
  PIN_REQUIRED: 'PIN_REQUIRED',
  /** The PIN (tx_code) is wrong. */
  PIN_WRONG: 'PIN_WRONG',
  /** The issuer's metadata or endpoints cannot be reached or make no sense. */
  ISSUER_UNREACHABLE: 'ISSUER_UNREACHABLE',
  /** The issuer refused the request (an OAuth / OpenID4VCI error other than the ones above). */
  ISSUER_ERROR: 'ISSUER_ERROR',
  /** The issued credential does not verify (signature, holder binding, type…). */
  CREDENTIAL_INVALID: 'CREDENTIAL_INVALID',
  /** The presentation request is malformed or asks for something unsupported. */
  REQUEST_INVALID: 'REQUEST_INVALID',
  /** The presentation request's client identifier does not check out (certificate, DID, response URI). */
  REQUEST_UNTRUSTED: 'REQUEST_UNTRUSTED',
  /** The presentation request is not signed by the key its client identifier names. */
  REQUEST_SIGNATURE_INVALID: 'REQUEST_SIGNATURE_INVALID',
  /** The presentation request has expired or was already answered. */
  REQUEST_EXPIRED: 'REQUEST_EXPIRED',
  /** The credentials chosen do not answer the request (a required credential is missing). */
  NO_MATCHING_CREDENTIAL: 'NO_MATCHING_CREDENTIAL',
  /** The verifier refused the answer. */
  VERIFIER_ERROR: 'VERIFIER_ERROR',
  /** The backup file is not a wallet backup. */
  BACKUP_INVALID: 'BACKUP_INVALID',
  /** The vault must be unlocked first. */
  LOCKED: 'LOCKED',
  /** The vault already exists (create) or does not exist yet (unlock). */
  VAULT_STATE: 'VAULT_STATE',
  /** No connection, or the server did not answer. */
  NETWORK: 'NETWORK',
  /** The issuer sent the browser back without a pending request of this tab, or after it expired (10 min). */
  AUTHORIZATION_EXPIRED: 'AUTHORIZATION_EXPIRED',
  /** The issuer's answer is not for the request this wallet made (`state`): nothing is redeemed. */
  AUTHORIZATION_STATE_MISMATCH: 'AUTHORIZATION_STATE_MISMATCH',
  /** The holder (or the issuer) declined at the issuer's page (`access_denied`). */
  AUTHORIZATION_DENIED: 'AUTHORIZATION_DENIED',
} as const;
export type WalletErrorCode = (typeof WalletErrorCode)[keyof typeof WalletErrorCode];

export class WalletError extends Error {
  constructor(
    readonly code: WalletErrorCode,
    message: string = code,
    /** The remote party's error (`error` / `error_description`) when there was one. */
    readonly detail?: string,
    /** The same, as the remote party sent it, for screens that show its words. */
    readonly remote?: RemoteError,
  ) {
    super(message);
    this.name = 'WalletError';
  }
}

export const isWalletError = (err: unknown): err is WalletError => err instanceof WalletError;

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
