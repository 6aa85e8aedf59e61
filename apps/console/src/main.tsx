import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers/app-providers.tsx';
import { AppRouter, preloadRoutes } from './app/routes/router.tsx';
import { RootErrorBoundary } from './components/root-error-boundary.tsx';
import { i18nReady } from './i18n/index.ts';
import { createQueryClient } from './lib/query-client.ts';

const queryClient = createQueryClient();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The first route's code (and the shell's) is fetched alongside the language's messages; render once both are in,
// so the first paint is in the right language and not a blank page waiting for its code. A chunk that fails to load
// is reported by the route's error boundary when it renders.
const firstRoute = preloadRoutes(window.location.pathname).catch(() => undefined);
void Promise.all([i18nReady, firstRoute]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RootErrorBoundary>
          <AppRouter />
        </RootErrorBoundary>
      </AppProviders>
    </StrictMode>,
  ),
);
