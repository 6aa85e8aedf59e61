import { createAppTheme } from '@cp/ui';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n/index.ts';
import { VaultProvider } from './vault-context.tsx';

const theme = createAppTheme();

export function AppProviders({ children, dbName }: { children: ReactNode; dbName?: string }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <VaultProvider dbName={dbName}>{children}</VaultProvider>
      </ThemeProvider>
    </I18nextProvider>
  );
}
