import { type AnchorHTMLAttributes, forwardRef, type MouseEvent } from 'react';
import { createPath, type To, useHref, useLocation, useNavigate, useResolvedPath } from 'react-router';

export interface RouterLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of the console (not another site's URL: use a plain `<a href>` for those). */
  to: To;
  replace?: boolean;
  state?: unknown;
}

/** A click the browser should handle itself: another button, a modifier key (new tab or window), another target. */
const browserHandles = (event: MouseEvent<HTMLAnchorElement>, target?: string) =>
  event.button !== 0 ||
  event.metaKey ||
  event.altKey ||
  event.ctrlKey ||
  event.shiftKey ||
  (target !== undefined && target !== '_self');

/**
 * A link to a page of the console: react-router's `Link` as the declarative router uses it (the `href` the router
 * resolves; a plain click navigates without reloading, replacing the entry when it leads to the current URL; a
 * modified or middle click is the browser's), without the module `Link` lives in (its DOM components, forms, data
 * routers and framework-mode prefetching), which the first page would otherwise download whole (issue 16). Works as
 * MUI's `component` too.
 */
export const RouterLink = forwardRef<HTMLAnchorElement, RouterLinkProps>(function RouterLink(
  { to, replace, state, onClick, target, ...rest },
  ref,
) {
  const href = useHref(to);
  const navigate = useNavigate();
  const location = useLocation();
  const path = useResolvedPath(to);
  return (
    <a
      {...rest}
      ref={ref}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || browserHandles(event, target)) return;
        event.preventDefault();
        void navigate(to, { replace: replace ?? createPath(location) === createPath(path), state });
      }}
    />
  );
});
