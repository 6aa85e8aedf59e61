import Box from '@mui/material/Box';
import type { MouseEvent } from 'react';

/** The id of each app's `<main>`, the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to main content": the first thing a keyboard reaches on a page, hidden until it has focus (WCAG 2.2 SC
 * 2.4.1 Bypass Blocks). It moves focus to the page's `<main id="main-content" tabIndex={-1}>` itself rather than
 * changing the URL's fragment, which the apps' routers would take for a navigation.
 */
export function SkipLink({ label, targetId = MAIN_CONTENT_ID }: { label: string; targetId?: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.scrollIntoView?.({ block: 'start' });
  };
  return (
    <Box
      component="a"
      href={`#${targetId}`}
      onClick={skip}
      data-testid="skip-link"
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1.25,
        borderRadius: 2,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        typography: 'subtitle2',
        textDecoration: 'none',
        boxShadow: 3,
        // Off screen until focused; still read by screen readers.
        transform: 'translateY(calc(-100% - 16px))',
        '&:focus': { transform: 'none', outline: '3px solid', outlineColor: 'primary.200', outlineOffset: 2 },
      }}
    >
      {label}
    </Box>
  );
}
