import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassDisabledOutlined from '@mui/icons-material/HourglassDisabledOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { brandButtonSx } from '../../../components/organization-band.tsx';
import { WalletQrPanel } from '../../../components/wallet-qr-panel.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useCredentialConnect } from '../api/get-credential-connect.ts';
import { ClaimLabelList } from './claim-label-list.tsx';
import { HolderPage, type HolderParty } from './holder-page.tsx';
import { StateCard } from './state-card.tsx';

const STATUS_TEST_ID = 'claim-status';

/** /connect/credential/{id}: the holder scans the QR code or opens the offer in a wallet; no sign-in. */
export function ConnectCredentialPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const connect = useCredentialConnect(id);
  const config = usePublicConfig();
  const data = connect.data;
  const party: HolderParty | 'loading' | undefined = data
    ? { label: t('connect.issuedBy'), organization: data.issuer, testId: 'claim-issuer' }
    : connect.isError
      ? undefined
      : 'loading';

  let content: ReactNode;
  if (connect.isError) {
    const missing = isApiError(connect.error) && (connect.error.status === 404 || connect.error.status === 400);
    content = (
      <StateCard
        testId={STATUS_TEST_ID}
        status={missing ? 'NOT_FOUND' : 'ERROR'}
        icon={<ErrorOutlineOutlined fontSize="inherit" color="error" />}
        title={missing ? t('connect.notFoundTitle') : t('catalogue.connectCredential')}
        body={missing ? t('connect.notFoundBody') : t('connect.errorBody')}
      />
    );
  } else if (!data) {
    content = (
      <Box sx={{ p: 3 }}>
        <Skeleton height={40} />
        <Skeleton variant="rectangular" height={220} sx={{ my: 2 }} />
        <Skeleton height={48} />
      </Box>
    );
  } else if (data.status === 'CLAIMED') {
    content = (
      <StateCard
        testId={STATUS_TEST_ID}
        status="CLAIMED"
        icon={<CheckCircleOutlined fontSize="inherit" color="success" />}
        title={t('connect.claimedTitle')}
        body={t('connect.claimedBody', { name: data.credential_name, issuer: data.issuer.name })}
      />
    );
  } else if (data.status === 'REVOKED') {
    content = (
      <StateCard
        testId={STATUS_TEST_ID}
        status="REVOKED"
        icon={<ErrorOutlineOutlined fontSize="inherit" color="error" />}
        title={t('connect.revokedTitle')}
        body={t('connect.revokedBody', { issuer: data.issuer.name })}
      />
    );
  } else if (data.status === 'EXPIRED' || !data.connection_url) {
    content = (
      <StateCard
        testId={STATUS_TEST_ID}
        status="EXPIRED"
        icon={<HourglassDisabledOutlined fontSize="inherit" color="warning" />}
        title={t('connect.expiredTitle')}
        body={t('connect.expiredBody', { issuer: data.issuer.name })}
      />
    );
  } else {
    const offer = data.connection_url;
    const walletUrl = config.data?.wallet_url;
    const walletLink = walletUrl ? `${walletUrl.replace(/\/$/, '')}/receive?offer=${encodeURIComponent(offer)}` : null;
    content = (
      <Box sx={{ p: { xs: 2.5, sm: 4 } }} data-testid={STATUS_TEST_ID} data-status={data.status}>
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
        <ClaimLabelList title={t('connect.contains')} claims={data.claim_labels} testId="claim-labels" />
        <WalletQrPanel
          value={offer}
          qrTitle={t('connect.qrTitle')}
          qrTestId="claim-qr"
          caption={t('connect.scan')}
          walletLink={walletLink}
          walletLabel={t('connect.openWallet')}
          walletTestId="claim-open-wallet"
          walletButtonSx={brandButtonSx(data.issuer.brand_color)}
        >
          <Button variant="outlined" color="secondary" size="large" href={offer} data-testid="claim-offer-link">
            {t('connect.otherWallet')}
          </Button>
        </WalletQrPanel>
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
      </Box>
    );
  }

  return (
    <HolderPage testId="claim-page" languageTestId="claim-language" party={party}>
      {content}
    </HolderPage>
  );
}
