import './fonts.ts';

export { type AccountBadge, AccountDisplay, type AccountDisplayProps, type AccountType } from './account-display.tsx';
export type { ColorFamily, Shade } from './palette.ts';
export * as colors from './palette.ts';
export { MAIN_CONTENT_ID, SkipLink } from './skip-link.tsx';
export { createAppTheme, theme } from './theme.ts';
export { visuallyHidden } from './visually-hidden.ts';
