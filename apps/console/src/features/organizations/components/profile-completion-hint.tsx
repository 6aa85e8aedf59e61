import type { Organization } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';

/** localStorage key remembering, per organization, that its profile hint was dismissed on this browser. */
export const profileHintDismissedKey = (organizationId: string) => `profile_hint_dismissed:${organizationId}`;

/** What the profile still lacks: recipients see the description and the logo next to every credential. */
export function missingProfileFields(organization: Organization): ('description' | 'logo')[] {
  const missing: ('description' | 'logo')[] = [];
  if (!organization.description?.trim()) missing.push('description');
  if (!organization.logo) missing.push('logo');
  return missing;
}

function isDismissed(organizationId: string): boolean {
  try {
    return window.localStorage.getItem(profileHintDismissedKey(organizationId)) !== null;
  } catch {
    return false;
  }
}

/**
 * A dismissible hint above the credential list when the organization has no description or no logo: the list
 * stays usable (issuing does not need them), the hint says what is missing and leads to the profile.
 */
export function ProfileCompletionHint({ organization, sx }: { organization: Organization | null; sx?: object }) {
  const { t } = useTranslation();
  const [dismissedFor, setDismissedFor] = useState<string[]>([]);
  if (!organization) return null;
  const missing = missingProfileFields(organization);
  if (missing.length === 0 || dismissedFor.includes(organization.id) || isDismissed(organization.id)) return null;

  const dismiss = () => {
    try {
      window.localStorage.setItem(profileHintDismissedKey(organization.id), new Date().toISOString());
    } catch {
      // Storage refused (private mode): the hint stays hidden until the page is reloaded.
    }
    setDismissedFor((ids) => [...ids, organization.id]);
  };

  const key = missing.length === 2 ? 'both' : missing[0];
  return (
    <Alert
      severity="info"
      onClose={dismiss}
      data-testid="profile-hint"
      data-missing={missing.join(' ')}
      closeText={t('organizations.profileHint.dismiss')}
      sx={{ alignItems: 'flex-start', '& .MuiAlert-message': { flex: 1, minWidth: 0 }, ...sx }}
    >
      <AlertTitle sx={{ fontWeight: 600 }}>{t('organizations.profileHint.title')}</AlertTitle>
      <Box
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: { xs: 'flex-start', sm: 'center' },
          justifyContent: 'space-between',
          gap: { xs: 1.5, sm: 3 },
        }}
      >
        <Box component="span">{t(`organizations.profileHint.missing.${key}`)}</Box>
        <Button
          color="inherit"
          variant="outlined"
          size="small"
          component={RouterLink}
          to={`/organization/${encodeURIComponent(organization.id)}`}
          data-testid="profile-hint-complete"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          {t('organizations.profileHint.action')}
        </Button>
      </Box>
    </Alert>
  );
}
