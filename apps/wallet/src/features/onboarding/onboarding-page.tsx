import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import WalletOutlined from '@mui/icons-material/WalletOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useVaultState } from '../../app/vault-context.tsx';

export const MIN_PASSCODE_LENGTH = 6;

/** The frame of the first-use and locked screens: the page is its `<main>`, a skip link still comes first. */
export function AuthLayout({ children, testId }: { children: React.ReactNode; testId: string }) {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      data-testid={testId}
      sx={{
        minHeight: '100dvh',
        display: 'grid',
        placeItems: 'center',
        px: 2,
        py: 4,
        bgcolor: 'background.default',
      }}
    >
      <SkipLink label={t('app.skipToContent')} />
      <Card sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
        <Box
          sx={{
            width: 56,
            height: 56,
            mb: 2.5,
            borderRadius: 3,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
          }}
        >
          <WalletOutlined sx={{ fontSize: 30 }} />
        </Box>
        {children}
      </Card>
    </Box>
  );
}

/** First use: explains the wallet, then a passcode (twice) protects the new holder key. */
export function OnboardingPage() {
  const { t } = useTranslation();
  const { create } = useVaultState();
  const [passcode, setPasscode] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const tooShort = passcode.length < MIN_PASSCODE_LENGTH;
  const mismatch = confirm !== passcode;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (tooShort || mismatch) return;
    setBusy(true);
    setFailed(false);
    try {
      await create(passcode);
    } catch (error) {
      console.error(error);
      setFailed(true);
      setBusy(false);
    }
  }

  const points = [
    { icon: <KeyOutlined />, text: t('onboarding.pointKeys') },
    { icon: <LockOutlined />, text: t('onboarding.pointEncrypted') },
    { icon: <VerifiedUserOutlined />, text: t('onboarding.pointConsent') },
  ];

  return (
    <AuthLayout testId="wallet-onboarding">
      <Typography variant="h2" component="h1">
        {t('onboarding.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mt: 1 }}>{t('onboarding.intro')}</Typography>
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, my: 3 }}>
        {points.map((point) => (
          <Box component="li" key={point.text} sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
            <Box sx={{ color: 'primary.main', display: 'flex' }}>{point.icon}</Box>
            <Typography variant="body2">{point.text}</Typography>
          </Box>
        ))}
      </Stack>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
          {t('onboarding.choosePasscode')}
        </Typography>
        <Stack spacing={2}>
          <TextField
            label={t('onboarding.passcode')}
            type="password"
            autoComplete="new-password"
            value={passcode}
            onChange={(event) => setPasscode(event.target.value)}
            error={submitted && tooShort}
            helperText={
              submitted && tooShort
                ? t('onboarding.tooShort', { count: MIN_PASSCODE_LENGTH })
                : t('onboarding.passcodeHelp', { count: MIN_PASSCODE_LENGTH })
            }
            slotProps={{ htmlInput: { 'data-testid': 'wallet-passcode' } }}
            fullWidth
          />
          <TextField
            label={t('onboarding.confirm')}
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            error={submitted && !tooShort && mismatch}
            helperText={submitted && !tooShort && mismatch ? t('onboarding.mismatch') : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'wallet-passcode-confirm' } }}
            fullWidth
          />
          {failed && <Alert severity="error">{t('onboarding.failed')}</Alert>}
          <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="wallet-create">
            {busy ? t('onboarding.creating') : t('onboarding.create')}
          </Button>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
