import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { type ReactNode, useEffect, useState } from 'react';

/**
 * Keyboard access to a box that scrolls its content (a wide table, a long dialog): while the content overflows,
 * the box takes focus and is a named region, so arrow keys scroll it (WCAG 2.2 SC 2.1.1 Keyboard; axe-core
 * `scrollable-region-focusable`). When everything fits it stays a plain box: no extra stop in the tab order.
 * Spread `props` on the scrolling element and give it `ref`.
 */
export function useScrollRegion<T extends HTMLElement>(label: string) {
  // A callback ref: the element may mount later than the component (a dialog's content opens with the dialog).
  const [element, ref] = useState<T | null>(null);
  const [overflowing, setOverflowing] = useState(false);

  useEffect(() => {
    if (!element) return;
    const measure = () =>
      setOverflowing(element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [element]);

  const props = overflowing ? ({ tabIndex: 0, role: 'region', 'aria-label': label } as const) : {};
  return { ref, props };
}

/** A box that scrolls what it holds, reachable by keyboard while it overflows (see `useScrollRegion`). */
export function ScrollRegion({
  label,
  children,
  sx,
  testId,
}: {
  /** What the region holds, read when it takes focus. */
  label: string;
  children: ReactNode;
  sx?: SxProps<Theme>;
  testId?: string;
}) {
  const { ref, props } = useScrollRegion<HTMLDivElement>(label);
  return (
    <Box
      ref={ref}
      data-testid={testId}
      {...props}
      sx={[
        {
          overflow: 'auto',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}
