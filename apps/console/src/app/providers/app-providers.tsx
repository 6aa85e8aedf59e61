import { createAppTheme } from '@cp/ui';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { LoadingIndicator } from '../../components/loading-indicator.tsx';
import { NotificationCenter } from '../../components/notification-center.tsx';
import { i18n } from '../../i18n/index.ts';
import { IdentityProvider } from './identity-provider.tsx';

const theme = createAppTheme();

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <QueryClientProvider client={queryClient}>
          <IdentityProvider>
            <LoadingIndicator />
            {children}
            <NotificationCenter />
          </IdentityProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </I18nextProvider>
  );
}
