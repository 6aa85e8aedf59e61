import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANG_STORAGE_KEY, pickLanguage, toWalletLanguage, type WalletLanguage } from './detect-language.ts';
import { messages } from './messages.ts';

function readStored(): string | null {
  try {
    return window.localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    return null;
  }
}

function persist(language: WalletLanguage): void {
  try {
    window.localStorage.setItem(LANG_STORAGE_KEY, language);
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this page only.
  }
}

function applyDocumentLanguage(language: WalletLanguage): void {
  document.documentElement.lang = language;
  document.title = i18n.t('app.name');
}

export const i18n = i18next.createInstance();
const initialLanguage = pickLanguage(
  window.location.search,
  window.navigator.languages ?? [window.navigator.language],
  readStored(),
);
// A valid ?lang= becomes the stored choice, so it survives navigation and the next visit.
if (toWalletLanguage(new URLSearchParams(window.location.search).get('lang'))) persist(initialLanguage);
void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: messages.en },
    ja: { translation: messages.ja },
    es: { translation: messages.es },
    ko: { translation: messages.ko },
  },
  lng: initialLanguage,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initAsync: false,
});
applyDocumentLanguage(initialLanguage);

/** Switches the language from Settings and remembers the choice on this device. */
export async function changeLanguage(value: string): Promise<void> {
  const language = toWalletLanguage(value);
  if (!language) return;
  persist(language);
  await i18n.changeLanguage(language);
  applyDocumentLanguage(language);
}

/** The current language as one of the wallet's (i18next may report a fallback chain). */
export const currentLanguage = (): WalletLanguage => toWalletLanguage(i18n.language) ?? 'en';

export { WALLET_LANGUAGES, type WalletLanguage } from './detect-language.ts';
