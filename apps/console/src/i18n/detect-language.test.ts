import { describe, expect, it } from 'vitest';
import { applyDocumentLanguage, detectLanguage, directionOf, sanitizeLanguageTag } from './detect-language.ts';

describe('detectLanguage (spec §9: ?lang → stored → browser → en)', () => {
  it('prefers ?lang', () => {
    expect(detectLanguage({ search: '?lang=ja', stored: 'es', browser: ['ko'] })).toBe('ja');
  });

  it('then the stored language', () => {
    expect(detectLanguage({ search: '', stored: 'es', browser: ['ko'] })).toBe('es');
  });

  it('then the browser languages in order, reduced to their base language', () => {
    expect(detectLanguage({ search: '', stored: null, browser: ['fr-FR', 'ko-KR', 'ja'] })).toBe('ko');
  });

  it('falls back to English', () => {
    expect(detectLanguage({ search: '', stored: null, browser: ['fr', 'de'] })).toBe('en');
  });

  it('skips an unsupported ?lang and uses the next source', () => {
    expect(detectLanguage({ search: '?lang=fr', stored: 'ko', browser: [] })).toBe('ko');
  });

  it.each([
    '<script>alert(1)</script>',
    'ja"><img src=x onerror=alert(1)>',
    "ja'",
    'javascript:alert(1)',
    'ja;alert(1)',
    ' ',
    'j',
    'ja-',
    'ja_JP',
  ])('rejects %j and falls through', (value) => {
    expect(sanitizeLanguageTag(value)).toBeNull();
    expect(detectLanguage({ search: `?lang=${encodeURIComponent(value)}`, stored: value, browser: [value] })).toBe(
      'en',
    );
  });

  it('accepts well-formed tags', () => {
    expect(sanitizeLanguageTag('ja')).toBe('ja');
    expect(sanitizeLanguageTag('es-419')).toBe('es-419');
    expect(sanitizeLanguageTag('zh-Hant-TW')).toBe('zh-Hant-TW');
    expect(detectLanguage({ search: '?lang=es-419', stored: null, browser: [] })).toBe('es');
  });
});

describe('document direction', () => {
  it('is right-to-left for ar, he, fa and ur', () => {
    for (const language of ['ar', 'he', 'fa', 'ur', 'ar-EG']) expect(directionOf(language)).toBe('rtl');
    for (const language of ['en', 'ja', 'es', 'ko']) expect(directionOf(language)).toBe('ltr');
  });

  it('sets the lang and dir attributes of <html>', () => {
    applyDocumentLanguage('he');
    expect(document.documentElement.lang).toBe('he');
    expect(document.documentElement.dir).toBe('rtl');
    applyDocumentLanguage('ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(document.documentElement.dir).toBe('ltr');
  });
});
