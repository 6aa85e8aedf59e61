import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import AddBusinessOutlined from '@mui/icons-material/AddBusinessOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { useLogout } from '../../features/auth/api/logout.ts';
import { CreateOrganizationForm } from '../../features/organizations/components/create-organization-form.tsx';
import { useUserProfile } from '../../features/users/api/get-user-profile.ts';
import { useTranslation } from '../../i18n/index.ts';
import { usePublicConfig, withReturnTo } from '../../lib/public-config.ts';

/** Signed in without any organization: create one at the account center, or here when there is none. */
export function NoOrganizationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = usePublicConfig();
  const profile = useUserProfile();
  const logout = useLogout();
  const createUrl = config.data?.organization_create_url;

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink label={t('common.skipToContent')} />
      <Box
        component="header"
        sx={{
          px: { xs: 2, md: 4 },
          py: 2,
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          borderBottom: 1,
          borderColor: 'grey.200',
          bgcolor: 'background.paper',
        }}
      >
        <BrandLogo />
        <Button color="secondary" startIcon={<LogoutOutlined />} data-testid="logout" onClick={() => logout.mutate()}>
          {t('nav.logout')}
        </Button>
      </Box>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 6 }}
      >
        <Card sx={{ width: '100%', maxWidth: 520, p: { xs: 3, sm: 5 } }} data-testid="no-organization">
          <Box
            sx={{
              width: 48,
              height: 48,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'primary.50',
              color: 'primary.main',
              mb: 2.5,
            }}
          >
            <AddBusinessOutlined />
          </Box>
          <Typography variant="h3" component="h1" sx={{ fontSize: 24, lineHeight: '32px' }}>
            {t('organization.noneTitle')}
          </Typography>
          <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1, mb: 3 }}>
            {t('organization.noneBody')}
          </Typography>
          {config.isPending ? null : createUrl ? (
            <Button
              variant="contained"
              size="large"
              fullWidth
              href={withReturnTo(createUrl)}
              data-testid="create-organization-button"
            >
              {t('nav.createOrganization')}
            </Button>
          ) : (
            <CreateOrganizationForm onCreated={() => navigate('/credentials', { replace: true })} />
          )}
          {profile.data?.is_platform_admin ? (
            <Button
              variant="outlined"
              size="large"
              fullWidth
              sx={{ mt: 1.5 }}
              onClick={() => navigate('/admin/kyb')}
              data-testid="no-organization-admin-kyb"
            >
              {t('nav.reviewKyb')}
            </Button>
          ) : null}
        </Card>
      </Box>
    </Box>
  );
}
