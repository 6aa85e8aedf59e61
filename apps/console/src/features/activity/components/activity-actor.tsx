import type { AuditEvent } from '@cp/contracts';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import WalletOutlined from '@mui/icons-material/WalletOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../../../i18n/index.ts';
import { initials } from './format.ts';

/** Labels the platform gives its own actors, translated. */
const SYSTEM_LABELS: Record<string, string> = { 'admin CLI': 'activity.actor.adminCli' };

/** Who made a change: a member (initials and name), an API key (its name and a chip), a holder, the platform. */
export function ActivityActor({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const { actor } = event;
  const avatarSx = { width: 32, height: 32, fontSize: 13, fontWeight: 600 } as const;
  let avatar = (
    <Avatar sx={{ ...avatarSx, bgcolor: 'primary.50', color: 'primary.700' }} aria-hidden>
      {initials(actor.label) || '?'}
    </Avatar>
  );
  let name = actor.label ?? t('activity.actor.formerMember');
  let secondary: string | null = null;
  let chip: string | null = null;
  if (actor.type === 'API_KEY') {
    avatar = (
      <Avatar sx={{ ...avatarSx, bgcolor: 'grey.100', color: 'grey.700' }} aria-hidden>
        <KeyOutlined sx={{ fontSize: 18 }} />
      </Avatar>
    );
    name = actor.label ?? t('activity.actor.apiKey');
    chip = t('activity.actor.apiKey');
  } else if (actor.type === 'HOLDER') {
    avatar = (
      <Avatar sx={{ ...avatarSx, bgcolor: 'success.50', color: 'success.700' }} aria-hidden>
        <WalletOutlined sx={{ fontSize: 18 }} />
      </Avatar>
    );
    name = t('activity.actor.holder');
  } else if (actor.type === 'SYSTEM') {
    avatar = (
      <Avatar sx={{ ...avatarSx, bgcolor: 'grey.100', color: 'grey.700' }} aria-hidden>
        <SettingsOutlined sx={{ fontSize: 18 }} />
      </Avatar>
    );
    name = t('activity.actor.system');
    secondary = actor.label ? (SYSTEM_LABELS[actor.label] ? t(SYSTEM_LABELS[actor.label]!) : actor.label) : null;
  }
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 1.25, minWidth: 0 }}
      data-testid={`activity-actor-${event.id}`}
    >
      {avatar}
      <Box sx={{ minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" component="span" sx={{ color: 'text.primary', overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          {chip && (
            <Chip
              size="small"
              label={chip}
              sx={{ height: 20, fontSize: 12, bgcolor: 'grey.100' }}
              data-testid={`activity-actor-chip-${event.id}`}
            />
          )}
        </Box>
        {secondary && (
          <Typography variant="caption" component="div" sx={{ color: 'text.secondary', fontSize: 12 }}>
            {secondary}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
