import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { loadWorkspaceMessages } from '../../i18n/index.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { isLeavingForSignOut } from '../../lib/signing-out.ts';
import { decideGuard } from './guard.ts';

// Signed in: the page (the create-organization form) needs the signed-in pages' messages, as the shell does.
const NoOrganizationPage = lazy(() =>
  Promise.all([import('./no-organization-page.tsx'), loadWorkspaceMessages()]).then(([m]) => ({
    default: m.NoOrganizationPage,
  })),
);

export function RouteGuard() {
  const { pathname } = useLocation();
  const { status, current } = useIdentity();
  // Signed out and leaving for the provider's sign-out, which returns the browser to /intro: nothing to show meanwhile.
  const decision = isLeavingForSignOut()
    ? { kind: 'blank' as const }
    : decideGuard(pathname, status, current?.id ?? null);
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
