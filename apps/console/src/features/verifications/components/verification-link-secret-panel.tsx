import type { Verification } from '@cp/contracts';
import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CopyField } from '../../../components/copy-field.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { useVerificationLinkSecret } from '../api/get-verification-link-secret.ts';
import { useRotateVerificationLinkSecret } from '../api/rotate-verification-link-secret.ts';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 } as const;

/**
 * Customer links for integrators: the verification's link secret (hidden until revealed, copyable, replaceable)
 * and how to sign a holder link with it, so that the customer id in the link is vouched for (the history then
 * says "Verified customer", and the per-customer lookup answers it).
 */
export function VerificationLinkSecretPanel({
  organizationId,
  verification,
  link,
}: {
  organizationId: string;
  verification: Verification;
  /** The holder link as shared (absolute). */
  link: string;
}) {
  const { t } = useTranslation();
  const [isRevealed, setRevealed] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  const secret = useVerificationLinkSecret(organizationId, verification.id, isRevealed);
  const rotate = useRotateVerificationLinkSecret(organizationId, verification.id);

  const confirmRotate = async () => {
    try {
      await rotate.mutateAsync();
      setRevealed(true);
      notify({ severity: 'success', title: t('verifications.linkSecret.rotated') });
    } catch {
      notify({ severity: 'error', title: t('verifications.linkSecret.rotateFailed') });
    } finally {
      setConfirming(false);
    }
  };

  let secretView: React.ReactNode;
  if (!isRevealed) {
    secretView = (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Box component="code" sx={{ ...mono, fontSize: 14, letterSpacing: 2, color: 'text.secondary' }} aria-hidden>
          ••••••••••••••••
        </Box>
        <Button
          size="small"
          variant="outlined"
          color="secondary"
          startIcon={<VisibilityOutlined />}
          onClick={() => setRevealed(true)}
          data-testid="link-secret-reveal"
        >
          {t('verifications.linkSecret.reveal')}
        </Button>
      </Box>
    );
  } else if (secret.data) {
    secretView = (
      <CopyField
        label={t('verifications.linkSecret.secret')}
        value={secret.data.secret}
        copyLabel={t('verifications.linkSecret.copy')}
        copiedTitle={t('verifications.linkSecret.copied')}
        valueTestId="link-secret-value"
        copyTestId="link-secret-copy"
      />
    );
  } else if (secret.isError) {
    secretView = (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ color: 'error.main' }} data-testid="link-secret-error">
          {t('verifications.linkSecret.loadFailed')}
        </Typography>
        <Button size="small" color="secondary" onClick={() => void secret.refetch()}>
          {t('verifications.list.retry')}
        </Button>
      </Box>
    );
  } else {
    secretView = (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('common.loading')}
      </Typography>
    );
  }

  return (
    <Box data-testid="verification-link-secret">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
        <KeyOutlined fontSize="small" sx={{ color: 'text.secondary' }} />
        <Typography variant="subtitle2" component="h3">
          {t('verifications.linkSecret.title')}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {t('verifications.linkSecret.body')}
      </Typography>
      {secretView}
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1.5, mb: 0.5 }}>
        {t('verifications.linkSecret.howTo')}
      </Typography>
      <Box
        component="pre"
        data-testid="link-secret-recipe"
        sx={{
          ...mono,
          m: 0,
          p: 1.5,
          borderRadius: 1,
          bgcolor: 'grey.50',
          border: 1,
          borderColor: 'grey.200',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {`${link}?customer={customer}&expires={unix seconds}&signature={signature}\n\n`}
        {`signature = base64url(HMAC-SHA256(secret, "${verification.id}.{customer}.{expires}"))`}
      </Box>
      <Box sx={{ mt: 1.5 }}>
        <Button
          size="small"
          color="secondary"
          startIcon={<AutorenewOutlined />}
          onClick={() => setConfirming(true)}
          data-testid="link-secret-rotate"
        >
          {t('verifications.linkSecret.rotate')}
        </Button>
      </Box>
      <ConfirmDialog
        open={isConfirming}
        title={t('verifications.linkSecret.rotateTitle')}
        body={t('verifications.linkSecret.rotateBody')}
        confirmLabel={t('verifications.linkSecret.rotateConfirm')}
        busy={rotate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirmRotate()}
        confirmTestId="link-secret-rotate-confirm"
      />
    </Box>
  );
}
