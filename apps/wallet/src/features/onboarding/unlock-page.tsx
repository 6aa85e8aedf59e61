import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useVaultState } from '../../app/vault-context.tsx';
import { AuthLayout } from './onboarding-page.tsx';

/** Shown in place of any page while the vault is locked; the page itself renders once unlocked. */
export function UnlockPage() {
  const { t } = useTranslation();
  const { unlock } = useVaultState();
  const [passcode, setPasscode] = useState('');
  const [wrong, setWrong] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!passcode) return;
    setBusy(true);
    setWrong(false);
    let ok = false;
    try {
      ok = await unlock(passcode);
    } catch (error) {
      console.error(error);
    }
    if (!ok) {
      setWrong(true);
      setBusy(false);
    }
  }

  return (
    <AuthLayout testId="wallet-unlock-screen">
      <Typography variant="h2" component="h1">
        {t('unlock.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mt: 1, mb: 3 }}>{t('unlock.subtitle')}</Typography>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <TextField
            label={t('unlock.passcode')}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={passcode}
            onChange={(event) => setPasscode(event.target.value)}
            error={wrong}
            slotProps={{ htmlInput: { 'data-testid': 'wallet-passcode' } }}
            fullWidth
          />
          {wrong && <Alert severity="error">{t('unlock.wrong')}</Alert>}
          <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="wallet-unlock">
            {t('unlock.submit')}
          </Button>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('unlock.forgot')}
          </Typography>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
