import type { Organization } from '@cp/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { KybBanner } from '../../kyb/components/kyb-banner.tsx';

/**
 * Before step 1, for an organization that has not passed KYB: why it cannot issue yet and how to apply, so
 * nobody fills in recipients only to be stopped at "Send".
 */
export function IssuingGate({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const status = organization.verification_status === 'APPROVED' ? 'UNDEFINED' : organization.verification_status;
  return (
    <Card sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }} data-testid="issuing-gate" data-status={status}>
      <Typography variant="h6" component="h2">
        {t('issuing.gate.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t(`issuing.gate.body.${status}`)}
      </Typography>
      <KybBanner organization={organization} />
      <Box>
        <Button
          component={RouterLink}
          to={`/credentials/${organization.id}`}
          color="secondary"
          variant="outlined"
          data-testid="issuing-gate-back"
        >
          {t('issuing.gate.back')}
        </Button>
      </Box>
    </Card>
  );
}
