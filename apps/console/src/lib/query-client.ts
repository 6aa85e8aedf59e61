import { ProblemCode } from '@cp/contracts';
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { i18n } from '../i18n/index.ts';
import { isApiError, isNotFound } from './api-error.ts';
import { notify } from './notifications.ts';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** The page shows a not-found state for this query (`RecordLoadError`), so a 404 needs no notification. */
      showsNotFound?: boolean;
    };
  }
}

/** A 401 has already been handled by the client (refresh, or back to /intro); other 4xx will not improve on retry. */
const shouldRetry = (failureCount: number, error: unknown) =>
  failureCount < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500);

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // A page that loads one record by id says itself that the record is not there (`RecordLoadError`): no
        // catalogue message on top of it.
        if (query.meta?.showsNotFound && isNotFound(error)) return;
        // Spec §8: a failing call shows its catalogue message in the user's language.
        // A 403 ORGANIZATION_TWO_FACTOR_REQUIRED has its own screen (app shell) rather than a notification.
        if (
          isApiError(error) &&
          error.status !== 401 &&
          error.catalogueKey &&
          !error.is(ProblemCode.ORGANIZATION_TWO_FACTOR_REQUIRED)
        ) {
          notify({ severity: 'error', title: i18n.t(error.catalogueKey) });
        }
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
