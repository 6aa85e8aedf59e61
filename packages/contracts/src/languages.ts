import { acceptedLanguage } from './accept-language.ts';

/**
 * The one list of languages the product speaks (spec §9): the console, the wallet, the account center, the
 * e-mails and the holder-facing pages all take it from here.
 */
export const LANGUAGES = ['en', 'ja', 'es', 'ko'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language in its own words (language pickers). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ja: '日本語', es: 'Español', ko: '한국어' };

/** BCP 47-like tag (`ja-JP`; not the POSIX `ja_JP`). Anything else is ignored, not parsed. */
const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/;

/** The tag, trimmed, when it is a plausible language tag; otherwise null (markup, quotes, `javascript:` …). */
export function sanitizeLanguageTag(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > 35) return null;
  return LANGUAGE_TAG.test(trimmed) ? trimmed : null;
}

/** A language tag as one of the product's languages (`ja-JP` → `ja`, `ES` → `es`), or null. */
export function toLanguage(value: string | null | undefined): Language | null {
  const tag = sanitizeLanguageTag(value);
  if (!tag) return null;
  const base = tag.split('-')[0]!.toLowerCase();
  return LANGUAGES.find((language) => language === base) ?? null;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Where a language choice can come from, strongest first. Each app passes what it has. */
export interface LanguageSources {
  /** An explicit choice in the address (`?lang=`); a query string (`location.search`) or the value. */
  query?: string | null;
  /** The person's stored choice (localStorage, the account's or member's saved locale). */
  stored?: string | null;
  /** An HTTP `Accept-Language` header (servers, e-mails rendered for a request). */
  acceptLanguage?: string | null;
  /** `navigator.languages`, most preferred first (browsers). */
  browser?: readonly string[];
}

/** The language to speak: `?lang`, then the stored choice, then Accept-Language by q-value, then the browser's, then English. */
export function detectLanguage({ query, stored, acceptLanguage, browser = [] }: LanguageSources): Language {
  const fromQuery = query?.startsWith('?') || query?.includes('=') ? new URLSearchParams(query).get('lang') : query;
  for (const candidate of [fromQuery, stored]) {
    const language = toLanguage(candidate);
    if (language) return language;
  }
  const accepted = acceptLanguage ? acceptedLanguage(acceptLanguage, LANGUAGES) : undefined;
  if (accepted) return accepted;
  for (const candidate of browser) {
    const language = toLanguage(candidate);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}
