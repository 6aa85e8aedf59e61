import { detectLanguage, LANGUAGES, type Language, toLanguage } from '@cp/contracts/languages';

/** Languages the wallet is translated into: the product's one list. */
export const WALLET_LANGUAGES = LANGUAGES;
export type WalletLanguage = Language;
/** localStorage key of the language chosen in Settings. */
export const LANG_STORAGE_KEY = 'wallet.lang';

export const toWalletLanguage = toLanguage;

/** `?lang`, then the stored choice, then the browser's languages, then English (the shared rule). */
export function pickLanguage(search: string, browser: readonly string[], stored: string | null = null): WalletLanguage {
  return detectLanguage({ query: new URLSearchParams(search).get('lang'), stored, browser });
}
