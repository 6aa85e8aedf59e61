import { describe, expect, it } from 'vitest';
import { localizedFrom, pickDisplay, pickEntry } from './display.ts';

describe('pickDisplay', () => {
  it('picks the exact locale, then the language, then English, then the first text', () => {
    const text = { en: 'Diploma', ja: '卒業証書', 'es-MX': 'Diploma (MX)', und: 'Fallback' };
    expect(pickDisplay(text, 'ja')).toBe('卒業証書');
    expect(pickDisplay(text, 'es')).toBe('Diploma (MX)');
    expect(pickDisplay(text, 'es-MX')).toBe('Diploma (MX)');
    expect(pickDisplay({ 'ja-JP': 'X', en: 'Y' }, 'ja')).toBe('X');
    expect(pickDisplay(text, 'ko')).toBe('Diploma');
    expect(pickDisplay({ fr: 'Diplôme', de: 'Diplom' }, 'ko')).toBe('Diplôme');
    expect(pickDisplay({}, 'en')).toBe('');
    expect(pickDisplay(undefined, 'en')).toBe('');
  });

  it('reads metadata display arrays', () => {
    const entries = [
      { name: 'Diploma', locale: 'en' },
      { name: '卒業証書', locale: 'ja', background_color: '#000' },
      { name: 'No locale' },
    ];
    expect(localizedFrom(entries)).toEqual({ en: 'Diploma', ja: '卒業証書', und: 'No locale' });
    expect(pickEntry(entries, 'ja')?.background_color).toBe('#000');
    expect(pickEntry(entries, 'ko')?.name).toBe('Diploma');
    expect(pickEntry([], 'ko')).toBeUndefined();
  });
});
