import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { OnboardingPage } from '../features/onboarding/onboarding-page.tsx';
import { UnlockPage } from '../features/onboarding/unlock-page.tsx';
import { Shell } from './shell.tsx';
import { useVaultState } from './vault-context.tsx';

export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center' }}>
      <Box sx={{ textAlign: 'center' }}>
        <CircularProgress aria-label={t('app.loading')} />
        <Typography sx={{ mt: 2, color: 'text.secondary' }}>{t('app.loading')}</Typography>
      </Box>
    </Box>
  );
}

/**
 * Renders onboarding or the unlock screen in place of the requested page, so a deep link
 * (`/receive?offer=…`, `/present?request=…`) continues right where it was once the wallet is open.
 */
export function VaultGate() {
  const { t } = useTranslation();
  const { state } = useVaultState();
  if (state === 'loading') return <FullPageSpinner />;
  if (state === 'failed') {
    return (
      <Box sx={{ maxWidth: 480, mx: 'auto', p: 3 }}>
        <Alert severity="error">{t('app.storageFailed')}</Alert>
      </Box>
    );
  }
  if (state === 'new') return <OnboardingPage />;
  if (state === 'locked') return <UnlockPage />;
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}
