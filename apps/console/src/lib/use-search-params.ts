import { useCallback, useMemo } from 'react';
import { type NavigateOptions, useLocation, useNavigate } from 'react-router';

/**
 * The current URL's query and a setter that navigates to a new one: react-router's `useSearchParams` as the console
 * uses it (no default values), built on `useLocation` and `useNavigate`. react-router's own lives in the module of its
 * DOM components (Link, Form, the data routers and their prefetching), which a page that uses none of them then
 * downloads whole: with this hook and `RouterLink`, the app shell and the credential list do not (issue 16).
 */
export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams | Record<string, string>, options?: NavigateOptions) => void,
] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const searchParams = useMemo(() => new URLSearchParams(search), [search]);
  const setSearchParams = useCallback(
    (next: URLSearchParams | Record<string, string>, options?: NavigateOptions) =>
      void navigate(`?${new URLSearchParams(next)}`, options),
    [navigate],
  );
  return [searchParams, setSearchParams];
}
