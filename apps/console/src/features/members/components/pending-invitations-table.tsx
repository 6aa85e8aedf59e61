import type { Invitation } from '@cp/contracts';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useFormatDate } from '../hooks/use-format-date.ts';

interface Props {
  invitations: Invitation[];
  /** The invitation whose resend (or new link) is in flight. */
  busyId: string | null;
  onResend: (invitation: Invitation) => void;
  onCopyLink: (invitation: Invitation) => void;
  onRevoke: (invitation: Invitation) => void;
}

/** Pending invitations (admins only): resend, copy the link, revoke. Cards on phones, a table from `md` up. */
export function PendingInvitationsTable({ invitations, busyId, onResend, onCopyLink, onRevoke }: Props) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const inviter = (invitation: Invitation) =>
    invitation.invited_by
      ? [invitation.invited_by.first_name, invitation.invited_by.last_name].filter(Boolean).join(' ')
      : '';

  /** The table's column is headed "Expires": the date alone; a card says "Expires <date>". */
  const expiry = (invitation: Invitation, withLabel = false) =>
    invitation.status === 'EXPIRED' ? (
      <Chip size="small" color="warning" variant="outlined" label={t('members.invitations.expired')} />
    ) : withLabel ? (
      t('members.invitations.expiresOn', { date: formatDate(invitation.expires_at) })
    ) : (
      formatDate(invitation.expires_at)
    );

  const actions = (invitation: Invitation) => {
    const busy = busyId === invitation.id;
    const button = (label: string, icon: React.ReactNode, onClick: () => void, testId: string) => (
      <Tooltip title={label}>
        <span>
          <IconButton aria-label={label} onClick={onClick} disabled={busy} data-testid={testId}>
            {icon}
          </IconButton>
        </span>
      </Tooltip>
    );
    return (
      <Box sx={{ display: 'inline-flex' }}>
        {button(
          t('members.invitations.resendTo', { email: invitation.email }),
          <SendOutlined fontSize="small" />,
          () => onResend(invitation),
          `invitation-resend-${invitation.id}`,
        )}
        {button(
          t('members.invitations.copyLink'),
          <LinkOutlined fontSize="small" />,
          () => onCopyLink(invitation),
          `invitation-copy-${invitation.id}`,
        )}
        {button(
          t('members.invitations.revokeFor', { email: invitation.email }),
          <DeleteOutlineOutlined fontSize="small" />,
          () => onRevoke(invitation),
          `invitation-revoke-${invitation.id}`,
        )}
      </Box>
    );
  };

  const columns: ResponsiveTableColumn<Invitation>[] = [
    {
      id: 'email',
      header: t('members.fields.email'),
      cell: (invitation) => invitation.email,
      sx: { fontWeight: 500, overflowWrap: 'anywhere', maxWidth: 280 },
    },
    { id: 'role', header: t('members.fields.role'), cell: (invitation) => t(`members.roles.${invitation.role}`) },
    {
      id: 'invitedBy',
      header: t('members.fields.invitedBy'),
      cell: (invitation) => inviter(invitation) || '—',
      sx: { color: 'text.secondary' },
    },
    {
      id: 'expires',
      header: t('members.fields.expires'),
      cell: (invitation) => expiry(invitation),
      sx: { whiteSpace: 'nowrap' },
    },
  ];

  return (
    <ResponsiveTable
      label={t('members.invitations.title')}
      rows={invitations}
      columns={columns}
      actionsLabel={t('members.fields.actions')}
      renderActions={actions}
      testId="invitations-table"
      rowTestId={(invitation) => `invitation-row-${invitation.id}`}
      renderMobileItem={(invitation) => (
        <>
          <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
            {invitation.email}
          </Typography>
          <Typography variant="body2" component="div" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t(`members.roles.${invitation.role}`)}
            {inviter(invitation) ? ` · ${t('members.invitations.by', { name: inviter(invitation) })}` : ''}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 0.5 }}>
            <Box sx={{ typography: 'body2', color: 'text.secondary' }}>{expiry(invitation, true)}</Box>
            <Box sx={{ flexShrink: 0, mr: -1 }}>{actions(invitation)}</Box>
          </Box>
        </>
      )}
    />
  );
}
