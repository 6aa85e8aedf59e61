import type { Credential, CredentialDeliveryStatus, CredentialMailLocale } from '@cp/contracts';
import { ProblemCode } from '@cp/contracts';
import { LANGUAGES as credentialMailLocales } from '@cp/contracts/languages';
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError, isNotFound } from '../../../lib/api-error.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { notify } from '../../../lib/notifications.ts';
import { problemMessage } from '../../../lib/problem-messages.ts';
import { useDeleteCredentials } from '../api/delete-credentials.ts';
import { useCredentialDeliveries } from '../api/find-credential-deliveries.ts';
import { useCredential } from '../api/get-credential.ts';
import { useResendCredential } from '../api/resend-credential.ts';
import { useRevokeCredentials } from '../api/revoke-credentials.ts';
import { CredentialStatusChip } from './credential-status-chip.tsx';
import { formatDateTime } from './format.ts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 2, py: 0.75, flexWrap: 'wrap' }}>
      <Typography variant="body2" sx={{ color: 'text.secondary', minWidth: 140 }}>
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

const MAIL_LOCALES: readonly CredentialMailLocale[] = credentialMailLocales;
/** The e-mail goes out in the sender's language (the console's), English when the console shows another. */
const mailLocale = (language: string): CredentialMailLocale =>
  MAIL_LOCALES.find((locale) => language === locale || language.startsWith(`${locale}-`)) ?? 'en';

const deliveryColor: Record<CredentialDeliveryStatus, 'default' | 'info' | 'success' | 'error'> = {
  QUEUED: 'default',
  SENDING: 'info',
  SENT: 'success',
  FAILED: 'error',
};

/** A credential the recipient can still claim: its link can be shared and its e-mail sent again. */
const isClaimable = (credential: Credential) =>
  credential.status === 'CREATED' || credential.status === 'ISSUED' || credential.status === 'EXPIRED';

/**
 * The detail of one credential: claims, recipient, schema, its events with times, every e-mail sent with its
 * status, and what can be done with it (revoke and delete behind a confirmation, resend the claim e-mail,
 * copy the claim link).
 */
export function CredentialDetailDialog({
  organizationId,
  credential,
  onClose,
  onCopyLink,
}: {
  organizationId: string;
  credential: Credential | null;
  onClose: () => void;
  onCopyLink: (credential: Credential) => void;
}) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const fresh = useCredential(organizationId, credential?.id ?? null);
  const deliveries = useCredentialDeliveries(organizationId, credential?.id ?? null);
  const revoke = useRevokeCredentials(organizationId);
  const remove = useDeleteCredentials(organizationId);
  const resend = useResendCredential(organizationId);
  const [confirming, setConfirming] = useState<'revoke' | 'delete' | null>(null);
  // Deleted meanwhile (another tab, a colleague, the API): say so, and offer nothing that could not work.
  const gone = fresh.isError && isNotFound(fresh.error);
  const shown = fresh.data ?? credential;
  const events = shown
    ? (
        [
          ['created', shown.created_at],
          ['issued', shown.issued_at],
          ['emailed', shown.emailed_at],
          ['claimed', shown.claimed_at],
          ['revoked', shown.revoked_at],
        ] as const
      ).filter(([, at]) => Boolean(at))
    : [];

  const confirm = async () => {
    if (!shown) return;
    try {
      if (confirming === 'revoke') {
        await revoke.mutateAsync([shown.id]);
        notify({ severity: 'success', title: t('issuing.list.revoked', { count: 1 }) });
      } else {
        await remove.mutateAsync([shown.id]);
        notify({ severity: 'success', title: t('issuing.list.deleted', { count: 1 }) });
        onClose();
      }
    } catch {
      notify({
        severity: 'error',
        title: t(confirming === 'revoke' ? 'catalogue.revokeCredentials' : 'catalogue.deleteCredentials'),
      });
    } finally {
      setConfirming(null);
    }
  };

  const resendEmail = async () => {
    if (!shown) return;
    try {
      await resend.mutateAsync({ id: shown.id, locale: mailLocale(i18n.language) });
      notify({ severity: 'success', title: t('issuing.detail.resent') });
    } catch (error) {
      const tooSoon = isApiError(error) && error.is(ProblemCode.CREDENTIAL_RESEND_TOO_SOON);
      notify({
        severity: tooSoon ? 'warning' : 'error',
        title: problemMessage(t, error, 'issuing.detail.resendFailed'),
      });
    }
  };

  const history = deliveries.data?.results ?? [];
  return (
    <Dialog open={Boolean(credential)} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      {shown && (
        <>
          <DialogTitle sx={{ fontWeight: 600, display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Box component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {shown.name}
            </Box>
            <CredentialStatusChip id={`detail-${shown.id}`} status={shown.status} />
          </DialogTitle>
          <DialogContent data-testid="credential-detail">
            {gone && (
              <Alert severity="warning" sx={{ mb: 2 }} data-testid="credential-detail-gone">
                <AlertTitle>{t('errors.gone.credential.title')}</AlertTitle>
                {t('errors.gone.credential.body')}
              </Alert>
            )}
            {!gone && isClaimable(shown) && (
              // What an operator does for a recipient still to claim: send the e-mail again, or the link.
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
                <Button
                  variant="outlined"
                  size="small"
                  startIcon={<ForwardToInboxOutlined />}
                  onClick={() => void resendEmail()}
                  disabled={resend.isPending}
                  data-testid="credential-detail-resend"
                >
                  {t('issuing.detail.resend')}
                </Button>
                <Button
                  variant="outlined"
                  color="secondary"
                  size="small"
                  startIcon={<ContentCopyOutlined />}
                  onClick={() => onCopyLink(shown)}
                  data-testid="credential-detail-copy-link"
                >
                  {t('issuing.detail.copyLink')}
                </Button>
              </Box>
            )}
            <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
              {t('issuing.detail.recipient')}
            </Typography>
            <Row label={t('issuing.detail.name')}>
              {shown.recipient.first_name} {shown.recipient.last_name}
            </Row>
            <Row label={t('issuing.detail.email')}>{shown.recipient.email}</Row>
            <Row label={t('issuing.detail.schema')}>{credentialSchemaText(shown.schema, i18n).name}</Row>
            {shown.description && <Row label={t('issuing.detail.description')}>{shown.description}</Row>}
            <Divider sx={{ my: 1.5 }} />
            <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
              {t('issuing.detail.claims')}
            </Typography>
            {Object.entries(shown.claims).map(([name, value]) => (
              <Row key={name} label={name}>
                <span data-testid={`credential-claim-${name}`}>{String(value)}</span>
              </Row>
            ))}
            <Divider sx={{ my: 1.5 }} />
            <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
              {t('issuing.detail.events')}
            </Typography>
            {events.map(([event, at]) => (
              <Row key={event} label={t(`issuing.detail.event.${event}`)}>
                <span data-testid={`credential-event-${event}`}>{formatDateTime(at, i18n.language)}</span>
              </Row>
            ))}
            <Row label={t('issuing.detail.delivery')}>
              <span data-testid="credential-delivery">
                {shown.emailed_at ? t('issuing.detail.delivered') : t('issuing.detail.notDelivered')}
              </span>
            </Row>
            {shown.expired_at && (
              <Row label={t('issuing.detail.expires')}>{formatDateTime(shown.expired_at, i18n.language)}</Row>
            )}
            {/* Which trusted wallet provider vouched for the holder's wallet and key when it was claimed. */}
            {shown.wallet_attestation && (
              <Row label={t('issuing.detail.walletAttestation')}>
                <span data-testid="credential-wallet-attestation">
                  {shown.wallet_attestation.wallet_name
                    ? t('issuing.detail.walletAttestationNamed', {
                        provider: shown.wallet_attestation.provider_name,
                        wallet: shown.wallet_attestation.wallet_name,
                      })
                    : shown.wallet_attestation.provider_name}
                </span>
              </Row>
            )}
            {shown.key_attestation && (
              <Row label={t('issuing.detail.keyAttestation')}>
                <span data-testid="credential-key-attestation">
                  {[shown.key_attestation.provider_name, ...(shown.key_attestation.key_storage ?? [])].join(' · ')}
                </span>
              </Row>
            )}
            <Divider sx={{ my: 1.5 }} />
            <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
              {t('issuing.detail.emails')}
            </Typography>
            <Box component="ol" data-testid="credential-emails" sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {deliveries.data && history.length === 0 && (
                <Typography component="li" variant="body2" sx={{ color: 'text.secondary', py: 0.75 }}>
                  {t('issuing.detail.emailsNone')}
                </Typography>
              )}
              {history.map((delivery) => (
                <Box
                  component="li"
                  key={delivery.id}
                  data-testid={`credential-email-${delivery.sequence}`}
                  data-status={delivery.status}
                  sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 0.75, flexWrap: 'wrap' }}
                >
                  <Typography variant="body2" sx={{ color: 'text.secondary', minWidth: 140 }}>
                    {t('issuing.detail.emailNumber', { number: delivery.sequence })}
                  </Typography>
                  <Chip
                    size="small"
                    variant={delivery.status === 'QUEUED' ? 'outlined' : 'filled'}
                    color={deliveryColor[delivery.status]}
                    label={t(`issuing.detail.deliveryStatus.${delivery.status}`)}
                  />
                  <Typography variant="body2">
                    {formatDateTime(delivery.sent_at ?? delivery.created_at, i18n.language)}
                  </Typography>
                </Box>
              ))}
            </Box>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5, pt: 1.5, gap: 1, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
            {!gone && shown.status !== 'REVOKED' && (
              <Button
                color="warning"
                startIcon={<BlockOutlined />}
                onClick={() => setConfirming('revoke')}
                data-testid="credential-detail-revoke"
              >
                {t('issuing.detail.revoke')}
              </Button>
            )}
            {!gone && (
              <Button
                color="error"
                startIcon={<DeleteOutlineOutlined />}
                onClick={() => setConfirming('delete')}
                data-testid="credential-detail-delete"
              >
                {t('issuing.detail.delete')}
              </Button>
            )}
            <Box sx={{ flex: 1 }} />
            <Button variant="contained" onClick={onClose} data-testid="credential-detail-close">
              {t('issuing.detail.close')}
            </Button>
          </DialogActions>
        </>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={t(confirming === 'delete' ? 'issuing.detail.deleteTitle' : 'issuing.detail.revokeTitle')}
        body={t(confirming === 'delete' ? 'issuing.detail.deleteBody' : 'issuing.detail.revokeBody')}
        confirmLabel={t(confirming === 'delete' ? 'issuing.detail.delete' : 'issuing.detail.revoke')}
        busy={revoke.isPending || remove.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirm()}
        confirmTestId={
          confirming === 'delete' ? 'credential-detail-delete-confirm' : 'credential-detail-revoke-confirm'
        }
      />
    </Dialog>
  );
}
