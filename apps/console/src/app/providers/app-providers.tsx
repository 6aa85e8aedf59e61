import { createAppTheme } from '@cp/ui';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { LoadingIndicator } from '../../components/loading-indicator.tsx';
import { notificationStore } from '../../lib/notifications.ts';
import { IdentityProvider } from './identity-provider.tsx';

const theme = createAppTheme();

const loadNotificationCenter = () => import('../../components/notification-center.tsx');
const NotificationCenter = lazy(async () => ({ default: (await loadNotificationCenter()).NotificationCenter }));

/**
 * The snackbar's code (Snackbar, Alert, transitions) is not part of the first screen (issue 8): it is fetched once
 * the page is idle, and rendered from the first notification on.
 */
function LazyNotificationCenter() {
  const notification = useSyncExternalStore(notificationStore.subscribe, notificationStore.get, notificationStore.get);
  const [used, setUsed] = useState(false);
  if (notification && !used) setUsed(true);
  useEffect(() => {
    const prefetch = () => void loadNotificationCenter().catch(() => undefined);
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = window.setTimeout(prefetch, 1000);
      return () => window.clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(prefetch, { timeout: 3000 });
    return () => window.cancelIdleCallback(handle);
  }, []);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <NotificationCenter />
    </Suspense>
  );
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <IdentityProvider>
          <LoadingIndicator />
          {children}
          <LazyNotificationCenter />
        </IdentityProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
