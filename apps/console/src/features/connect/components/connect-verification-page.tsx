import type { IndividualStatus, VerificationCheckCode, VerificationConnect } from '@cp/contracts';
import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import HourglassDisabledOutlined from '@mui/icons-material/HourglassDisabledOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { brandButtonSx } from '../../../components/organization-band.tsx';
import { WalletQrPanel } from '../../../components/wallet-qr-panel.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useVerificationConnect } from '../api/get-verification-connect.ts';
import { useVerificationOutcome } from '../api/get-verification-outcome.ts';
import { isDigitalCredentialsAvailable } from '../api/present-with-digital-credentials.ts';
import { ClaimLabelList } from './claim-label-list.tsx';
import { DigitalCredentialsPanel } from './digital-credentials-panel.tsx';
import { HolderPage, type HolderParty } from './holder-page.tsx';
import { StateCard } from './state-card.tsx';
import { VerificationUnavailableCard } from './verification-unavailable-card.tsx';

const STATUS_TEST_ID = 'verification-status';

/** The wallet web app's presentation page for an `openid4vp://` request (mirrors the claim page's `/receive`). */
export function walletPresentLink(walletUrl: string, request: string): string {
  return `${walletUrl.replace(/\/$/, '')}/present?request=${encodeURIComponent(request)}`;
}

/**
 * /connect/verification/{individualId}: the holder scans the QR code (or opens the request in a wallet on
 * this device) and the page follows the attempt by itself: waiting for the scan, waiting for the wallet's
 * answer, then verified or failed. No sign-in.
 */
export function ConnectVerificationPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const connect = useVerificationConnect(id);
  const outcome = useVerificationOutcome(id);
  const data = connect.data;
  const failedCall = connect.error ?? outcome.error;
  const party: HolderParty | 'loading' | undefined = data
    ? { label: t('connect.verification.requestedBy'), organization: data.verifier, testId: 'verification-verifier' }
    : failedCall
      ? undefined
      : 'loading';

  let content: ReactNode;
  if (failedCall) {
    const missing = isApiError(failedCall) && (failedCall.status === 404 || failedCall.status === 400);
    content = <VerificationUnavailableCard testId={STATUS_TEST_ID} reason={missing ? 'NOT_FOUND' : 'ERROR'} />;
  } else if (!data) {
    content = (
      <Box sx={{ p: 3 }} data-testid={STATUS_TEST_ID} data-status="LOADING">
        <Skeleton height={40} />
        <Skeleton variant="rectangular" height={220} sx={{ my: 2 }} />
        <Skeleton height={48} />
      </Box>
    );
  } else {
    const status: IndividualStatus = outcome.data?.status ?? data.status;
    const verifier = data.verifier.name;
    if (status === 'VERIFIED') {
      content = (
        <StateCard
          testId={STATUS_TEST_ID}
          status="VERIFIED"
          icon={<CheckCircleOutlined fontSize="inherit" color="success" />}
          title={t('connect.verification.verifiedTitle')}
          body={t('connect.verification.verifiedBody', { verifier })}
        />
      );
    } else if (status === 'FAILED') {
      content = <FailedCard verifier={verifier} codes={outcome.data?.failed_checks ?? []} />;
    } else if (!data.connection_url) {
      content = (
        <StateCard
          testId={STATUS_TEST_ID}
          status="CLOSED"
          icon={<HourglassDisabledOutlined fontSize="inherit" color="warning" />}
          title={t('connect.verification.closedTitle')}
          body={t('connect.verification.closedBody', { verifier })}
        />
      );
    } else {
      content = <RequestCard data={data} request={data.connection_url} status={status} />;
    }
  }

  return (
    <HolderPage testId="verification-page" languageTestId="verification-language" party={party}>
      {content}
    </HolderPage>
  );
}

/** The open request: who asks, what they will see, the QR code and the wallet buttons, and where it stands. */
function RequestCard({
  data,
  request,
  status,
}: {
  data: VerificationConnect;
  request: string;
  status: IndividualStatus;
}) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const [showQrAgain, setShowQrAgain] = useState(false);
  const walletUrl = config.data?.wallet_url;
  const walletLink = walletUrl ? walletPresentLink(walletUrl, request) : null;
  const walletHasRequest = status === 'REQUESTED' && !showQrAgain;
  // Read once: whether this browser can ask a wallet on this device (Digital Credentials API).
  const canUseDigitalCredentials = useMemo(() => isDigitalCredentialsAvailable(), []);

  return (
    <Box sx={{ p: { xs: 2.5, sm: 4 } }} data-testid={STATUS_TEST_ID} data-status={status}>
      <Typography
        variant="h5"
        component="h1"
        sx={{ fontWeight: 600, mb: 1, fontSize: { xs: 22, sm: 26 }, overflowWrap: 'anywhere' }}
        data-testid="verification-name"
      >
        {data.verification.name}
      </Typography>
      {data.verification.description && (
        <Typography variant="body1" sx={{ color: 'text.secondary', mb: 2, whiteSpace: 'pre-line' }}>
          {data.verification.description}
        </Typography>
      )}
      <ClaimLabelList
        title={t('connect.verification.asksToShare', { verifier: data.verifier.name })}
        claims={data.requested_claim_labels}
        testId="verification-claims"
      />

      {walletHasRequest ? (
        <Box
          data-testid="verification-wallet-waiting"
          aria-live="polite"
          sx={{
            textAlign: 'center',
            px: 2,
            py: 4,
            borderRadius: 2,
            bgcolor: 'primary.50',
            border: 1,
            borderColor: 'primary.100',
          }}
        >
          <CircularProgress size={44} sx={{ mb: 2 }} aria-hidden />
          <Typography variant="h6" component="h2" sx={{ fontWeight: 600, mb: 0.5 }}>
            {t('connect.verification.requestedTitle')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', maxWidth: 420, mx: 'auto' }}>
            {t('connect.verification.requestedBody')}
          </Typography>
          <Button size="small" sx={{ mt: 2 }} onClick={() => setShowQrAgain(true)} data-testid="verification-show-qr">
            {t('connect.verification.showQrAgain')}
          </Button>
        </Box>
      ) : (
        <>
          {canUseDigitalCredentials && (
            <DigitalCredentialsPanel id={data.id} buttonSx={brandButtonSx(data.verifier.brand_color)} />
          )}
          <WalletQrPanel
            value={request}
            qrTitle={t('connect.verification.qrTitle')}
            qrTestId="verification-qr"
            caption={t('connect.verification.scan')}
            walletLink={walletLink}
            walletLabel={t('connect.openWallet')}
            walletTestId="verification-open-wallet"
            walletButtonSx={brandButtonSx(data.verifier.brand_color)}
          >
            <Typography variant="body2" sx={{ textAlign: 'center' }}>
              <Link href={request} rel="noreferrer" underline="hover" data-testid="verification-request-link">
                {t('connect.otherWallet')}
              </Link>
            </Typography>
          </WalletQrPanel>
          <Box
            aria-live="polite"
            data-testid="verification-scan-waiting"
            sx={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1.25,
              mt: 3,
              color: 'text.secondary',
            }}
          >
            <CircularProgress size={16} color="inherit" aria-hidden />
            <Typography variant="body2">
              {status === 'REQUESTED'
                ? t('connect.verification.requestedShort')
                : t('connect.verification.waitingScan')}
            </Typography>
          </Box>
        </>
      )}
    </Box>
  );
}

/** "Verification Failed" with one plain sentence per failed check (codes repeat, e.g. two RULE checks). */
function FailedCard({ verifier, codes }: { verifier: string; codes: VerificationCheckCode[] }) {
  const { t } = useTranslation();
  const unique = [...new Set(codes)];
  return (
    <StateCard
      testId={STATUS_TEST_ID}
      status="FAILED"
      icon={<CancelOutlined fontSize="inherit" color="error" />}
      title={t('connect.verification.failedTitle')}
      body={t('connect.verification.failedBody', { verifier })}
    >
      {unique.length > 0 && (
        <Box
          sx={{
            mt: 3,
            p: 2,
            textAlign: 'start',
            borderRadius: 2,
            bgcolor: 'error.50',
            border: 1,
            borderColor: 'error.100',
          }}
        >
          <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
            {t('connect.verification.failedChecksTitle')}
          </Typography>
          <Box component="ul" data-testid="verification-failed-checks" sx={{ m: 0, pl: 2.5 }}>
            {unique.map((code) => (
              <Typography component="li" variant="body2" key={code} data-code={code} sx={{ mb: 0.5 }}>
                {t(`connect.verification.checks.${code}`)}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 3 }}>
        {t('connect.verification.failedHint', { verifier })}
      </Typography>
    </StateCard>
  );
}
