import { createTheme, type Theme } from '@mui/material/styles';
import { amber, burgundy, type ColorFamily, green, grey, greyBlue, neutral, purple, red, teal } from './palette.ts';

type FamilyColor = ColorFamily & { main: string; light: string; dark: string; contrastText: string };

declare module '@mui/material/styles' {
  interface Palette {
    greyBlue: FamilyColor;
    purple: FamilyColor;
    burgundy: FamilyColor;
    neutral: FamilyColor;
  }
  interface PaletteOptions {
    greyBlue?: FamilyColor;
    purple?: FamilyColor;
    burgundy?: FamilyColor;
    neutral?: FamilyColor;
  }
}

/**
 * A colour family as MUI reads it. `main` is shade 600, or 700 where white text on 600 (and 600 text on white)
 * falls below the 4.5:1 contrast WCAG 2.2 SC 1.4.3 asks of normal text: green 600 gives 3.7:1 and amber 600
 * 3.5:1, so chips, buttons and coloured text of those families use 700 (5.4:1). See theme.test.ts.
 */
const family = (shades: ColorFamily, mainShade: 600 | 700 = 600): FamilyColor => ({
  ...shades,
  main: shades[mainShade],
  light: shades[400],
  dark: shades[mainShade === 600 ? 700 : 800],
  contrastText: '#ffffff',
});

const fontFamily = [
  'Inter',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

/** The console and wallet theme (spec §9). */
export function createAppTheme(): Theme {
  return createTheme({
    palette: {
      mode: 'light',
      primary: family(teal),
      secondary: { main: grey[700], light: grey[500], dark: grey[800], contrastText: '#ffffff' },
      error: family(red),
      success: family(green, 700),
      warning: family(amber, 700),
      info: family(greyBlue),
      grey: { ...grey },
      greyBlue: family(greyBlue),
      purple: family(purple),
      burgundy: family(burgundy),
      neutral: family(neutral),
      text: { primary: grey[900], secondary: grey[600], disabled: grey[400] },
      divider: grey[200],
      background: { default: grey[50], paper: '#ffffff' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily,
      h1: { fontSize: '36px', lineHeight: '44px', fontWeight: 600, letterSpacing: '-0.02em' },
      h2: { fontSize: '24px', lineHeight: '32px', fontWeight: 600 },
      h3: { fontSize: '30px', lineHeight: '38px', fontWeight: 600 },
      h4: { fontSize: '16px', lineHeight: '24px', fontWeight: 600 },
      h5: { fontSize: '16px', lineHeight: '24px', fontWeight: 400 },
      h6: { fontSize: '16px', lineHeight: '24px', fontWeight: 500 },
      subtitle1: { fontSize: '14px', lineHeight: '20px', fontWeight: 500 },
      subtitle2: { fontSize: '14px', lineHeight: '20px', fontWeight: 600 },
      caption: { fontSize: '14px', lineHeight: '20px', fontWeight: 400 },
      body1: { fontSize: '16px', lineHeight: '24px' },
      body2: { fontSize: '14px', lineHeight: '20px' },
      button: { fontSize: '14px', lineHeight: '20px', fontWeight: 600, textTransform: 'none' },
    },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          body: { backgroundColor: grey[50], WebkitFontSmoothing: 'antialiased' },
          // Korean breaks lines between words, not inside them.
          'html:lang(ko) body': { wordBreak: 'keep-all', overflowWrap: 'anywhere' },
          // The skip link focuses the page's <main> (tabIndex -1): no ring around the whole page.
          '#main-content:focus': { outline: 'none' },
        },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { borderRadius: 8, padding: '10px 16px' }, sizeSmall: { padding: '6px 12px' } },
      },
      MuiPaper: {
        styleOverrides: { outlined: { borderColor: grey[200], borderRadius: 12 } },
      },
      MuiCard: {
        defaultProps: { variant: 'outlined' },
        styleOverrides: {
          root: { borderRadius: 12, borderColor: grey[200], boxShadow: '0 1px 2px rgba(16, 24, 40, 0.05)' },
        },
      },
      MuiOutlinedInput: {
        styleOverrides: {
          root: { borderRadius: 8, backgroundColor: '#ffffff' },
          notchedOutline: { borderColor: grey[300] },
        },
      },
      MuiListItemButton: {
        styleOverrides: { root: { borderRadius: 6 } },
      },
      MuiTooltip: { defaultProps: { arrow: true } },
      // MUI renders subtitles as <h6>: every menu item, list label and card title would be a heading, out of the
      // page's outline. They are text; a heading says so with `component` (axe-core `heading-order`).
      MuiTypography: {
        defaultProps: {
          variantMapping: {
            h1: 'h1',
            h2: 'h2',
            h3: 'h3',
            h4: 'h4',
            h5: 'h5',
            h6: 'h6',
            subtitle1: 'div',
            subtitle2: 'div',
            body1: 'p',
            body2: 'p',
            inherit: 'p',
          },
        },
      },
    },
  });
}

export const theme = createAppTheme();
