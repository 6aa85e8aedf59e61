import { describe, expect, it, vi } from 'vitest';
import { createTranslator, interpolate } from './translator.ts';

const en = {
  app: { name: 'Console' },
  items_one: '{{count}} item',
  items_other: '{{count}} items',
  plain: 'Up to {{count}} characters',
  greeting: 'Hello {{name}}, you have {{ count }} messages',
  onlyEnglish: 'Only in English',
};

function translator(language = 'en') {
  const i18n = createTranslator({ language, fallbackLanguage: 'en' });
  i18n.addResourceBundle('en', en);
  i18n.addResourceBundle('ja', { app: { name: 'コンソール' }, items_other: '{{count}} 件' });
  i18n.addResourceBundle('es', { items_one: '{{count}} elemento', items_other: '{{count}} elementos' });
  i18n.addResourceBundle('ko', { items_other: '{{count}}개 항목' });
  return i18n;
}

describe('translator', () => {
  it('looks up nested keys in the language shown', () => {
    const i18n = translator('ja');
    expect(i18n.t('app.name')).toBe('コンソール');
    expect(i18n.getFixedT('en')('app.name')).toBe('Console');
  });

  it.each([
    ['en', 1, '1 item'],
    ['en', 0, '0 items'],
    ['en', 2, '2 items'],
    ['ja', 1, '1 件'],
    ['ja', 5, '5 件'],
    ['es', 1, '1 elemento'],
    ['es', 3, '3 elementos'],
    // CLDR gives Spanish a `many` category (1 000 000): the Spanish `_other`, not the English message.
    ['es', 1_000_000, '1000000 elementos'],
    ['ko', 1, '1개 항목'],
    ['ko', 7, '7개 항목'],
  ])('plural %s count=%d → %s', (language, count, expected) => {
    expect(translator(language).t('items', { count })).toBe(expected);
  });

  it('uses the bare key when a count has no plural forms', () => {
    expect(translator().t('plain', { count: 40 })).toBe('Up to 40 characters');
  });

  it('interpolates {{var}} without HTML escaping, leaves unknown placeholders, blanks null values', () => {
    const { t } = translator();
    expect(t('greeting', { name: '<b>Ann & Bob</b>', count: 3 })).toBe('Hello <b>Ann & Bob</b>, you have 3 messages');
    expect(t('greeting', { count: 3 })).toBe('Hello {{name}}, you have 3 messages');
    expect(t('greeting', { name: null, count: 3 })).toBe('Hello , you have 3 messages');
    // One pass: a value's own placeholders and `$` patterns are kept as written.
    expect(interpolate('{{a}} {{b}}', { a: '{{b}} $&', b: 'x' })).toBe('{{b}} $& x');
  });

  it('falls back to the fallback language, then to the key', () => {
    const { t } = translator('ja');
    expect(t('onlyEnglish')).toBe('Only in English');
    expect(t('missing.key')).toBe('missing.key');
    expect(t('app')).toBe('app'); // A subtree is not a message.
    expect(t('constructor')).toBe('constructor');
    expect(t('app.name.toString')).toBe('app.name.toString');
  });

  it('tells whether a language itself has a message', () => {
    const i18n = translator('ja');
    expect(i18n.exists('app.name')).toBe(true);
    expect(i18n.exists('onlyEnglish')).toBe(false);
    expect(i18n.exists('onlyEnglish', 'en')).toBe(true);
  });

  it('merges bundles and notifies subscribers of language and message changes with a new t', () => {
    const i18n = translator();
    const listener = vi.fn();
    const unsubscribe = i18n.subscribe(listener);
    const before = i18n.t;
    i18n.changeLanguage('ja');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(i18n.language).toBe('ja');
    expect(i18n.t).not.toBe(before);
    i18n.changeLanguage('ja');
    expect(listener).toHaveBeenCalledTimes(1);
    i18n.addResourceBundle('ja', { onlyEnglish: '日本語でも' });
    expect(listener).toHaveBeenCalledTimes(2);
    expect(i18n.t('onlyEnglish')).toBe('日本語でも');
    expect(i18n.t('app.name')).toBe('コンソール');
    // Messages of a language not shown (downloaded before a switch) change nothing on screen.
    i18n.addResourceBundle('ko', { onlyEnglish: '한국어로도' });
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    i18n.changeLanguage('en');
    expect(listener).toHaveBeenCalledTimes(2);
    expect(i18n.hasResourceBundle('ko')).toBe(true);
    expect(i18n.hasResourceBundle('fr')).toBe(false);
  });
});
