import './fonts.ts';

export { type AccountBadge, AccountDisplay, type AccountDisplayProps, type AccountType } from './account-display.tsx';
export type { ColorFamily, Shade } from './palette.ts';
export * as colors from './palette.ts';
export { createAppTheme, theme } from './theme.ts';
