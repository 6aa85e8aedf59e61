import { describe, expect, it } from 'vitest';
import { messages } from './messages.ts';

const { en, ja, es, ko } = messages;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

/** Values that are the same in every language on purpose: each language's own name, and bare placeholders. */
const SAME_EVERYWHERE = new Set([
  'languages.en',
  'languages.ja',
  'languages.es',
  'languages.ko',
  // Names of standards (SD-JWT VC, ISO/IEC 18013-5 mdoc), never translated.
  'format.sdJwt',
  'format.mdocShort',
]);
/** Words that are spelled the same in English and that language. */
const SAME_IN: Record<string, Set<string>> = { es: new Set(['claims.no']), ja: new Set(), ko: new Set() };

const base = flatten(en as Tree);
/** A value made only of placeholders and punctuation (e.g. `{{count}}/{{max}}`) may legitimately stay the same. */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/{{\s*\w+\s*}}/g, ''));
const placeholders = (text: string) => (text.match(/{{\s*\w+\s*}}|<\/?\w+>/g) ?? []).sort();

describe.each([
  ['ja', ja],
  ['es', es],
  ['ko', ko],
])('%s translation', (language, locale) => {
  const translated = flatten(locale as Tree);

  it('has every key of en and no extra key', () => {
    expect(Object.keys(translated).sort()).toEqual(Object.keys(base).sort());
  });

  it('translates every value (no English left)', () => {
    const untranslated = Object.keys(base).filter(
      (key) =>
        !SAME_EVERYWHERE.has(key) &&
        !SAME_IN[language]?.has(key) &&
        translated[key] === base[key] &&
        hasWords(base[key] ?? ''),
    );
    expect(untranslated).toEqual([]);
  });

  it('keeps the interpolation placeholders and markup tags of en', () => {
    for (const [key, value] of Object.entries(base)) {
      expect(placeholders(translated[key] ?? ''), key).toEqual(placeholders(value));
    }
  });

  it('has no empty value', () => {
    expect(Object.entries(translated).filter(([, value]) => value.trim() === '')).toEqual([]);
  });
});

/**
 * A message shown with a count (`{{count}}`) must come as `_one` and `_other` (i18next's CLDR suffixes): English
 * and Spanish say "1 character" but "8 characters". Japanese and Korean have one form, but the keys of every
 * language are those of English (above).
 */
describe.each([
  ['en', en],
  ['es', es],
])('plural forms in %s', (_, locale) => {
  const flat = flatten(locale as Tree);
  const pluralBase = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

  it('has _one and _other forms for every message with a count', () => {
    const bare = Object.entries(flat)
      .filter(([key, value]) => /{{\s*count\s*}}/.test(value) && hasWords(value) && pluralBase(key) === key)
      .map(([key]) => key);
    expect(bare).toEqual([]);
  });

  it('has both forms of every plural message, with the count in _other', () => {
    const bases = new Set(
      Object.keys(flat)
        .filter((key) => pluralBase(key) !== key)
        .map(pluralBase),
    );
    expect(
      [...bases].filter((base) => flat[`${base}_one`] === undefined || flat[`${base}_other`] === undefined),
    ).toEqual([]);
    expect([...bases].filter((base) => !/{{\s*count\s*}}/.test(flat[`${base}_other`] ?? ''))).toEqual([]);
  });
});

describe('counted messages read right', () => {
  it('agrees with the count in English and Spanish', async () => {
    const { default: i18next } = await import('i18next');
    const i18n = i18next.createInstance();
    await i18n.init({
      resources: { en: { translation: en }, es: { translation: es } },
      lng: 'en',
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
    });
    expect(i18n.t('settings.passphraseHelp', { count: 8 })).toBe('At least 8 characters.');
    expect(i18n.t('settings.passphraseHelp', { count: 1 })).toBe('At least 1 character.');
    expect(i18n.getFixedT('es')('receive.pinHelpLength', { count: 1 })).toBe(
      'Introduce el PIN de 1 carácter que el emisor te envió por separado.',
    );
    expect(i18n.getFixedT('es')('receive.pinHelpLength', { count: 6 })).toContain('PIN de 6 caracteres');
    expect(i18n.t('present.credentialOf', { index: 1, total: 2 })).toBe('Credential 1 of 2');
  });
});
