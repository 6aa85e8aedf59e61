import type { TFunction } from 'i18next';
import { WalletErrorCode } from './core-api.ts';

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(WalletErrorCode));

/** A failure the screens explain: a core error code, or `UNKNOWN` (`errors.<code>` in every language). */
export type ShownErrorCode = WalletErrorCode | 'UNKNOWN';

/** The core's error code (`WalletError.code`), `NETWORK` for a failed fetch, otherwise `UNKNOWN`. */
export function errorCode(error: unknown): ShownErrorCode {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    if (KNOWN_CODES.has(error.code)) return error.code as WalletErrorCode;
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) return WalletErrorCode.NETWORK;
  return 'UNKNOWN';
}

/** The translated message for a failure: never the raw error text. */
export function errorMessage(t: TFunction, error: unknown): string {
  if (!(error && typeof error === 'object' && 'code' in error)) console.error(error);
  return t(`errors.${errorCode(error)}`);
}
