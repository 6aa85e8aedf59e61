import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useIdentity } from '../../lib/identity-context.ts';
import { decideGuard } from './guard.ts';

const NoOrganizationPage = lazy(() =>
  import('./no-organization-page.tsx').then((m) => ({ default: m.NoOrganizationPage })),
);

export function RouteGuard() {
  const { pathname } = useLocation();
  const { status, organizations } = useIdentity();
  const decision = decideGuard(pathname, status, organizations.length);
  switch (decision.kind) {
    case 'blank':
      return <div data-testid="guard-blank" />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'no-organization':
      return (
        <Suspense fallback={null}>
          <NoOrganizationPage />
        </Suspense>
      );
    default:
      return <Outlet />;
  }
}
