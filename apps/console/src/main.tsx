import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers/app-providers.tsx';
import { createAppRouter } from './app/routes/router.tsx';
import { RootErrorBoundary } from './components/root-error-boundary.tsx';
import { i18nReady } from './i18n/index.ts';
import { setSessionExpiredHandler } from './lib/api-client.ts';
import { createQueryClient } from './lib/query-client.ts';

const queryClient = createQueryClient();
const router = createAppRouter();

// When the session cannot be renewed the client has cleared it: forget cached data and go to /intro.
setSessionExpiredHandler(() => {
  queryClient.clear();
  void router.navigate('/intro', { replace: true });
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The router already fetches the first route's code; render once the language's messages are in too, so the
// first paint is in the right language.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RootErrorBoundary>
          <RouterProvider router={router} />
        </RootErrorBoundary>
      </AppProviders>
    </StrictMode>,
  ),
);
