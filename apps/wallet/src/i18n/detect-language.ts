/** Languages the wallet is translated into. */
export const WALLET_LANGUAGES = ['en', 'ja', 'es', 'ko'] as const;
export type WalletLanguage = (typeof WALLET_LANGUAGES)[number];
/** localStorage key of the language chosen in Settings. */
export const LANG_STORAGE_KEY = 'wallet.lang';

/** BCP 47-like tag; anything else (markup, quotes…) is ignored. */
const TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

export function toWalletLanguage(value: string | null | undefined): WalletLanguage | null {
  if (!value || value.length > 35 || !TAG.test(value)) return null;
  const base = value.split('-')[0]?.toLowerCase();
  return WALLET_LANGUAGES.find((language) => language === base) ?? null;
}

/** `?lang`, then the stored choice, then the browser's languages, then English. */
export function pickLanguage(search: string, browser: readonly string[], stored: string | null = null): WalletLanguage {
  for (const candidate of [new URLSearchParams(search).get('lang'), stored, ...browser]) {
    const language = toWalletLanguage(candidate);
    if (language) return language;
  }
  return 'en';
}
