import type { CreatedApiKey } from '@cp/contracts';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { CopyField } from '../../../components/copy-field.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { curlExample } from './curl-example.ts';

/**
 * Shown once, right after creation: the key id and the secret with copy buttons. The secret exists only
 * in this answer (the API stores a hash), so the dialog closes only by an explicit button.
 */
export function ApiKeySecretDialog({ apiKey, onClose }: { apiKey: CreatedApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={apiKey !== null} fullWidth maxWidth="sm" aria-labelledby="integration-secret-title">
      {apiKey && (
        <>
          <DialogTitle id="integration-secret-title" sx={{ fontWeight: 600 }}>
            {t('integrations.secret.title', { name: apiKey.name })}
          </DialogTitle>
          <DialogContent>
            <Alert
              severity="warning"
              icon={<WarningAmberOutlined />}
              sx={{ mb: 3 }}
              data-testid="integration-secret-warning"
            >
              {t('integrations.secret.warning')}
            </Alert>
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
              <CopyField
                label={t('integrations.fields.key')}
                value={apiKey.key}
                copyLabel={t('integrations.copyKey')}
                copiedTitle={t('integrations.keyCopied')}
                valueTestId="integration-key"
                copyTestId="integration-copy-key"
              />
              <CopyField
                label={t('integrations.fields.secret')}
                value={apiKey.secret}
                copyLabel={t('integrations.copySecret')}
                copiedTitle={t('integrations.secretCopied')}
                valueTestId="integration-secret"
                copyTestId="integration-copy-secret"
              />
              <CopyField
                label={t('integrations.secret.tryIt')}
                value={curlExample(apiKey.base_url, apiKey.key, apiKey.secret)}
                copyLabel={t('integrations.copyCommand')}
                multiline
              />
            </Box>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button variant="contained" onClick={onClose} data-testid="integration-secret-close">
              {t('integrations.secret.done')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
