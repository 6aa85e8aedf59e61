/** Languages the console is translated into (spec §9). */
export const SUPPORTED_LANGUAGES = ['en', 'ja', 'es', 'ko'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: SupportedLanguage = 'en';
/** localStorage key of the chosen language. */
export const LANG_STORAGE_KEY = 'lang';
/** Spec §9: right-to-left scripts. */
export const RTL_LANGUAGES = ['ar', 'he', 'fa', 'ur'];

/** BCP 47-like tag; anything else (markup, quotes, `javascript:` …) is treated as an injection attempt. */
const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** Returns the tag when it is a plausible language tag, otherwise null (spec §5: reject script injection). */
export function sanitizeLanguageTag(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > 35) return null;
  return LANGUAGE_TAG.test(trimmed) ? trimmed : null;
}

/** Maps a language tag to a supported language (`ja-JP` → `ja`), or null. */
export function toSupportedLanguage(value: string | null | undefined): SupportedLanguage | null {
  const tag = sanitizeLanguageTag(value);
  if (!tag) return null;
  const base = tag.split('-')[0]?.toLowerCase();
  return SUPPORTED_LANGUAGES.find((language) => language === base) ?? null;
}

export interface LanguageSources {
  /** `location.search`, read for `?lang=`. */
  search: string;
  /** The stored choice (localStorage `lang`). */
  stored: string | null;
  /** `navigator.languages`, most preferred first. */
  browser: readonly string[];
}

/** Spec §9: `?lang`, then the stored language, then the browser's languages, then English. */
export function detectLanguage({ search, stored, browser }: LanguageSources): SupportedLanguage {
  const fromQuery = new URLSearchParams(search).get('lang');
  const candidates = [fromQuery, stored, ...browser];
  for (const candidate of candidates) {
    const language = toSupportedLanguage(candidate);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
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
