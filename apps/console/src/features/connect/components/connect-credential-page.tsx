import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassDisabledOutlined from '@mui/icons-material/HourglassDisabledOutlined';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useCredentialConnect } from '../api/get-credential-connect.ts';

function StateCard({ status, icon, title, body }: { status: string; icon: ReactNode; title: string; body: string }) {
  return (
    <Card sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }} data-testid="claim-status" data-status={status}>
      <Box sx={{ fontSize: 56, display: 'flex', justifyContent: 'center', mb: 2 }}>{icon}</Box>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Typography variant="body1" sx={{ color: 'text.secondary' }}>
        {body}
      </Typography>
    </Card>
  );
}

/** /connect/credential/{id}: the holder scans the QR code or opens the offer in a wallet; no sign-in. */
export function ConnectCredentialPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const connect = useCredentialConnect(id);
  const config = usePublicConfig();
  const data = connect.data;

  let content: ReactNode;
  if (connect.isError) {
    const missing = isApiError(connect.error) && (connect.error.status === 404 || connect.error.status === 400);
    content = (
      <StateCard
        status={missing ? 'NOT_FOUND' : 'ERROR'}
        icon={<ErrorOutlineOutlined fontSize="inherit" color="error" />}
        title={missing ? t('connect.notFoundTitle') : t('catalogue.connectCredential')}
        body={missing ? t('connect.notFoundBody') : t('connect.errorBody')}
      />
    );
  } else if (!data) {
    content = (
      <Card sx={{ p: 3 }}>
        <Skeleton height={40} />
        <Skeleton variant="rectangular" height={220} sx={{ my: 2 }} />
        <Skeleton height={48} />
      </Card>
    );
  } else {
    const issuer = (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, minWidth: 0 }}>
        <Avatar src={data.issuer.logo_url ?? undefined} alt="" sx={{ width: 48, height: 48 }}>
          {data.issuer.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('connect.issuedBy')}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="claim-issuer">
              {data.issuer.name}
            </Typography>
            {data.issuer.verified && (
              <Chip
                size="small"
                color="success"
                variant="outlined"
                icon={<VerifiedOutlined />}
                label={t('connect.verified')}
                data-testid="claim-issuer-verified"
              />
            )}
          </Box>
        </Box>
      </Box>
    );
    if (data.status === 'CLAIMED') {
      content = (
        <StateCard
          status="CLAIMED"
          icon={<CheckCircleOutlined fontSize="inherit" color="success" />}
          title={t('connect.claimedTitle')}
          body={t('connect.claimedBody', { name: data.credential_name, issuer: data.issuer.name })}
        />
      );
    } else if (data.status === 'REVOKED') {
      content = (
        <StateCard
          status="REVOKED"
          icon={<ErrorOutlineOutlined fontSize="inherit" color="error" />}
          title={t('connect.revokedTitle')}
          body={t('connect.revokedBody', { issuer: data.issuer.name })}
        />
      );
    } else if (data.status === 'EXPIRED' || !data.connection_url) {
      content = (
        <StateCard
          status="EXPIRED"
          icon={<HourglassDisabledOutlined fontSize="inherit" color="warning" />}
          title={t('connect.expiredTitle')}
          body={t('connect.expiredBody', { issuer: data.issuer.name })}
        />
      );
    } else {
      const offer = data.connection_url;
      const walletUrl = config.data?.wallet_url;
      const walletLink = walletUrl
        ? `${walletUrl.replace(/\/$/, '')}/receive?offer=${encodeURIComponent(offer)}`
        : null;
      content = (
        <Card sx={{ p: { xs: 2.5, sm: 4 } }} data-testid="claim-status" data-status={data.status}>
          {issuer}
          <Typography
            variant="h5"
            component="h1"
            sx={{ fontWeight: 600, mb: 1, fontSize: { xs: 22, sm: 26 } }}
            data-testid="claim-credential-name"
          >
            {data.credential_name}
          </Typography>
          <Typography variant="body1" sx={{ color: 'text.secondary', mb: 3 }}>
            {t('connect.greeting', { name: data.recipient.first_name })}
          </Typography>
          <Box
            data-testid="claim-qr"
            sx={{ display: 'flex', justifyContent: 'center', p: 2, bgcolor: '#fff', borderRadius: 2, mb: 1 }}
          >
            <QRCodeSVG value={offer} size={220} marginSize={2} title={t('connect.qrTitle')} />
          </Box>
          <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', mb: 3 }}>
            {t('connect.scan')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 1.5 }}>
            <Button
              variant="contained"
              size="large"
              href={walletLink ?? undefined}
              disabled={!walletLink}
              data-testid="claim-open-wallet"
            >
              {t('connect.openWallet')}
            </Button>
            <Button variant="outlined" color="secondary" size="large" href={offer} data-testid="claim-offer-link">
              {t('connect.otherWallet')}
            </Button>
          </Box>
          {data.tx_code_required && (
            <Alert severity="info" sx={{ mt: 3 }} data-testid="claim-pin-hint">
              {t('connect.pinHint')}
            </Alert>
          )}
          {data.expires_at && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 3, textAlign: 'center' }}>
              {t('connect.expires', {
                date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
                  new Date(data.expires_at),
                ),
              })}
            </Typography>
          )}
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 2, textAlign: 'center' }}>
            <Link href={offer} underline="hover" sx={{ overflowWrap: 'anywhere' }}>
              {t('connect.rawLink')}
            </Link>
          </Typography>
        </Card>
      );
    }
  }

  return (
    <Box data-testid="claim-page">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <LanguageSelect testId="claim-language" />
      </Box>
      {content}
    </Box>
  );
}
