import { z } from 'zod';

/**
 * An organization's brand colour: `#rrggbb`, stored and answered in lowercase. The console, the holder pages,
 * the issuer metadata wallets read and the credential e-mail all use it as a background, with the text colour
 * `brandTextColor` picks for it.
 */
export const BRAND_COLOR_PATTERN = /^#[0-9a-f]{6}$/;

export const zBrandColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Must be a colour written as #rrggbb, e.g. #1a73e8')
  .transform((value) => value.toLowerCase());

/** The stored colour when it is a valid one, else null (a value written by hand into the database is ignored). */
export function normalizeBrandColor(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const lower = value.trim().toLowerCase();
  return BRAND_COLOR_PATTERN.test(lower) ? lower : null;
}

export * from './color-contrast.ts';
