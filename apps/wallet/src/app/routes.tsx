import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Link, Navigate, type RouteObject, useRouteError } from 'react-router';
import { FullPageSpinner, VaultGate } from './vault-gate.tsx';

function RouteError() {
  const { t } = useTranslation();
  console.error(useRouteError());
  return (
    <Box sx={{ maxWidth: 480, mx: 'auto', p: 3 }}>
      <Alert
        severity="error"
        action={
          <Button component={Link} to="/" color="inherit">
            {t('app.goHome')}
          </Button>
        }
      >
        {t('app.routeError')}
      </Alert>
    </Box>
  );
}

/** Every screen is its own chunk (route-level lazy imports keep the first load small). */
export const routes: RouteObject[] = [
  {
    element: <VaultGate />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      {
        index: true,
        lazy: () =>
          import('../features/credentials/credentials-page.tsx').then((m) => ({ Component: m.CredentialsPage })),
      },
      {
        path: 'credentials/:id',
        lazy: () =>
          import('../features/credentials/credential-detail-page.tsx').then((m) => ({
            Component: m.CredentialDetailPage,
          })),
      },
      { path: 'scan', lazy: () => import('../features/scan/scan-page.tsx').then((m) => ({ Component: m.ScanPage })) },
      {
        path: 'receive',
        lazy: () => import('../features/receive/receive-page.tsx').then((m) => ({ Component: m.ReceivePage })),
      },
      {
        path: 'receive/callback',
        lazy: () => import('../features/receive/callback-page.tsx').then((m) => ({ Component: m.CallbackPage })),
      },
      {
        path: 'receive/issuer',
        lazy: () => import('../features/receive/issuer-page.tsx').then((m) => ({ Component: m.IssuerPage })),
      },
      {
        path: 'present',
        lazy: () => import('../features/present/present-page.tsx').then((m) => ({ Component: m.PresentPage })),
      },
      {
        path: 'history',
        lazy: () => import('../features/history/history-page.tsx').then((m) => ({ Component: m.HistoryPage })),
      },
      {
        path: 'settings',
        lazy: () => import('../features/settings/settings-page.tsx').then((m) => ({ Component: m.SettingsPage })),
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export const createWalletRouter = () => createBrowserRouter(routes);
