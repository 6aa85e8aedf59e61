import type { Organization } from '@cp/contracts';
import LockPersonOutlined from '@mui/icons-material/LockPersonOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../../../i18n/index.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useLogout } from '../api/logout.ts';

/**
 * In place of a page of an organization that requires two-step sign-in, for a session opened with one step (the
 * API's 403 ORGANIZATION_TWO_FACTOR_REQUIRED): what to do, a way to the account center to turn it on, and the
 * sign-out that lets the next sign-in ask for the password and a code.
 */
export function TwoFactorRequiredPage({ organization }: { organization: Pick<Organization, 'name'> }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const logout = useLogout();
  const accountCenter = config.data?.account_center_url?.replace(/\/$/, '');
  const name = organization.name;

  return (
    <Box sx={{ display: 'grid', placeItems: 'center', py: { xs: 2, md: 6 } }}>
      <Card sx={{ width: '100%', maxWidth: 560, p: { xs: 3, sm: 5 } }} role="alert" data-testid="two-factor-required">
        <Box
          sx={{
            width: 48,
            height: 48,
            borderRadius: 2,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'warning.50',
            color: 'warning.700',
            mb: 2.5,
          }}
        >
          <LockPersonOutlined />
        </Box>
        <Typography variant="h3" component="h1" sx={{ fontSize: 24, lineHeight: '32px', overflowWrap: 'anywhere' }}>
          {t('auth.twoFactorRequired.title', { name })}
        </Typography>
        <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1, mb: 2.5 }}>
          {t('auth.twoFactorRequired.body', { name })}
        </Typography>
        <Box component="ol" sx={{ m: 0, mb: 3, pl: 2.5, display: 'grid', gap: 1 }}>
          <Typography component="li" variant="body2">
            {accountCenter ? t('auth.twoFactorRequired.stepTurnOn') : t('auth.twoFactorRequired.stepTurnOnGeneric')}
          </Typography>
          <Typography component="li" variant="body2">
            {t('auth.twoFactorRequired.stepSignInAgain')}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1.5 }}>
          {accountCenter && (
            <Button
              variant="outlined"
              color="secondary"
              href={`${accountCenter}/account`}
              target="_blank"
              rel="noopener noreferrer"
              endIcon={<OpenInNewOutlined fontSize="small" />}
              data-testid="two-factor-open-account"
            >
              {t('auth.twoFactorRequired.openAccount')}
            </Button>
          )}
          <Button
            variant="contained"
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
            data-testid="two-factor-sign-out"
          >
            {t('auth.twoFactorRequired.signOutAndIn')}
          </Button>
        </Box>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 3 }}>
          {t('auth.twoFactorRequired.otherOrganizations')}
        </Typography>
      </Card>
    </Box>
  );
}
