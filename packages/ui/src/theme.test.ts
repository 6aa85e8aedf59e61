import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { createAppTheme } from './theme.ts';

/**
 * WCAG 2.2 SC 1.4.3: normal text needs 4.5:1 against its background. Every status chip, button and coloured text
 * of the console and the wallet takes its colours from these values, including states the end-to-end checks
 * cannot always show (an expired credential's amber chip).
 */
const AA = 4.5;
const theme = createAppTheme();
const { palette } = theme;

describe('theme colours are readable (WCAG 2.2 AA contrast)', () => {
  const families = ['primary', 'secondary', 'error', 'success', 'warning', 'info'] as const;

  it.each(families)('%s: white text on main (filled chips, contained buttons)', (name) => {
    expect(getContrastRatio(palette[name].contrastText, palette[name].main)).toBeGreaterThanOrEqual(AA);
  });

  it.each(families)('%s: main as text on white and on the page background (outlined chips, links)', (name) => {
    expect(getContrastRatio(palette[name].main, palette.background.paper)).toBeGreaterThanOrEqual(AA);
    expect(getContrastRatio(palette[name].main, palette.background.default)).toBeGreaterThanOrEqual(AA);
  });

  it('primary and secondary text on white and on the page background', () => {
    for (const text of [palette.text.primary, palette.text.secondary]) {
      expect(getContrastRatio(text, palette.background.paper)).toBeGreaterThanOrEqual(AA);
      expect(getContrastRatio(text, palette.background.default)).toBeGreaterThanOrEqual(AA);
    }
  });

  it('keeps the product teal as the primary colour', () => {
    expect(palette.primary.main).toBe('#004a46');
  });
});
