import type { LocalizedText } from './types.ts';

/** The text for `locale`: exact tag, then the same language (`es-MX` → `es`), then English, then the first. */
export function pickDisplay(text: LocalizedText | undefined, locale: string): string {
  if (!text) return '';
  const entries = Object.entries(text).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  if (entries.length === 0) return '';
  const wanted = locale.toLowerCase();
  const language = wanted.split('-')[0];
  const exact = entries.find(([tag]) => tag.toLowerCase() === wanted);
  if (exact) return exact[1];
  const sameLanguage = entries.find(([tag]) => tag.toLowerCase().split('-')[0] === language);
  if (sameLanguage) return sameLanguage[1];
  const english = entries.find(([tag]) => tag.toLowerCase() === 'en' || tag.toLowerCase().startsWith('en-'));
  if (english) return english[1];
  return entries[0]![1];
}

/** The entry of a metadata `display` array for `locale`, with the same fallbacks as pickDisplay. */
export function pickEntry<T extends { locale?: unknown }>(
  entries: readonly T[] | undefined,
  locale: string,
): T | undefined {
  if (!entries || entries.length === 0) return undefined;
  const byTag: LocalizedText = {};
  entries.forEach((entry, index) => {
    const tag = typeof entry.locale === 'string' ? entry.locale : `und-${index}`;
    if (byTag[tag] === undefined) byTag[tag] = String(index);
  });
  const index = Number(pickDisplay(byTag, locale));
  return entries[Number.isInteger(index) ? index : 0];
}

/** `[{name, locale}, …]` → `{locale: name}`; an entry without a locale counts as `und`. */
export function localizedFrom(entries: unknown, field = 'name'): LocalizedText {
  const text: LocalizedText = {};
  if (!Array.isArray(entries)) return text;
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    const value = (entry as Record<string, unknown>)[field];
    if (typeof value !== 'string' || value === '') continue;
    const locale = (entry as Record<string, unknown>).locale;
    const tag = typeof locale === 'string' && locale ? locale : 'und';
    if (text[tag] === undefined) text[tag] = value;
  }
  return text;
}
