/**
 * Whether the window is at least MUI's `md` breakpoint wide (`theme.breakpoints.up('md')`, the default breakpoints the
 * console keeps): where the shell shows the permanent side menu instead of the top bar (app-shell.tsx). For choosing
 * which code to fetch before the first paint; the shell itself renders from `useMediaQuery`, which takes a window
 * without `matchMedia` (jsdom) for a narrow one, as this does.
 */
export const isDesktopViewport = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(min-width:900px)').matches;
