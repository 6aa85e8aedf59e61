import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { PublicLayout } from '../shell/public-layout.tsx';
import { RouteError } from './route-error.tsx';
import { RouteGuard } from './route-guard.tsx';

/** Every route of spec §2. Pages load on demand (code-split). */
export const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteError />,
    // Lazy pages resolve before the first paint; nothing to show meanwhile (spec §2: blank while loading).
    hydrateFallbackElement: <div />,
    element: <RouteGuard />,
    children: [
      {
        path: 'intro',
        lazy: async () => ({ Component: (await import('../../features/auth/components/intro-page.tsx')).IntroPage }),
      },
      {
        path: 'oauth/socious',
        lazy: async () => ({
          Component: (await import('../../features/auth/components/oauth-callback-page.tsx')).OAuthCallbackPage,
        }),
      },
      {
        path: 'connect',
        element: <PublicLayout />,
        children: [
          {
            path: 'credential/:id',
            lazy: async () => ({
              Component: (await import('../../features/connect/components/connect-credential-page.tsx'))
                .ConnectCredentialPage,
            }),
          },
          {
            path: 'verification/:id',
            lazy: async () => ({
              Component: (await import('../../features/connect/components/connect-verification-page.tsx'))
                .ConnectVerificationPage,
            }),
          },
          {
            path: 'redirect/:id',
            lazy: async () => ({
              Component: (await import('../../features/connect/components/connect-redirect-page.tsx'))
                .ConnectRedirectPage,
            }),
          },
        ],
      },
      {
        // The shell (menu, organization switcher) is only for signed-in pages: /intro does not download it.
        lazy: async () => ({ Component: (await import('../shell/app-shell.tsx')).AppShell }),
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="/credentials" replace /> },
          {
            path: 'credentials',
            lazy: async () => ({
              Component: (await import('../../features/credentials/components/credentials-empty-page.tsx'))
                .CredentialsEmptyPage,
            }),
          },
          {
            path: 'credentials/create',
            lazy: async () => ({
              Component: (await import('../../features/credentials/components/create-credential-page.tsx'))
                .CreateCredentialPage,
            }),
          },
          {
            path: 'credentials/:orgId',
            lazy: async () => ({
              Component: (await import('../../features/credentials/components/credentials-page.tsx')).CredentialsPage,
            }),
          },
          {
            path: 'schemas',
            lazy: async () => ({
              Component: (await import('../../features/credential-schemas/components/credential-schemas-page.tsx'))
                .CredentialSchemasPage,
            }),
          },
          {
            path: 'schemas/create/:id?',
            lazy: async () => ({
              Component: (
                await import('../../features/credential-schemas/components/create-credential-schema-page.tsx')
              ).CreateCredentialSchemaPage,
            }),
          },
          {
            path: 'verifications',
            lazy: async () => ({
              Component: (await import('../../features/verifications/components/verifications-page.tsx'))
                .VerificationsPage,
            }),
          },
          {
            path: 'verifications/create',
            lazy: async () => ({
              Component: (await import('../../features/verifications/components/verification-form-page.tsx'))
                .VerificationFormPage,
            }),
          },
          {
            path: 'verifications/edit/:id',
            lazy: async () => ({
              Component: (await import('../../features/verifications/components/verification-form-page.tsx'))
                .VerificationFormPage,
            }),
          },
          {
            path: 'integrations',
            lazy: async () => ({
              Component: (await import('../../features/integrations/components/integrations-page.tsx'))
                .IntegrationsPage,
            }),
          },
          {
            path: 'organization/:id?',
            lazy: async () => ({
              Component: (await import('../../features/organizations/components/organization-profile-page.tsx'))
                .OrganizationProfilePage,
            }),
          },
          {
            path: 'admin/kyb',
            lazy: async () => ({
              Component: (await import('../../features/kyb/components/kyb-review-page.tsx')).KybReviewPage,
            }),
          },
          {
            path: 'settings',
            lazy: async () => ({
              Component: (await import('../../features/users/components/settings-page.tsx')).SettingsPage,
            }),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
