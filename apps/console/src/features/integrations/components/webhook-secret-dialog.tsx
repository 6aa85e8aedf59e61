import type { CreatedWebhook } from '@cp/contracts';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { CopyField } from '../../../components/copy-field.tsx';
import { Trans, useTranslation } from '../../../i18n/index.ts';
import { WEBHOOK_SIGNATURE_EXAMPLE } from './webhook-signature-example.ts';

const code = (
  <Box
    component="code"
    sx={{
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      fontSize: 13,
      px: 0.5,
      borderRadius: 0.5,
      bgcolor: 'grey.100',
      overflowWrap: 'anywhere',
    }}
  />
);

/**
 * Shown once, right after an endpoint is added: its signing secret with a copy button, and how to check
 * the Standard Webhooks signature of a delivery. The secret exists only in this answer, so the dialog
 * closes only by an explicit button.
 */
export function WebhookSecretDialog({ webhook, onClose }: { webhook: CreatedWebhook | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={webhook !== null} fullWidth maxWidth="md" aria-labelledby="webhook-secret-title">
      {webhook && (
        <>
          <DialogTitle id="webhook-secret-title" sx={{ fontWeight: 600 }}>
            {t('integrations.webhooks.secret.title')}
          </DialogTitle>
          <DialogContent>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2, overflowWrap: 'anywhere' }}>
              {t('integrations.webhooks.secret.body', { url: webhook.url })}
            </Typography>
            <Alert
              severity="warning"
              icon={<WarningAmberOutlined />}
              sx={{ mb: 3 }}
              data-testid="webhook-secret-warning"
            >
              {t('integrations.webhooks.secret.warning')}
            </Alert>
            <CopyField
              label={t('integrations.webhooks.secret.label')}
              value={webhook.secret}
              copyLabel={t('integrations.copySecret')}
              copiedTitle={t('integrations.secretCopied')}
              valueTestId="webhook-secret"
              copyTestId="webhook-copy-secret"
            />
            <Typography variant="h4" component="h3" sx={{ mt: 3, mb: 1 }}>
              {t('integrations.webhooks.signature.title')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
              {t('integrations.webhooks.signature.intro')}
            </Typography>
            <Box
              component="ul"
              data-testid="webhook-signature-help"
              sx={{ m: 0, mb: 2, pl: 2.5, '& li': { typography: 'body2', mb: 0.75 } }}
            >
              <li>
                <Trans i18nKey="integrations.webhooks.signature.id" components={{ code }} />
              </li>
              <li>
                <Trans i18nKey="integrations.webhooks.signature.timestamp" components={{ code }} />
              </li>
              <li>
                <Trans i18nKey="integrations.webhooks.signature.signature" components={{ code }} />
              </li>
            </Box>
            <CopyField
              label={t('integrations.webhooks.signature.example')}
              value={WEBHOOK_SIGNATURE_EXAMPLE}
              copyLabel={t('integrations.webhooks.signature.copyCode')}
              multiline
            />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button variant="contained" onClick={onClose} data-testid="webhook-secret-close">
              {t('integrations.secret.done')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
