import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { recheckCredential, type StoredCredential } from '../../app/core-api.ts';
import { useVault } from '../../app/vault-context.tsx';
import { ClaimList } from '../../components/claim-list.tsx';
import { CredentialFace, credentialName } from '../../components/credential-face.tsx';
import { formatDate, orderedClaimNames } from '../../components/format.ts';
import { useFormatName } from '../../components/format-label.tsx';
import { IssuerAssuranceNote } from '../../components/issuer-assurance.tsx';
import { IssuerSummary } from '../../components/issuer-summary.tsx';
import { Section } from '../../components/section.tsx';
import { StatusChip } from '../../components/status-chip.tsx';
import { currentLanguage } from '../../i18n/index.ts';

function DateRow({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.75 }}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ textAlign: 'right' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** `checking`: a check is under way; `answered` / `failed`: how the last check made on this page ended. */
type CheckState = 'idle' | 'checking' | 'answered' | 'failed';

/**
 * One credential. Each time it is opened, its status is checked again against the issuer's status list
 * (and who vouches for its issuer is decided when the wallet does not know it yet).
 */
export function CredentialDetailPage() {
  const { t } = useTranslation();
  const vault = useVault();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const justReceived = (location.state as { received?: boolean } | null)?.received === true;
  const [credential, setCredential] = useState<StoredCredential | null | undefined>(undefined);
  const [check, setCheck] = useState<CheckState>('idle');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const locale = currentLanguage();
  const formatName = useFormatName();
  const checking = check === 'checking';

  const recheck = useCallback(
    async (current: StoredCredential, isActive: () => boolean = () => true) => {
      setCheck('checking');
      try {
        const result = await recheckCredential(current);
        // Deleted meanwhile (the check can take a while): never write it back.
        if (!isActive() || !(await vault.getCredential(current.id))) return;
        if (JSON.stringify(result.credential) !== JSON.stringify(current)) {
          await vault.saveCredential(result.credential);
        }
        setCredential(result.credential);
        setCheck(result.answered ? 'answered' : 'failed');
      } catch (error) {
        console.warn('Status check', error);
        if (isActive()) setCheck('failed');
      }
    },
    [vault],
  );

  useEffect(() => {
    let active = true;
    vault
      .getCredential(id)
      .then((found) => {
        if (!active) return;
        setCredential(found ?? null);
        if (found) void recheck(found, () => active);
      })
      .catch(() => active && setCredential(null));
    return () => {
      active = false;
    };
  }, [vault, id, recheck]);

  async function remove(current: StoredCredential) {
    await vault.deleteCredential(current.id);
    navigate('/', { replace: true });
  }

  if (credential === undefined) return <LinearProgress aria-label={t('app.loading')} />;
  if (credential === null) {
    return (
      <Alert
        severity="warning"
        action={
          <Button component={Link} to="/" color="inherit">
            {t('app.goHome')}
          </Button>
        }
      >
        {t('credentials.notFound')}
      </Alert>
    );
  }

  const name = credentialName(credential.display, credential.vct);
  return (
    <Stack spacing={2}>
      <Box>
        <Button component={Link} to="/" startIcon={<ArrowBack />} sx={{ ml: -1 }}>
          {t('nav.credentials')}
        </Button>
      </Box>
      {justReceived && (
        <Alert severity="success" data-testid="credential-received">
          {t('credentials.received')}
        </Alert>
      )}
      <Card
        sx={{ borderRadius: 3, overflow: 'hidden' }}
        data-testid="credential-detail"
        data-status={credential.lastStatus.toLowerCase()}
      >
        <CredentialFace
          display={credential.display}
          issuer={credential.issuer}
          fallbackName={credential.vct}
          badge={<StatusChip status={credential.lastStatus} />}
          nameComponent="h1"
          format={credential.format}
        />
      </Card>
      <Section title={t('detail.claims')}>
        <ClaimList
          names={orderedClaimNames(credential)}
          claims={credential.claims}
          claimDisplay={credential.claimDisplay}
        />
      </Section>
      <Section title={t('detail.issuer')}>
        <Stack spacing={1.5}>
          <IssuerSummary issuer={credential.issuer} />
          <IssuerAssuranceNote
            assurance={credential.issuer.assurance}
            phase={checking && !credential.issuer.assurance ? 'checking' : 'stored'}
          />
        </Stack>
      </Section>
      <Section title={t('detail.format')}>
        <Box data-testid="credential-format-detail" data-format={credential.format}>
          <Typography>{formatName(credential.format)}</Typography>
          {credential.mdoc && (
            <Typography variant="caption" sx={{ display: 'block', color: 'text.secondary', wordBreak: 'break-all' }}>
              {t('detail.docType')}: {credential.mdoc.docType}
            </Typography>
          )}
        </Box>
      </Section>
      <Section title={t('detail.dates')}>
        {credential.issuedAt && (
          <DateRow label={t('detail.issuedAt')} value={formatDate(credential.issuedAt, locale)} />
        )}
        <DateRow
          label={t('detail.expiresAt')}
          value={credential.expiresAt ? formatDate(credential.expiresAt, locale) : t('detail.noExpiry')}
        />
        <DateRow label={t('detail.receivedAt')} value={formatDate(credential.receivedAt, locale)} />
      </Section>
      <Section title={t('detail.status')}>
        <Box
          sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}
          data-testid="credential-status"
          data-check={check}
        >
          <Box>
            <StatusChip status={credential.lastStatus} size="medium" />
            <Typography
              variant="caption"
              sx={{ display: 'block', color: 'text.secondary', mt: 0.5 }}
              data-testid="credential-last-checked"
            >
              {checking
                ? t('detail.checkingStatus')
                : credential.lastCheckedAt
                  ? t('detail.lastChecked', { date: formatDate(credential.lastCheckedAt, locale, true) })
                  : t('detail.neverChecked')}
            </Typography>
          </Box>
          <Button
            variant="outlined"
            startIcon={<Refresh />}
            onClick={() => recheck(credential)}
            disabled={checking}
            data-testid="credential-recheck"
          >
            {t('detail.recheck')}
          </Button>
        </Box>
        {checking && <LinearProgress sx={{ mt: 1.5, borderRadius: 1 }} aria-label={t('credentials.checking')} />}
        {check === 'failed' && (
          <Alert severity="warning" sx={{ mt: 1.5 }} data-testid="credential-check-failed">
            {t('detail.recheckFailed')}{' '}
            {credential.lastCheckedAt && credential.lastStatus !== 'UNKNOWN' ? t('detail.lastKnown') : ''}
          </Alert>
        )}
      </Section>
      <Box>
        <Button
          color="error"
          startIcon={<DeleteOutlined />}
          onClick={() => setConfirmDelete(true)}
          data-testid="credential-delete"
        >
          {t('detail.delete')}
        </Button>
      </Box>
      <Dialog open={confirmDelete} onClose={() => setConfirmDelete(false)}>
        <DialogTitle>{t('detail.deleteTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('detail.deleteBody', { name })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)}>{t('detail.cancel')}</Button>
          <Button
            color="error"
            variant="contained"
            onClick={() => remove(credential)}
            data-testid="credential-delete-confirm"
          >
            {t('detail.confirmDelete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
