import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../i18n/index.ts';
import { RouterLink } from './router-link.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: 3, textAlign: 'center' }}
    >
      <SkipLink label={t('common.skipToContent')} />
      <Box sx={{ maxWidth: 480 }}>
        <Typography variant="h3" component="h1">
          {t('errors.notFoundTitle')}
        </Typography>
        <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1.5, mb: 4 }}>
          {t('errors.notFoundBody')}
        </Typography>
        <Button variant="contained" component={RouterLink} to="/" startIcon={<HomeOutlined />} data-testid="go-home">
          {t('common.goHome')}
        </Button>
      </Box>
    </Box>
  );
}
