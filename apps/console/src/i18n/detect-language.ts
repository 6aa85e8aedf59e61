import {
  DEFAULT_LANGUAGE,
  detectLanguage as detect,
  LANGUAGES,
  type Language,
  sanitizeLanguageTag,
  toLanguage,
} from '@cp/contracts/languages';

/** Languages the console is translated into (spec §9): the product's one list. */
export const SUPPORTED_LANGUAGES = LANGUAGES;
export type SupportedLanguage = Language;
export { DEFAULT_LANGUAGE, sanitizeLanguageTag };
/** localStorage key of the chosen language. */
export const LANG_STORAGE_KEY = 'lang';
/** Spec §9: right-to-left scripts. */
export const RTL_LANGUAGES = ['ar', 'he', 'fa', 'ur'];

/** Maps a language tag to a supported language (`ja-JP` → `ja`), or null. */
export const toSupportedLanguage = toLanguage;

export interface LanguageSources {
  /** `location.search`, read for `?lang=`. */
  search: string;
  /** The stored choice (localStorage `lang`). */
  stored: string | null;
  /** `navigator.languages`, most preferred first. */
  browser: readonly string[];
}

/** Spec §9: `?lang`, then the stored language, then the browser's languages, then English (the shared rule). */
export function detectLanguage({ search, stored, browser }: LanguageSources): SupportedLanguage {
  return detect({ query: new URLSearchParams(search).get('lang'), stored, browser });
}

export function directionOf(language: string): 'rtl' | 'ltr' {
  const base = language.split('-')[0]?.toLowerCase() ?? '';
  return RTL_LANGUAGES.includes(base) ? 'rtl' : 'ltr';
}

/** Sets `<html lang dir>` for assistive technology, fonts and layout direction. */
export function applyDocumentLanguage(language: string, doc: Document = document, title?: string): void {
  doc.documentElement.lang = language;
  doc.documentElement.dir = directionOf(language);
  if (title) doc.title = title;
}
