import type { Organization } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { isOrganizationAdmin } from '../../../lib/organization-role.ts';
import { useIssuerPolicy } from '../api/get-issuer-policy.ts';
import { useUpdateIssuerPolicy } from '../api/update-issuer-policy.ts';

/**
 * What the organization's issuer demands of wallets when they collect credentials (HAIP 1.0): DPoP-bound
 * access tokens, and a wallet attestation of one of the organization's trusted wallet providers (managed on the
 * wallet providers page, linked for admins). Every member sees it; admins change it.
 */
export function OrganizationIssuerPolicySetting({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const policy = useIssuerPolicy(organization.id);
  const update = useUpdateIssuerPolicy(organization.id);
  const isAdmin = isOrganizationAdmin(organization);
  const shown = update.isPending ? update.variables : policy.data;
  const dpopRequired = Boolean(shown?.dpop_required);
  const attestationRequired = Boolean(shown?.wallet_attestation_required);

  /** PUT replaces the whole policy: the other requirement is sent as it stands. */
  const change = async (field: 'dpop' | 'attestation', value: boolean) => {
    const next =
      field === 'dpop'
        ? { dpop_required: value, wallet_attestation_required: attestationRequired }
        : { dpop_required: dpopRequired, wallet_attestation_required: value };
    const message = {
      dpop: ['organizations.issuerPolicy.dpopTurnedOn', 'organizations.issuerPolicy.dpopTurnedOff'],
      attestation: [
        'organizations.issuerPolicy.attestationTurnedOn',
        'organizations.issuerPolicy.attestationTurnedOff',
      ],
    }[field][value ? 0 : 1]!;
    try {
      await update.mutateAsync(next);
      notify({ severity: 'success', title: t(message) });
    } catch {
      notify({ severity: 'error', title: t('organization.updateFailed'), message: t('catalogue.updateOrganization') });
    }
  };

  return (
    <Card sx={{ mt: 3 }} data-testid="organization-issuer-policy">
      <Box sx={{ p: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '240px 1fr' }, gap: { xs: 2, md: 4 } }}>
        <Box>
          <Typography variant="subtitle2" component="h2">
            {t('organizations.issuerPolicy.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('organizations.issuerPolicy.helper')}
          </Typography>
        </Box>
        <Box sx={{ minWidth: 0, display: 'grid', gap: 2.5 }}>
          {policy.isError ? (
            <Alert severity="error" data-testid="issuer-policy-error">
              {t('organizations.issuerPolicy.loadFailed')}
            </Alert>
          ) : policy.isPending ? (
            <Skeleton variant="rounded" height={72} data-testid="issuer-policy-loading" />
          ) : (
            <>
              <FormControlLabel
                sx={{ alignItems: 'flex-start', ml: 0, gap: 1.5 }}
                labelPlacement="end"
                control={
                  <Switch
                    checked={dpopRequired}
                    disabled={!isAdmin || update.isPending}
                    onChange={(_, value) => void change('dpop', value)}
                    slotProps={{ input: { 'aria-describedby': 'dpop-required-explanation' } }}
                    data-testid="dpop-required-switch"
                    sx={{ mt: -0.75, ml: -1.5 }}
                  />
                }
                label={
                  <Box>
                    <Typography variant="subtitle2">{t('organizations.issuerPolicy.dpopLabel')}</Typography>
                    <Typography
                      id="dpop-required-explanation"
                      variant="body2"
                      sx={{ color: 'text.secondary', mt: 0.5 }}
                    >
                      {t('organizations.issuerPolicy.dpopExplanation')}
                    </Typography>
                  </Box>
                }
              />
              <FormControlLabel
                sx={{ alignItems: 'flex-start', ml: 0, gap: 1.5 }}
                labelPlacement="end"
                control={
                  <Switch
                    checked={attestationRequired}
                    disabled={!isAdmin || update.isPending}
                    onChange={(_, value) => void change('attestation', value)}
                    slotProps={{ input: { 'aria-describedby': 'wallet-attestation-explanation' } }}
                    data-testid="wallet-attestation-required-switch"
                    sx={{ mt: -0.75, ml: -1.5 }}
                  />
                }
                label={
                  <Box>
                    <Typography variant="subtitle2">{t('organizations.issuerPolicy.attestationLabel')}</Typography>
                    <Typography
                      id="wallet-attestation-explanation"
                      variant="body2"
                      sx={{ color: 'text.secondary', mt: 0.5 }}
                    >
                      {t('organizations.issuerPolicy.attestationExplanation')}
                    </Typography>
                    {isAdmin && (
                      <Link
                        component={RouterLink}
                        to="/wallet-providers"
                        variant="body2"
                        sx={{ fontWeight: 600, display: 'inline-block', mt: 0.5 }}
                        data-testid="issuer-policy-wallet-providers-link"
                      >
                        {t('organizations.issuerPolicy.attestationProviders')}
                      </Link>
                    )}
                  </Box>
                }
              />
              {!isAdmin && (
                <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="issuer-policy-admins-only">
                  {t('organizations.issuerPolicy.adminsOnly')}
                </Typography>
              )}
            </>
          )}
        </Box>
      </Box>
    </Card>
  );
}
