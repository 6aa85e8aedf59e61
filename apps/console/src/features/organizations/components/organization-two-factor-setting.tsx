import type { Organization } from '@cp/contracts';
import { ProblemCode } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { notify } from '../../../lib/notifications.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useUpdateOrganization } from '../api/update-organization.ts';

/**
 * The organization's "require two-step sign-in" switch. Turning it on from a session opened with one step is
 * refused by the API (409 ORGANIZATION_TWO_FACTOR_SESSION_REQUIRED), so that nobody locks the organization out:
 * the card then says what to do first.
 */
export function OrganizationTwoFactorSetting({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const update = useUpdateOrganization(organization.id);
  const config = usePublicConfig();
  const [needsOwnTwoFactor, setNeedsOwnTwoFactor] = useState(false);
  const accountCenter = config.data?.account_center_url?.replace(/\/$/, '');
  const checked = update.isPending ? Boolean(update.variables?.require_two_factor) : organization.require_two_factor;

  const change = async (value: boolean) => {
    setNeedsOwnTwoFactor(false);
    try {
      await update.mutateAsync({ require_two_factor: value });
      notify({
        severity: 'success',
        title: t(value ? 'organizations.twoFactor.turnedOn' : 'organizations.twoFactor.turnedOff'),
      });
    } catch (error) {
      if (isApiError(error) && error.is(ProblemCode.ORGANIZATION_TWO_FACTOR_SESSION_REQUIRED))
        setNeedsOwnTwoFactor(true);
      else
        notify({
          severity: 'error',
          title: t('organization.updateFailed'),
          message: t('catalogue.updateOrganization'),
        });
    }
  };

  return (
    <Card sx={{ mt: 3 }} data-testid="organization-two-factor">
      <Box sx={{ p: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '240px 1fr' }, gap: { xs: 2, md: 4 } }}>
        <Box>
          <Typography variant="subtitle2" component="h2">
            {t('organizations.twoFactor.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('organizations.twoFactor.helper')}
          </Typography>
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <FormControlLabel
            sx={{ alignItems: 'flex-start', ml: 0, gap: 1.5 }}
            labelPlacement="end"
            control={
              <Switch
                checked={checked}
                disabled={update.isPending}
                onChange={(_, value) => void change(value)}
                slotProps={{ input: { 'aria-describedby': 'two-factor-explanation' } }}
                data-testid="require-two-factor-switch"
                sx={{ mt: -0.75, ml: -1.5 }}
              />
            }
            label={
              <Box>
                <Typography variant="subtitle2">{t('organizations.twoFactor.label')}</Typography>
                <Typography id="two-factor-explanation" variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
                  {t('organizations.twoFactor.explanation')}
                </Typography>
              </Box>
            }
          />
          {needsOwnTwoFactor && (
            <Alert severity="warning" sx={{ mt: 2 }} data-testid="two-factor-own-session-required">
              {t('organizations.twoFactor.ownSessionRequired')}
              {accountCenter && (
                <>
                  {' '}
                  <Link href={`${accountCenter}/account`} target="_blank" rel="noopener noreferrer" underline="always">
                    {t('organizations.twoFactor.openAccount')}
                  </Link>
                </>
              )}
            </Alert>
          )}
        </Box>
      </Box>
    </Card>
  );
}
