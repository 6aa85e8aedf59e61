import type { Credential } from '@cp/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { useCredential } from '../api/get-credential.ts';
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

/** The detail of one credential: claims, recipient, schema, its events with times and the delivery status. */
export function CredentialDetailDialog({
  organizationId,
  credential,
  onClose,
}: {
  organizationId: string;
  credential: Credential | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const fresh = useCredential(organizationId, credential?.id ?? null);
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
  return (
    <Dialog open={Boolean(credential)} onClose={onClose} fullWidth maxWidth="sm">
      {shown && (
        <>
          <DialogTitle sx={{ fontWeight: 600, display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            {shown.name}
            <CredentialStatusChip id={`detail-${shown.id}`} status={shown.status} />
          </DialogTitle>
          <DialogContent data-testid="credential-detail">
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
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button color="secondary" onClick={onClose}>
              {t('issuing.detail.close')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
