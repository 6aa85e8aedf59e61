import { useQueryClient } from '@tanstack/react-query';
import {
  type ComponentType,
  type ReactNode,
  Suspense,
  startTransition,
  use,
  useEffect,
  useLayoutEffect,
  useState,
} from 'react';
import {
  UNSAFE_createBrowserHistory as createBrowserHistory,
  matchRoutes,
  Navigate,
  Outlet,
  type RouteObject,
  Router,
  useNavigate,
  useRoutes,
} from 'react-router';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { loadConnectMessages, loadWorkspaceMessages, loadWorkspacePagesMessages } from '../../i18n/index.ts';
import { setSessionExpiredHandler } from '../../lib/api-client.ts';
import { isDesktopViewport } from '../shell/desktop-viewport.ts';
import { PublicLayout } from '../shell/public-layout.tsx';
import { AdminOnlyRoute } from './admin-only-route.tsx';
import { RouteErrorBoundary } from './route-error.tsx';
import { RouteGuard } from './route-guard.tsx';

interface RouteHandle {
  preload: () => Promise<ComponentType>;
}

/**
 * A route whose component loads on demand (code-split). The console uses react-router's declarative router, not its
 * data router (`createBrowserRouter`), which adds ≈ 16 KB gzip to the first screen for loaders, actions and fetchers
 * the console does not use (issue 8). What the data router did for lazy routes is kept: `PreloadingBrowserRouter`
 * shows a location only once `preload` has fetched its routes' code, so a page renders at once and never suspends.
 * `loadMessages` (the app shell's) comes in the same way. A chunk that fails to load is thrown to the route's error
 * boundary when the page renders, and fetched again on the next visit.
 */
function lazyRoute<T>(
  load: () => Promise<T>,
  pick: (module: T) => ComponentType,
  loadMessages?: () => Promise<void>,
): Pick<RouteObject, 'element' | 'handle'> {
  let Loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () => {
    loading ??= Promise.all([load(), loadMessages?.()]).then(
      ([module]) => {
        Loaded = pick(module);
        return Loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  function LazyRoute() {
    const Component = Loaded ?? use(preload());
    return <Component />;
  }
  return { element: <LazyRoute />, handle: { preload } satisfies RouteHandle };
}

// The signed-in pages' messages come with the shell (a signed-out visitor downloads neither): those of a signed-in
// user's first page, the credential list, with the shell itself; the other pages' with each of them (issue 16).
// Below `md` the shell's top bar and slide-out menu are a chunk of their own: fetched alongside the shell, not after it.
const appShell = lazyRoute(
  () =>
    Promise.all([
      import('../shell/app-shell.tsx'),
      isDesktopViewport() ? undefined : import('../shell/mobile-navigation.tsx'),
    ]).then(async ([m]) => {
      await m.preloadAppShell();
      return m;
    }),
  (m) => m.AppShell,
  loadWorkspaceMessages,
);

/** Every route of spec §2. Pages load on demand (code-split). */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: (
      <RouteErrorBoundary>
        <RouteGuard />
      </RouteErrorBoundary>
    ),
    children: [
      {
        path: 'intro',
        ...lazyRoute(
          () => import('../../features/auth/components/intro-page.tsx'),
          (m) => m.IntroPage,
        ),
      },
      {
        path: 'oauth/socious',
        ...lazyRoute(
          () => import('../../features/auth/components/oauth-callback-page.tsx'),
          (m) => m.OAuthCallbackPage,
        ),
      },
      {
        path: 'connect',
        element: <PublicLayout />,
        children: [
          {
            path: 'credential/:id',
            ...lazyRoute(
              () => import('../../features/connect/components/connect-credential-page.tsx'),
              (m) => m.ConnectCredentialPage,
              loadConnectMessages,
            ),
          },
          {
            path: 'verification/:id',
            ...lazyRoute(
              () => import('../../features/connect/components/connect-verification-page.tsx'),
              (m) => m.ConnectVerificationPage,
              loadConnectMessages,
            ),
          },
          {
            path: 'redirect/:id',
            ...lazyRoute(
              () => import('../../features/connect/components/connect-redirect-page.tsx'),
              (m) => m.ConnectRedirectPage,
              loadConnectMessages,
            ),
          },
        ],
      },
      {
        // An invitation link: for visitors (sign in or create an account to join) and signed-in people alike. It
        // reads the signed-in pages' messages (its own, roles, errors), so they come with its code.
        path: 'invitations',
        element: <PublicLayout />,
        children: [
          {
            path: ':token',
            ...lazyRoute(
              () => import('../../features/invitations/components/invitation-page.tsx'),
              (m) => m.InvitationPage,
              loadWorkspacePagesMessages,
            ),
          },
        ],
      },
      {
        // The shell (menu, organization switcher) is only for signed-in pages: /intro does not download it.
        // A page's error replaces the shell with the error page, as the data router's errorElement did.
        element: <RouteErrorBoundary>{appShell.element}</RouteErrorBoundary>,
        handle: appShell.handle,
        children: [
          { index: true, element: <Navigate to="/credentials" replace /> },
          {
            path: 'credentials',
            ...lazyRoute(
              () => import('../../features/credentials/components/credentials-empty-page.tsx'),
              (m) => m.CredentialsEmptyPage,
            ),
          },
          {
            path: 'credentials/create',
            ...lazyRoute(
              () => import('../../features/credentials/components/create-credential-page.tsx'),
              (m) => m.CreateCredentialPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'credentials/:orgId',
            ...lazyRoute(
              () => import('./credential-list-route.tsx'),
              (m) => m.CredentialListRoute,
            ),
          },
          {
            path: 'schemas',
            ...lazyRoute(
              () => import('../../features/credential-schemas/components/credential-schemas-page.tsx'),
              (m) => m.CredentialSchemasPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'schemas/create/:id?',
            ...lazyRoute(
              () => import('../../features/credential-schemas/components/create-credential-schema-page.tsx'),
              (m) => m.CreateCredentialSchemaPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'verifications',
            ...lazyRoute(
              () => import('../../features/verifications/components/verifications-page.tsx'),
              (m) => m.VerificationsPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'verifications/create',
            ...lazyRoute(
              () => import('../../features/verifications/components/verification-form-page.tsx'),
              (m) => m.VerificationFormPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'verifications/edit/:id',
            ...lazyRoute(
              () => import('../../features/verifications/components/verification-form-page.tsx'),
              (m) => m.VerificationFormPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            // Admins only (the API refuses members there too).
            element: (
              <AdminOnlyRoute>
                <Outlet />
              </AdminOnlyRoute>
            ),
            children: [
              {
                path: 'trust-anchors',
                ...lazyRoute(
                  () => import('../../features/trust-anchors/components/trust-anchors-page.tsx'),
                  (m) => m.TrustAnchorsPage,
                  loadWorkspacePagesMessages,
                ),
              },
              {
                path: 'wallet-providers',
                ...lazyRoute(
                  () => import('../../features/wallet-providers/components/wallet-providers-page.tsx'),
                  (m) => m.WalletProvidersPage,
                  loadWorkspacePagesMessages,
                ),
              },
              {
                path: 'integrations',
                ...lazyRoute(
                  () => import('../../features/integrations/components/integrations-page.tsx'),
                  (m) => m.IntegrationsPage,
                  loadWorkspacePagesMessages,
                ),
              },
              {
                path: 'activity',
                ...lazyRoute(
                  () => import('../../features/activity/components/activity-page.tsx'),
                  (m) => m.ActivityPage,
                  loadWorkspacePagesMessages,
                ),
              },
            ],
          },
          {
            path: 'organization/:id?',
            ...lazyRoute(
              () => import('../../features/organizations/components/organization-profile-page.tsx'),
              (m) => m.OrganizationProfilePage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'members',
            ...lazyRoute(
              () => import('../../features/members/components/members-page.tsx'),
              (m) => m.MembersPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'admin/kyb',
            ...lazyRoute(
              () => import('../../features/kyb/components/kyb-review-page.tsx'),
              (m) => m.KybReviewPage,
              loadWorkspacePagesMessages,
            ),
          },
          {
            path: 'settings',
            ...lazyRoute(
              () => import('../../features/users/components/settings-page.tsx'),
              (m) => m.SettingsPage,
              loadWorkspacePagesMessages,
            ),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * Starts fetching the code of every route matching `pathname` at once (the shell and its page), instead of one
 * after the other as each renders: the first paint waits for one round trip, not two.
 */
export function preloadRoutes(pathname: string): Promise<(ComponentType | undefined)[]> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(matches.map(({ route }) => (route.handle as RouteHandle | undefined)?.preload()));
}

/**
 * react-router's `BrowserRouter`, except that a new location is shown only once the code of its routes is in (as the
 * data router did): the current page stays until the next one can render whole, so no navigation shows a blank
 * fallback (the organization list and notifications update through external stores, which would turn a suspended
 * transition into a synchronous render of its fallback). When navigations overlap, the last one wins.
 */
function PreloadingBrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(() => createBrowserHistory({ v5Compat: true }));
  const [state, setState] = useState({ action: history.action, location: history.location });
  useLayoutEffect(() => {
    let latest = 0;
    return history.listen((update) => {
      latest += 1;
      const navigation = latest;
      void preloadRoutes(update.location.pathname)
        .catch(() => undefined)
        .then(() => {
          if (navigation === latest) startTransition(() => setState(update));
        });
    });
  }, [history]);
  return (
    <Router location={state.location} navigationType={state.action} navigator={history}>
      {children}
    </Router>
  );
}

/** When the session cannot be renewed the client has cleared it: forget cached data and go to /intro. */
function SessionExpiredRedirect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    setSessionExpiredHandler(() => {
      queryClient.clear();
      void navigate('/intro', { replace: true });
    });
  }, [navigate, queryClient]);
  return null;
}

function AppRoutes() {
  const element = useRoutes(routes);
  // Only a page whose code failed to preload suspends here (then its error boundary takes over): blank meanwhile.
  return <Suspense fallback={<div />}>{element}</Suspense>;
}

export function AppRouter() {
  return (
    <PreloadingBrowserRouter>
      <SessionExpiredRedirect />
      <AppRoutes />
    </PreloadingBrowserRouter>
  );
}
