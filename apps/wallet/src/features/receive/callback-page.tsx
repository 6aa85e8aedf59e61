import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { type StoredCredential, WalletErrorCode, type WalletVault } from '../../app/core-api.ts';
import { errorCode, errorMessage } from '../../app/error-message.ts';
import { completeAuthorizedReceive } from '../../app/protocol-api.ts';
import { useVault } from '../../app/vault-context.tsx';
import { PageTitle } from '../../components/section.tsx';
import { Working } from './receive-page.tsx';

/**
 * One redemption per callback URL, whatever React does with effects (development runs them twice): the pending
 * request is single use, so a second call would only say it is gone.
 */
const redemptions = new Map<string, Promise<StoredCredential>>();
function redeemOnce(callback: string, vault: WalletVault) {
  let redemption = redemptions.get(callback);
  if (!redemption) {
    redemption = completeAuthorizedReceive(callback, vault);
    redemptions.set(callback, redemption);
  }
  return redemption;
}

/**
 * `/receive/callback`: where the issuer sends the browser back after its authorization page (OpenID4VCI 1.0 §5,
 * RFC 6749 §4.1.2) with `code` and `state`, or with `error`. The core checks the state against this tab's pending
 * request and redeems the code; the new credential opens, or a failure says what happened (nothing is stored).
 */
export function CallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const vault = useVault();
  const { pathname, search } = useLocation();
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let active = true;
    // The URL the issuer sent the browser to, on this wallet's origin (as the redirect URI was).
    const callback = new URL(`${pathname}${search}`, globalThis.location.origin).href;
    redeemOnce(callback, vault)
      .then((stored) => {
        if (!active) return;
        // The callback's code and state leave the address bar and the history.
        navigate(`/credentials/${encodeURIComponent(stored.id)}`, { replace: true, state: { received: true } });
      })
      .catch((failure: unknown) => active && setError(failure));
    return () => {
      active = false;
    };
  }, [vault, navigate, pathname, search]);

  if (error === null) return <Working text={t('receive.accepting')} />;
  const code = errorCode(error);
  const title = code === WalletErrorCode.AUTHORIZATION_DENIED ? t('callback.deniedTitle') : t('callback.failedTitle');
  return (
    <Stack spacing={2} data-testid="callback-error" data-code={code}>
      <PageTitle>{t('callback.title')}</PageTitle>
      <Alert severity={code === WalletErrorCode.AUTHORIZATION_DENIED ? 'info' : 'error'}>
        <AlertTitle>{title}</AlertTitle>
        {errorMessage(t, error)}
      </Alert>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        <Button component={Link} to="/" replace>
          {t('callback.home')}
        </Button>
        <Button component={Link} to="/receive/issuer" replace variant="contained">
          {t('callback.startAgain')}
        </Button>
      </Stack>
    </Stack>
  );
}
