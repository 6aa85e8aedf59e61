import { describe, expect, it } from 'vitest';
import { LOCALES, localeFromAcceptLanguage, MESSAGE_KEYS, parseLocale, translator } from './i18n.ts';

describe('i18n', () => {
  it('translates every text in ja, es and ko (no English left)', () => {
    const en = translator('en');
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const t = translator(locale);
      for (const key of MESSAGE_KEYS) expect(t(key), `${locale}.${key}`).not.toBe(en(key));
    }
  });

  it('accepts only language tags and rejects script injection', () => {
    expect(parseLocale('ja')).toBe('ja');
    expect(parseLocale('es-MX')).toBe('es');
    expect(parseLocale('fr')).toBeUndefined();
    expect(parseLocale('<script>alert(1)</script>')).toBeUndefined();
    expect(parseLocale('ja"><img src=x onerror=alert(1)>')).toBeUndefined();
    expect(parseLocale('javascript:alert(1)')).toBeUndefined();
    expect(localeFromAcceptLanguage('fr-FR,ko;q=0.8,ja;q=0.9')).toBe('ja');
    expect(localeFromAcceptLanguage('fr-FR')).toBeUndefined();
  });
});
