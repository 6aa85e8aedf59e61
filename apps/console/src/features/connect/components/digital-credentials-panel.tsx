import PhonelinkLockOutlined from '@mui/icons-material/PhonelinkLockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../../../i18n/index.ts';
import { DigitalCredentialsError } from '../api/present-with-digital-credentials.ts';
import { usePresentWithDigitalCredentials } from '../hooks/use-present-with-digital-credentials.ts';

/**
 * "Use a wallet on this device": the browser asks a wallet through the Digital Credentials API (shown only
 * where the browser supports it). Whatever happens, the QR code below stays: a closed sheet or an error
 * says so and the holder can try again or scan.
 */
export function DigitalCredentialsPanel({ id, buttonSx }: { id: string; buttonSx?: SxProps<Theme> }) {
  const { t } = useTranslation();
  const present = usePresentWithDigitalCredentials(id);
  const reason = present.error instanceof DigitalCredentialsError ? present.error.reason : 'BROWSER_ERROR';
  return (
    <Box sx={{ mb: 3 }} data-testid="verification-dc-api">
      <Button
        variant="contained"
        size="large"
        fullWidth
        startIcon={
          present.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : <PhonelinkLockOutlined />
        }
        disabled={present.isPending || present.isSuccess}
        onClick={() => present.mutate()}
        data-testid="verification-dc-api-button"
        sx={[{ py: 1.5 }, ...(Array.isArray(buttonSx) ? buttonSx : buttonSx ? [buttonSx] : [])]}
      >
        {t('connect.verification.dcApi.button')}
      </Button>
      <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', mt: 1 }} aria-live="polite">
        {present.isPending ? t('connect.verification.dcApi.waiting') : t('connect.verification.dcApi.hint')}
      </Typography>
      {present.isError && (
        <Alert
          severity={reason === 'CANCELLED' ? 'info' : 'warning'}
          sx={{ mt: 2 }}
          data-testid="verification-dc-api-error"
          data-reason={reason}
        >
          {t(`connect.verification.dcApi.failure.${reason}`)}
        </Alert>
      )}
      <Divider sx={{ mt: 3, color: 'text.secondary', typography: 'body2' }}>
        {t('connect.verification.dcApi.or')}
      </Divider>
    </Box>
  );
}
