import AccountBalanceOutlined from '@mui/icons-material/AccountBalanceOutlined';
import QrCodeScannerOutlined from '@mui/icons-material/QrCodeScannerOutlined';
import WalletOutlined from '@mui/icons-material/WalletOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { refreshStatuses, type StoredCredential } from '../../app/core-api.ts';
import { useVault } from '../../app/vault-context.tsx';
import { CredentialFace } from '../../components/credential-face.tsx';
import { PageTitle } from '../../components/section.tsx';
import { StatusChip } from '../../components/status-chip.tsx';

const newestFirst = (a: StoredCredential, b: StoredCredential) => b.receivedAt.localeCompare(a.receivedAt);

/** The credential cards; statuses are re-checked against the status lists each time the list opens. */
export function CredentialsPage() {
  const { t } = useTranslation();
  const vault = useVault();
  const [credentials, setCredentials] = useState<StoredCredential[] | null>(null);
  const [checking, setChecking] = useState(true);

  useEffect(() => {
    let active = true;
    const load = async () => {
      const list = await vault.listCredentials();
      if (active) setCredentials([...list].sort(newestFirst));
    };
    load()
      .then(() => refreshStatuses(vault))
      .then(load)
      .catch((error: unknown) => console.warn('Status refresh', error))
      .finally(() => {
        if (active) setChecking(false);
      });
    return () => {
      active = false;
    };
  }, [vault]);

  return (
    <Box>
      <PageTitle>{t('credentials.title')}</PageTitle>
      {checking && credentials && credentials.length > 0 && (
        <Box sx={{ mb: 2 }} aria-live="polite">
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('credentials.checking')}
          </Typography>
          <LinearProgress sx={{ mt: 0.5, borderRadius: 1 }} aria-label={t('credentials.checking')} />
        </Box>
      )}
      {credentials === null ? (
        <LinearProgress aria-label={t('app.loading')} />
      ) : credentials.length === 0 ? (
        <Card variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <WalletOutlined sx={{ fontSize: 48, color: 'primary.main' }} />
          <Typography variant="h6" component="p" sx={{ mt: 1 }}>
            {t('credentials.empty')}
          </Typography>
          <Typography sx={{ color: 'text.secondary', mt: 1, mb: 3 }}>{t('credentials.emptyHint')}</Typography>
          <Stack spacing={1} sx={{ alignItems: 'center' }}>
            <Button component={Link} to="/scan" variant="contained" startIcon={<QrCodeScannerOutlined />}>
              {t('credentials.scanFirst')}
            </Button>
            <FromIssuerButton />
          </Stack>
        </Card>
      ) : (
        <Stack spacing={2}>
          {credentials.map((credential) => (
            <Card
              key={credential.id}
              data-testid="credential-card"
              data-status={credential.lastStatus.toLowerCase()}
              sx={{ borderRadius: 3, overflow: 'hidden' }}
            >
              <CardActionArea component={Link} to={`/credentials/${encodeURIComponent(credential.id)}`}>
                <CredentialFace
                  display={credential.display}
                  issuer={credential.issuer}
                  fallbackName={credential.vct}
                  badge={<StatusChip status={credential.lastStatus} />}
                  format={credential.format}
                />
              </CardActionArea>
            </Card>
          ))}
          <Box sx={{ textAlign: 'center' }}>
            <FromIssuerButton />
          </Box>
        </Stack>
      )}
    </Box>
  );
}

/** Wallet-initiated issuance: ask an issuer for what it issued to you (e.g. on a new phone). */
function FromIssuerButton() {
  const { t } = useTranslation();
  return (
    <Button component={Link} to="/receive/issuer" startIcon={<AccountBalanceOutlined />} data-testid="from-issuer">
      {t('fromIssuer.entry')}
    </Button>
  );
}
