import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import CheckCircleOutlineOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { BrandLogo, BrandMark } from '../../../components/brand-logo.tsx';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { Trans, useTranslation } from '../../../i18n/index.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useStartAuth } from '../api/start-auth.ts';

/** /intro: sign in or create an account at the identity provider (spec §2). */
export function IntroPage() {
  const { t } = useTranslation();
  const startAuth = useStartAuth();
  const config = usePublicConfig();
  const [pending, setPending] = useState<'signin' | 'signup' | null>(null);
  const accountCenter = config.data?.account_center_url?.replace(/\/$/, '');

  const start = (signup: boolean) => {
    setPending(signup ? 'signup' : 'signin');
    startAuth.mutate({ signup }, { onError: () => setPending(null) });
  };

  const legalLink = (path: string) =>
    accountCenter ? (
      <Link href={`${accountCenter}${path}`} target="_blank" rel="noopener noreferrer" underline="always" />
    ) : (
      <Box component="span" sx={{ fontWeight: 600, color: 'text.primary' }} />
    );

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <SkipLink label={t('common.skipToContent')} />
      {/* The product's banner (from md up): its name and what it does. */}
      <Box
        component="header"
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: 'common.white',
          background: 'linear-gradient(150deg, #003b38 0%, #004a46 55%, #1a6f6b 100%)',
          position: 'relative',
          overflow: 'hidden',
        }}
      >
        <BrandLogo inverted />
        <Box sx={{ maxWidth: 460, position: 'relative', zIndex: 1 }}>
          <Typography variant="h3" component="p" sx={{ color: 'common.white', mb: 3 }}>
            {t('app.tagline')}
          </Typography>
          {(['featureIssue', 'featureVerify', 'featureIntegrate'] as const).map((key) => (
            <Box key={key} sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1.5 }}>
              <CheckCircleOutlineOutlined sx={{ color: 'primary.200' }} />
              <Typography variant="body1" sx={{ color: 'primary.50' }}>
                {t(`intro.${key}`)}
              </Typography>
            </Box>
          ))}
        </Box>
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            right: -120,
            bottom: -120,
            width: 420,
            height: 420,
            borderRadius: '50%',
            border: '60px solid rgba(255,255,255,0.06)',
          }}
        />
        <Typography variant="body2" sx={{ color: 'primary.200' }}>
          © {new Date().getFullYear()} {t('app.name')}
        </Typography>
      </Box>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ display: 'flex', flexDirection: 'column', px: { xs: 3, sm: 6 }, py: { xs: 3, md: 4 } }}
      >
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <LanguageSelect />
        </Box>
        <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', py: 4 }}>
          <Box sx={{ width: '100%', maxWidth: 400 }}>
            <BrandMark size={48} />
            <Typography variant="h3" component="h1" sx={{ mt: 3 }}>
              {t('intro.title')}
            </Typography>
            <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1, mb: 4 }}>
              {t('intro.subtitle')}
            </Typography>
            {startAuth.isError && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {t('intro.startFailed')}
              </Alert>
            )}
            <Button
              fullWidth
              size="large"
              variant="contained"
              data-testid="intro-sign-in"
              disabled={pending !== null}
              onClick={() => start(false)}
            >
              {t('intro.signIn')}
            </Button>
            <Button
              fullWidth
              size="large"
              variant="outlined"
              color="secondary"
              data-testid="intro-create-account"
              disabled={pending !== null}
              onClick={() => start(true)}
              sx={{ mt: 1.5, borderColor: 'grey.300' }}
            >
              {t('intro.createAccount')}
            </Button>
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 3 }} data-testid="intro-terms">
              <Trans
                i18nKey="intro.terms"
                components={{ terms: legalLink('/terms'), privacy: legalLink('/privacy') }}
              />
            </Typography>
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
