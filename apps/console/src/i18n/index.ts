import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  applyDocumentLanguage,
  DEFAULT_LANGUAGE,
  detectLanguage,
  LANG_STORAGE_KEY,
  type SupportedLanguage,
  toSupportedLanguage,
} from './detect-language.ts';
import { messages } from './messages.ts';

export const resources = {
  en: { translation: messages.en },
  ja: { translation: messages.ja },
  es: { translation: messages.es },
  ko: { translation: messages.ko },
} as const;

function readStored(): string | null {
  try {
    return window.localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    return null;
  }
}

function persist(language: SupportedLanguage): void {
  try {
    window.localStorage.setItem(LANG_STORAGE_KEY, language);
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this page only.
  }
}

const initialLanguage = detectLanguage({
  search: window.location.search,
  stored: readStored(),
  browser: window.navigator.languages ?? [window.navigator.language],
});
// A valid ?lang= becomes the stored choice, so it survives the sign-in round trip.
if (toSupportedLanguage(new URLSearchParams(window.location.search).get('lang'))) persist(initialLanguage);

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage,
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  initAsync: false,
});
applyDocumentLanguage(initialLanguage, document, i18n.t('app.name'));

/** Switches the language, stores the choice and updates `<html lang dir>`. */
export async function changeLanguage(value: string): Promise<void> {
  const language = toSupportedLanguage(value);
  if (!language) return;
  persist(language);
  await i18n.changeLanguage(language);
  applyDocumentLanguage(language, document, i18n.t('app.name'));
}

export { SUPPORTED_LANGUAGES, type SupportedLanguage } from './detect-language.ts';
