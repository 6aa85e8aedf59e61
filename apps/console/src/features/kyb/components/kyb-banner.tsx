import type { Organization, VerificationStatus } from '@cp/contracts';
import Alert, { type AlertColor } from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Suspense, useState } from 'react';
import { loadWorkspacePagesMessages, useTranslation } from '../../../i18n/index.ts';
import { lazyComponent } from '../../../lib/lazy-component.ts';
import { isOrganizationAdmin } from '../../../lib/organization-role.ts';
import { useKybApplication } from '../api/get-kyb-application.ts';

// Opened on demand: the application form (file uploads) is not part of the pages the banner sits on, nor are its
// messages (the credential list's first page has only the banner's): both come when it opens.
const KybApplyDialog = lazyComponent(() =>
  Promise.all([import('./kyb-apply-dialog.tsx'), loadWorkspacePagesMessages()]).then(([m]) => m.KybApplyDialog),
);

const severity: Record<VerificationStatus, AlertColor> = {
  UNDEFINED: 'info',
  PENDING: 'warning',
  REJECTED: 'error',
  APPROVED: 'success',
};

/**
 * The organization's verification (KYB) state, spec §4: not verified (with "Apply"), pending (1-3 days),
 * rejected (the team writes by e-mail; the reason and "Apply again"), approved (can issue credentials).
 */
export function KybBanner({ organization, sx }: { organization: Organization; sx?: object }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const status = organization.verification_status;
  // The reason lives on the application; only a rejected organization needs it.
  const application = useKybApplication(organization.id, status === 'REJECTED');
  const reason = status === 'REJECTED' ? application.data?.application?.reason : null;
  const canApply = status === 'UNDEFINED' || status === 'REJECTED';
  // Applying is for the organization's admins (the API refuses members); members are told who can.
  const isAdmin = isOrganizationAdmin(organization);

  return (
    <>
      <Alert
        severity={severity[status]}
        data-testid="kyb-banner"
        data-status={status}
        sx={{ alignItems: 'flex-start', '& .MuiAlert-message': { flex: 1, minWidth: 0 }, ...sx }}
      >
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            alignItems: { xs: 'flex-start', sm: 'center' },
            justifyContent: 'space-between',
            gap: { xs: 1.5, sm: 3 },
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <AlertTitle sx={{ fontWeight: 600 }}>{t(`kyb.banner.${status}.title`)}</AlertTitle>
            <Typography variant="body2">{t(`kyb.banner.${status}.body`)}</Typography>
            {reason && (
              <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }} data-testid="kyb-rejection-reason">
                {t('kyb.banner.reason', { reason })}
              </Typography>
            )}
          </Box>
          {canApply && !isAdmin && (
            <Typography variant="body2" sx={{ flexShrink: 0, maxWidth: 260 }} data-testid="kyb-apply-admin-only">
              {t('kyb.banner.adminOnly')}
            </Typography>
          )}
          {canApply && isAdmin && (
            <Button
              color="inherit"
              variant="outlined"
              size="small"
              onClick={() => setOpen(true)}
              data-testid="kyb-apply-button"
              sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            >
              {status === 'REJECTED' ? t('kyb.banner.applyAgain') : t('kyb.banner.apply')}
            </Button>
          )}
        </Box>
      </Alert>
      {open && (
        <Suspense fallback={null}>
          <KybApplyDialog organizationId={organization.id} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
