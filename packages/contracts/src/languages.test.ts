import { describe, expect, it } from 'vitest';
import { credentialMailLocales } from './credential-imports.ts';
import { holderLocales } from './holder-display.ts';
import { detectLanguage, LANGUAGE_NAMES, LANGUAGES, toLanguage } from './languages.ts';

describe('the product languages', () => {
  it('are one list: e-mails, holder pages and pickers use it', () => {
    expect(LANGUAGES).toEqual(['en', 'ja', 'es', 'ko']);
    expect(credentialMailLocales).toBe(LANGUAGES);
    expect(holderLocales).toBe(LANGUAGES);
    expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...LANGUAGES].sort());
  });

  it('maps tags to a language and ignores what is not a tag', () => {
    expect(toLanguage('ja-JP')).toBe('ja');
    expect(toLanguage('ko-KR')).toBe('ko');
    expect(toLanguage('ko_KR')).toBeNull();
    expect(toLanguage(' ES ')).toBe('es');
    expect(toLanguage('fr')).toBeNull();
    expect(toLanguage('<script>')).toBeNull();
    expect(toLanguage('ja"onload=')).toBeNull();
    expect(toLanguage(`en-${'x'.repeat(40)}`)).toBeNull();
    expect(toLanguage(undefined)).toBeNull();
  });

  it('detects: ?lang, then the stored choice, then Accept-Language by q-value, then the browser, then English', () => {
    const all = { query: '?lang=ko', stored: 'es', acceptLanguage: 'ja;q=0.9', browser: ['en-US'] };
    expect(detectLanguage(all)).toBe('ko');
    expect(detectLanguage({ ...all, query: 'ko' })).toBe('ko');
    expect(detectLanguage({ ...all, query: '?lang=fr' })).toBe('es');
    expect(detectLanguage({ ...all, query: null, stored: null })).toBe('ja');
    expect(detectLanguage({ acceptLanguage: 'fr, es;q=0.5, ko;q=0.8' })).toBe('ko');
    expect(detectLanguage({ acceptLanguage: 'fr', browser: ['de-DE', 'ja-JP'] })).toBe('ja');
    expect(detectLanguage({ query: '?lang=<b>', stored: 'javascript:alert(1)', browser: ['fr'] })).toBe('en');
    expect(detectLanguage({})).toBe('en');
  });
});
