import { describe, expect, it } from 'vitest';
import { pickLanguage } from './detect-language.ts';

describe('pickLanguage', () => {
  it('prefers ?lang, then the stored choice, then the browser', () => {
    expect(pickLanguage('?lang=ko', ['ja-JP'], 'es')).toBe('ko');
    expect(pickLanguage('', ['ja-JP'], 'es')).toBe('es');
    expect(pickLanguage('', ['fr-FR', 'ja-JP'])).toBe('ja');
  });

  it('ignores what is not a language tag and falls back to English', () => {
    expect(pickLanguage('?lang=<script>', ['fr'], '"x"')).toBe('en');
  });
});
