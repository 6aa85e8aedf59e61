import { isRouteErrorResponse, Navigate, useRouteError } from 'react-router';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { ServerErrorPage } from '../../components/server-error-page.tsx';
import { isApiError } from '../../lib/api-error.ts';

/** Route errors (spec §2): 401 → /intro, 404 → not found, anything else → the 500 page. */
export function RouteError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : isApiError(error) ? error.status : null;
  if (status === 401) return <Navigate to="/intro" replace />;
  if (status === 404) return <NotFoundPage />;
  return <ServerErrorPage error={error} />;
}
