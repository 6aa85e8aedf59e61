import type { Verification } from '@cp/contracts';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useId, useRef } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { useIsOrganizationAdmin } from '../../../lib/organization-role.ts';
import { absoluteLink } from './format.ts';
import { VerificationLinkSecretPanel } from './verification-link-secret-panel.tsx';

/**
 * The holder link as a QR code, to show on a screen or print; the link itself to copy or open; and, for
 * integrators, how to sign links for their own customers.
 */
export function VerificationQrDialog({
  organizationId,
  verification,
  onCopy,
  onClose,
}: {
  organizationId: string;
  verification: Verification | null;
  onCopy: (verification: Verification) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  // The link secret is an integration secret: admins only (the API refuses members).
  const canSeeLinkSecret = useIsOrganizationAdmin();
  // Keeps showing the verification while the dialog fades out.
  const shown = useRef<Verification | null>(null);
  if (verification) shown.current = verification;
  const current = shown.current;
  const link = current ? absoluteLink(current.link) : '';
  return (
    <Dialog open={verification !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      {current && (
        <>
          <DialogTitle id={titleId} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {current.name}
          </DialogTitle>
          <DialogContent data-testid="verification-qr-dialog">
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
              {t(current.type === 'SINGLE' ? 'verifications.qr.bodySingle' : 'verifications.qr.bodyMulti')}
            </Typography>
            <Box
              data-testid="verification-qr-code"
              data-value={link}
              sx={{ display: 'flex', justifyContent: 'center', p: 2, bgcolor: '#fff', borderRadius: 2 }}
            >
              <QRCodeSVG value={link} size={220} marginSize={2} title={t('verifications.qr.title')} />
            </Box>
            <Typography
              variant="caption"
              component="p"
              sx={{ color: 'text.secondary', textAlign: 'center', mt: 1.5, overflowWrap: 'anywhere' }}
              data-testid="verification-qr-link"
            >
              {link}
            </Typography>
            {canSeeLinkSecret && (
              <>
                <Divider sx={{ my: 2.5 }} />
                <VerificationLinkSecretPanel
                  key={current.id}
                  organizationId={organizationId}
                  verification={current}
                  link={link}
                />
              </>
            )}
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5, flexWrap: 'wrap', gap: 1 }}>
            <Button color="secondary" startIcon={<ContentCopyOutlined />} onClick={() => onCopy(current)}>
              {t('verifications.list.copyLink')}
            </Button>
            <Button
              color="secondary"
              startIcon={<OpenInNewOutlined />}
              href={link}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('verifications.qr.open')}
            </Button>
            <Button variant="contained" onClick={onClose}>
              {t('common.close')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
