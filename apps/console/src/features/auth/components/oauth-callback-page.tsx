import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { takeSignInReturn } from '../../../lib/sign-in-return.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { completeAuth } from '../api/complete-auth.ts';
import { startAuth } from '../api/start-auth.ts';

/**
 * /oauth/socious: the identity provider's return page. `?code&state` completes the sign-in; `?error` is shown;
 * `?sync=1` (back from the account center) signs in again silently so new organizations arrive.
 */
export function OAuthCallbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  const providerError = params.get('error');
  useEffect(() => {
    if (started.current || providerError) return;
    started.current = true;
    const code = params.get('code');
    const run = async () => {
      if (params.get('sync') === '1' && !code) {
        await startAuth({ signup: false });
        return;
      }
      if (!code) throw new Error('missing code');
      await completeAuth({
        code,
        state: params.get('state') ?? undefined,
        iss: params.get('iss') ?? undefined,
      });
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
      // Back to the page that sent the person to sign in (an invitation), else the credentials.
      navigate(takeSignInReturn() ?? '/credentials', { replace: true });
    };
    run().catch(() => setFailure(t('oauth.genericError')));
  }, [params, providerError, navigate, queryClient, t]);

  const message = providerError
    ? t('oauth.providerError', { error: params.get('error_description') ?? providerError })
    : failure;

  return (
    <Box
      component="main"
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: 3, textAlign: 'center' }}
    >
      <SkipLink label={t('common.skipToContent')} />
      {message ? (
        <Box sx={{ maxWidth: 440 }} role="alert">
          <ErrorOutlineOutlined sx={{ fontSize: 48, color: 'error.main' }} />
          <Typography variant="h3" component="h1" sx={{ mt: 2, fontSize: 24, lineHeight: '32px' }}>
            {t('oauth.failedTitle')}
          </Typography>
          <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1, mb: 3 }} data-testid="oauth-error">
            {message}
          </Typography>
          <Button variant="contained" component={RouterLink} to="/intro" data-testid="back-to-intro">
            {t('oauth.backToIntro')}
          </Button>
        </Box>
      ) : (
        <Box>
          <CircularProgress aria-label={t('oauth.signingIn')} />
          <Typography variant="body1" sx={{ color: 'text.secondary', mt: 2 }}>
            {t('oauth.signingIn')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
