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

const family = (shades: ColorFamily, contrastText = '#ffffff'): FamilyColor => ({
  ...shades,
  main: shades[600],
  light: shades[400],
  dark: shades[700],
  contrastText,
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
      success: family(green),
      warning: family(amber),
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
    },
  });
}

export const theme = createAppTheme();
