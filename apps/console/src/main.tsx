import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers/app-providers.tsx';
import { createAppRouter } from './app/routes/router.tsx';
import { RootErrorBoundary } from './components/root-error-boundary.tsx';
import { setSessionExpiredHandler } from './lib/api-client.ts';
import { createQueryClient } from './lib/query-client.ts';
import './i18n/index.ts';

const queryClient = createQueryClient();
const router = createAppRouter();

// When the session cannot be renewed the client has cleared it: forget cached data and go to /intro.
setSessionExpiredHandler(() => {
  queryClient.clear();
  void router.navigate('/intro', { replace: true });
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RootErrorBoundary>
        <RouterProvider router={router} />
      </RootErrorBoundary>
    </AppProviders>
  </StrictMode>,
);
