import type { TFunction } from 'i18next';

const KNOWN_CODES = new Set([
  'OFFER_INVALID',
  'OFFER_UNSUPPORTED',
  'OFFER_EXPIRED',
  'PIN_REQUIRED',
  'PIN_WRONG',
  'ISSUER_UNREACHABLE',
  'ISSUER_ERROR',
  'CREDENTIAL_INVALID',
  'REQUEST_INVALID',
  'REQUEST_UNTRUSTED',
  'REQUEST_SIGNATURE_INVALID',
  'REQUEST_EXPIRED',
  'VERIFIER_ERROR',
  'NO_MATCHING_CREDENTIAL',
  'BACKUP_INVALID',
  'LOCKED',
  'VAULT_STATE',
  'NETWORK',
]);

/** The core's error code (`WalletError.code`), `NETWORK` for a failed fetch, otherwise `UNKNOWN`. */
export function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    if (KNOWN_CODES.has(error.code)) return error.code;
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) return 'NETWORK';
  return 'UNKNOWN';
}

/** The translated message for a failure: never the raw error text. */
export function errorMessage(t: TFunction, error: unknown): string {
  if (!(error && typeof error === 'object' && 'code' in error)) console.error(error);
  return t(`errors.${errorCode(error)}`);
}
