import NavigateBefore from '@mui/icons-material/NavigateBefore';
import NavigateNext from '@mui/icons-material/NavigateNext';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import type { CSSObject, Theme } from '@mui/material/styles';
import { type MouseEvent, useLayoutEffect, useRef } from 'react';

/**
 * The pages of a list to move between, as MUI's Pagination shows them (text variant, circular, medium; one page at
 * each end, `siblingCount` around the current one, ellipses between; previous and next), without its general
 * machinery (every variant, shape, size, colour and slot; first and last buttons; custom items): the credential list's
 * first page is the lighter for it (issue 16). Same markup, class names, labels and focus behaviour.
 */
export interface PagePaginationProps {
  count: number;
  /** The current page, from 1. */
  page: number;
  siblingCount?: number;
  onChange: (event: MouseEvent<HTMLButtonElement>, page: number) => void;
  'data-testid'?: string;
}

/** An item of the list: a page, the previous or next button (`page` is where it leads), or an ellipsis (`page` 0). */
interface Item {
  type: 'page' | 'previous' | 'next' | 'start-ellipsis' | 'end-ellipsis';
  page: number;
}

const range = (start: number, end: number) => Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);

/** usePagination's list for `boundaryCount` 1: previous, 1, …, the siblings, …, count, next. */
export function paginationItems(count: number, page: number, siblingCount: number): Item[] {
  const boundaryCount = 1;
  const startPages = range(1, Math.min(boundaryCount, count));
  const endPages = range(Math.max(count - boundaryCount + 1, boundaryCount + 1), count);
  const siblingsStart = Math.max(
    Math.min(page - siblingCount, count - boundaryCount - siblingCount * 2 - 1),
    boundaryCount + 2,
  );
  const siblingsEnd = Math.min(
    Math.max(page + siblingCount, boundaryCount + siblingCount * 2 + 2),
    count - boundaryCount - 1,
  );
  let before: (number | 'start-ellipsis')[] = [];
  if (siblingsStart > boundaryCount + 2) before = ['start-ellipsis'];
  else if (boundaryCount + 1 < count - boundaryCount) before = [boundaryCount + 1];
  let after: (number | 'end-ellipsis')[] = [];
  if (siblingsEnd < count - boundaryCount - 1) after = ['end-ellipsis'];
  else if (count - boundaryCount > boundaryCount) after = [count - boundaryCount];
  const pages = [...startPages, ...before, ...range(siblingsStart, siblingsEnd), ...after, ...endPages];
  return [
    { type: 'previous', page: page - 1 },
    ...pages.map((item): Item => (typeof item === 'number' ? { type: 'page', page: item } : { type: item, page: 0 })),
    { type: 'next', page: page + 1 },
  ];
}

// MuiPaginationItem's styles for the text variant, circular shape, medium size and standard colour.
const itemSx = (theme: Theme): CSSObject => ({
  ...(theme.typography.body2 as CSSObject),
  borderRadius: '16px',
  textAlign: 'center',
  boxSizing: 'border-box',
  minWidth: 32,
  padding: '0 6px',
  margin: '0 3px',
  color: theme.palette.text.primary,
  '&.Mui-disabled': { opacity: theme.palette.action.disabledOpacity },
});
const buttonSx = (theme: Theme): CSSObject => ({
  ...itemSx(theme),
  height: 32,
  '&.Mui-focusVisible': { backgroundColor: theme.palette.action.focus },
  transition: theme.transitions.create(['color', 'background-color'], { duration: theme.transitions.duration.short }),
  '&:hover': {
    backgroundColor: theme.palette.action.hover,
    '@media (hover: none)': { backgroundColor: 'transparent' },
  },
  '&.Mui-selected': {
    backgroundColor: theme.palette.action.selected,
    '&:hover': {
      backgroundColor: theme.alpha(
        theme.palette.action.selected,
        `${theme.palette.action.selectedOpacity} + ${theme.palette.action.hoverOpacity}`,
      ),
      '@media (hover: none)': { backgroundColor: theme.palette.action.selected },
    },
    '&.Mui-focusVisible': {
      backgroundColor: theme.alpha(
        theme.palette.action.selected,
        `${theme.palette.action.selectedOpacity} + ${theme.palette.action.focusOpacity}`,
      ),
    },
    '&.Mui-disabled': {
      opacity: 1,
      color: theme.palette.action.disabled,
      backgroundColor: theme.palette.action.selected,
    },
  },
});
const iconSx = { fontSize: '1.25rem', margin: '0 -8px' } as const;
const itemClass =
  'MuiPaginationItem-root MuiPaginationItem-sizeMedium MuiPaginationItem-text MuiPaginationItem-circular';

export function PagePagination({ count, page, siblingCount = 1, onChange, ...other }: PagePaginationProps) {
  const navRef = useRef<HTMLElement>(null);
  // As MUI's: a previous or next button that becomes disabled by its own click gives the focus to the current page.
  const pendingFocus = useRef<{ page: number; trigger: HTMLElement } | null>(null);
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending || pending.page !== page) return;
    const active = document.activeElement;
    if (
      active === null ||
      active === document.body ||
      active === document.documentElement ||
      active === pending.trigger
    )
      navRef.current?.querySelector<HTMLElement>('[aria-current="page"]')?.focus();
    pendingFocus.current = null;
  }, [page]);

  return (
    <Box
      component="nav"
      ref={navRef}
      aria-label="pagination navigation"
      className="MuiPagination-root MuiPagination-text"
      {...other}
    >
      <Box
        component="ul"
        className="MuiPagination-ul"
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', padding: 0, margin: 0, listStyle: 'none' }}
      >
        {paginationItems(count, page, siblingCount).map((item) => {
          if (item.type === 'start-ellipsis' || item.type === 'end-ellipsis') {
            return (
              <li key={item.type}>
                <Box
                  className={`${itemClass} MuiPaginationItem-ellipsis`}
                  sx={(theme) => ({ ...itemSx(theme), height: 'auto' })}
                >
                  …
                </Box>
              </li>
            );
          }
          const selected = item.type === 'page' && item.page === page;
          const disabled = (item.type === 'previous' && page <= 1) || (item.type === 'next' && page >= count);
          const label =
            item.type === 'page' ? `${selected ? '' : 'Go to '}page ${item.page}` : `Go to ${item.type} page`;
          return (
            <li key={item.type === 'page' ? item.page : item.type}>
              <ButtonBase
                className={`${itemClass}${selected ? ' Mui-selected' : ''}${
                  item.type === 'page' ? ' MuiPaginationItem-page' : ' MuiPaginationItem-previousNext'
                }`}
                disabled={disabled}
                aria-current={selected ? 'page' : undefined}
                aria-label={label}
                onClick={(event) => {
                  pendingFocus.current = null;
                  const willBeDisabled =
                    (item.type === 'previous' && item.page === 1) || (item.type === 'next' && item.page === count);
                  if (willBeDisabled && document.activeElement === event.currentTarget)
                    pendingFocus.current = { page: item.page, trigger: event.currentTarget };
                  onChange(event, item.page);
                }}
                sx={buttonSx}
              >
                {item.type === 'page' && item.page}
                {item.type === 'previous' && <NavigateBefore className="MuiPaginationItem-icon" sx={iconSx} />}
                {item.type === 'next' && <NavigateNext className="MuiPaginationItem-icon" sx={iconSx} />}
              </ButtonBase>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
