import type { MenuProps } from '@mui/material/Menu';
import type { MenuItemProps } from '@mui/material/MenuItem';
import { type ComponentType, forwardRef, useEffect, useReducer } from 'react';

let Menu: ComponentType<MenuProps> | undefined;
let MenuItem: ComponentType<MenuItemProps> | undefined;
let loading: Promise<void> | undefined;

/**
 * Fetches the code of MUI's Menu (with its Popover, Modal, focus trap, Portal and Grow transition) and MenuItem for the
 * selects (e.g. once the page around them has painted), so that opening one does not wait.
 */
export function preloadSelectMenu(): Promise<void> {
  loading ??= Promise.all([import('@mui/material/Menu'), import('@mui/material/MenuItem')]).then(
    ([menu, item]) => {
      Menu = menu.default;
      MenuItem = item.default;
    },
    (error: unknown) => {
      loading = undefined; // Tried again on the next open (offline).
      throw error;
    },
  );
  return loading;
}

/** Whether the menu's code is in (fetching it when `wanted`); the component renders again once it is. */
function useMenuCode(wanted: boolean): boolean {
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const missing = Menu === undefined || MenuItem === undefined;
  useEffect(() => {
    if (!missing || !wanted) return;
    let active = true;
    preloadSelectMenu().then(
      () => {
        if (active) rerender();
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [missing, wanted]);
  return !missing;
}

/**
 * MUI's Menu as MUI's Select renders it, its code fetched on the first open (or earlier through
 * `preloadSelectMenu`): the build gives it to `@mui/material/Select/SelectInput` in place of `../Menu/Menu`
 * (apps/console/vite.config.ts), so the selects of a page look and behave as MUI's (the closed field is the same
 * component) while their menu is not part of the page's first load (issue 16). A closed Menu renders nothing until
 * first opened (its Modal is not kept mounted), so rendering nothing before its code is in shows the same; a Menu
 * opened before then opens once it is.
 */
const LazySelectMenu = forwardRef<HTMLDivElement, MenuProps>(function LazySelectMenu(props, ref) {
  const ready = useMenuCode(props.open);
  return ready && Menu ? <Menu ref={ref} {...props} /> : null;
});

export default LazySelectMenu;

/**
 * An option of a select (MUI's `MenuItem`, whose code comes with the menu's): a select reads its options' `value` and
 * label while closed, and renders them only in its open menu, so the closed field needs none of MenuItem's code.
 */
export const SelectOption = forwardRef<HTMLLIElement, MenuItemProps>(function SelectOption(props, ref) {
  const ready = useMenuCode(true);
  return ready && MenuItem ? <MenuItem ref={ref} {...props} /> : null;
});
