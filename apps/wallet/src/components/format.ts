import type { ClaimDisplay, StoredCredential } from '../app/core-api.ts';
import { pickDisplay } from '../app/core-api.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function formatDate(value: string | number | Date | undefined, locale: string, withTime = false): string {
  if (value === undefined) return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(
    locale,
    withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'long' },
  ).format(date);
}

/** The label of a claim in the user's language, from the issuer's metadata; the claim name otherwise. */
export function claimLabel(claimDisplay: readonly ClaimDisplay[], name: string, locale: string): string {
  const display = claimDisplay.find((claim) => claim.name === name);
  return (display && pickDisplay(display.label, locale)) || name;
}

/** Claims in the issuer's display order, then any other. */
export function orderedClaimNames(credential: Pick<StoredCredential, 'claimDisplay' | 'claims'>): string[] {
  const present = Object.keys(credential.claims);
  const ordered = credential.claimDisplay.map((claim) => claim.name).filter((name) => present.includes(name));
  return [...ordered, ...present.filter((name) => !ordered.includes(name))];
}

export type FormattedValue =
  | { kind: 'text'; text: string }
  | { kind: 'image'; src: string }
  | { kind: 'list'; items: FormattedValue[] }
  | { kind: 'object'; entries: { key: string; value: FormattedValue }[] };

/** Formats a claim value by its type: dates, numbers and booleans in the user's language, images as images. */
export function formatClaimValue(
  value: unknown,
  locale: string,
  words: { yes: string; no: string; empty: string },
): FormattedValue {
  if (value === null || value === undefined || value === '') return { kind: 'text', text: words.empty };
  if (typeof value === 'boolean') return { kind: 'text', text: value ? words.yes : words.no };
  if (typeof value === 'number') return { kind: 'text', text: new Intl.NumberFormat(locale).format(value) };
  if (typeof value === 'string') {
    if (/^data:image\/(png|jpe?g|gif|webp);base64,/i.test(value)) return { kind: 'image', src: value };
    if (DATE_ONLY.test(value)) {
      const date = new Date(`${value}T00:00:00Z`);
      if (!Number.isNaN(date.getTime())) {
        return {
          kind: 'text',
          text: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date),
        };
      }
    }
    if (DATE_TIME.test(value)) return { kind: 'text', text: formatDate(value, locale, true) };
    return { kind: 'text', text: value };
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => formatClaimValue(item, locale, words));
    return items.every((item) => item.kind === 'text')
      ? { kind: 'text', text: items.map((item) => (item.kind === 'text' ? item.text : '')).join(', ') || words.empty }
      : { kind: 'list', items };
  }
  if (typeof value === 'object') {
    return {
      kind: 'object',
      entries: Object.entries(value as Record<string, unknown>).map(([key, inner]) => ({
        key,
        value: formatClaimValue(inner, locale, words),
      })),
    };
  }
  return { kind: 'text', text: String(value) };
}
