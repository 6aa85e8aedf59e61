/**
 * Contrast between colours (WCAG 2.2) and the text colour to put on an organization's brand colour. Plain
 * functions without zod, imported by the public holder pages and the wallet through `@cp/contracts/color-contrast`
 * so that their first screen does not load every contract schema.
 */

/** Text on a brand colour is white or this near-black (a touch softer than pure black). */
export const BRAND_TEXT_LIGHT = '#ffffff';
export const BRAND_TEXT_DARK = '#111111';

/** WCAG 2.2 success criterion 1.4.3 (Contrast, Minimum, level AA): 4.5:1 for normal-size text. */
export const WCAG_AA_CONTRAST = 4.5;

/** `#rgb` or `#rrggbb` as [r, g, b] (0–255); null for anything else. */
export function parseHexColor(value: string): [number, number, number] | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join('') : match[1]!;
  const n = Number.parseInt(hex, 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/** WCAG 2.2 relative luminance (definition "relative luminance", sRGB). */
export function relativeLuminance(color: string): number | null {
  const rgb = parseHexColor(color);
  if (!rgb) return null;
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.2 contrast ratio (L1 + 0.05) / (L2 + 0.05), from 1 to 21; null when a colour cannot be read. */
export function contrastRatio(a: string, b: string): number | null {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The text colour for a brand-coloured background: white or near-black, whichever contrasts more (white on a
 * tie). On a few mid-tone colours neither reaches 4.5:1; the console warns about those when the colour is set.
 */
export function brandTextColor(background: string): typeof BRAND_TEXT_LIGHT | typeof BRAND_TEXT_DARK {
  const light = contrastRatio(background, BRAND_TEXT_LIGHT) ?? 21;
  const dark = contrastRatio(background, BRAND_TEXT_DARK) ?? 0;
  return dark > light ? BRAND_TEXT_DARK : BRAND_TEXT_LIGHT;
}
