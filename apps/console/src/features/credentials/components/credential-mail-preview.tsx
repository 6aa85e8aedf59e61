import type { CredentialMailPreviewRequest } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { useCredentialMailPreview } from '../api/preview-credential-mail.ts';

/** A common e-mail body width: what most clients show a message at. */
export const EMAIL_WIDTH = 600;
/** The e-mail's frame; the placeholder before it arrives adds the subject above and the note below (80 px). */
const FRAME_HEIGHT = 720;

/**
 * The e-mail as the API renders it for sending (same renderer, placeholder claim link and QR code), shown in a
 * sandboxed iframe: its HTML runs no script and reaches nothing (`sandbox` with no allowances; the console's
 * CSP applies to srcdoc too). Text typed in the wizard is sent after a pause, not at each key.
 */
export function CredentialMailPreview({
  organizationId,
  request,
}: {
  organizationId: string;
  request: CredentialMailPreviewRequest | null;
}) {
  const { t } = useTranslation();
  const [settled, setSettled] = useState(request);
  const key = JSON.stringify(request);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the request's value
  useEffect(() => {
    const timer = setTimeout(() => setSettled(request), 400);
    return () => clearTimeout(timer);
  }, [key]);
  const preview = useCredentialMailPreview(organizationId, settled);
  return (
    <Card
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2 }, bgcolor: 'grey.50', minWidth: 0 }}
      data-testid="email-preview"
    >
      <Typography variant="overline" sx={{ color: 'text.secondary' }}>
        {t('issuing.preview.title')}
      </Typography>
      {preview.isError && <Alert severity="error">{t('issuing.preview.failed')}</Alert>}
      {/* As tall as the loaded preview: what follows (the Send button) does not move when it arrives. */}
      {!preview.data && !preview.isError && <Skeleton variant="rounded" height={FRAME_HEIGHT + 80} />}
      {preview.data && (
        <>
          <Typography
            variant="body2"
            sx={{ fontWeight: 600, mb: 1.5, overflowWrap: 'anywhere' }}
            data-testid="email-preview-subject"
          >
            {t('issuing.preview.subject', { subject: preview.data.subject })}
          </Typography>
          <Box sx={{ maxWidth: EMAIL_WIDTH, mx: 'auto' }}>
            <Box
              component="iframe"
              title={t('issuing.preview.frameTitle')}
              sandbox=""
              srcDoc={preview.data.html}
              data-testid="email-preview-frame"
              sx={{
                display: 'block',
                width: '100%',
                height: FRAME_HEIGHT,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                bgcolor: '#f5f6f8',
              }}
            />
          </Box>
          <Typography variant="caption" sx={{ display: 'block', color: 'text.secondary', mt: 1 }}>
            {t('issuing.preview.note')}
          </Typography>
        </>
      )}
    </Card>
  );
}
