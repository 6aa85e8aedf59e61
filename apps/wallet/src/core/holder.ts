import { allowHttpUrls, type HolderContext, isHolderError } from '@cp/holder';
import { errorMessage, WalletError, type WalletErrorCode } from './errors.ts';
import { isLocalHost } from './http.ts';

/**
 * The wallet's one door to @cp/holder, the protocol library it shares with the API tests and the
 * benchmarks: the context every call takes, and the library's errors as the wallet's.
 */

/**
 * Plain http is followed only while the wallet page itself is served over http (development, where the
 * platform runs on http://localhost); a wallet served over https speaks https only.
 */
export const isDevelopmentPage = () => globalThis.location?.protocol === 'http:';

/** The context of one protocol call: the browser's fetch (looked up now: tests replace it), the http policy. */
export function holderContext(): HolderContext {
  allowHttpUrls(isDevelopmentPage());
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    // did:web over http on the developer's own machine only (as for issuer keys, issuerTrustOptions).
    allowHttpDid: isLocalHost,
  };
}

/**
 * A failure of a library call as a WalletError. The library's codes are a subset of the wallet's, with the
 * same meaning (the compiler holds them to it), so code, message and the remote party's words carry over;
 * anything else the library let through (a bug, a key store failure) is `fallback`.
 */
export function walletErrorFrom(err: unknown, fallback: WalletErrorCode): WalletError {
  if (err instanceof WalletError) return err;
  if (isHolderError(err)) return new WalletError(err.code, err.message, err.detail, err.remote);
  return new WalletError(fallback, errorMessage(err));
}

/** Runs a library call in the wallet's context; its failures are WalletErrors (`fallback` for the unexpected). */
export async function withHolder<T>(
  fallback: WalletErrorCode,
  call: (context: HolderContext) => Promise<T>,
): Promise<T> {
  try {
    return await call(holderContext());
  } catch (err) {
    throw walletErrorFrom(err, fallback);
  }
}
