import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { useTranslation } from '../../i18n/index.ts';

/**
 * Frame of the holder pages (/connect/*), reachable without signing in. The pages open with the issuing or
 * asking organization's own band: the holder deals with it, so the product's name only signs the footer.
 */
export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink label={t('common.skipToContent')} />
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ flex: 1, width: '100%', maxWidth: 720, mx: 'auto', px: 2, pt: { xs: 2, md: 6 }, pb: 4 }}
      >
        <Outlet />
      </Box>
      <Box component="footer" data-testid="holder-footer" sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
        <BrandLogo size={20} />
      </Box>
    </Box>
  );
}
