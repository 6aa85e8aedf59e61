import type { Member, MemberRole } from '@cp/contracts';
import { AccountDisplay } from '@cp/ui';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useFormatDate } from '../hooks/use-format-date.ts';

export const memberName = (member: Member) =>
  [member.first_name, member.last_name].filter(Boolean).join(' ') || member.email || member.user_id;

interface Props {
  members: Member[];
  /** The signed-in user's id: their row says "You" and offers to leave. */
  currentUserId: string | undefined;
  /** Admins change roles and remove people; members only see the team (and may leave). */
  canManage: boolean;
  /** The member whose role change is in flight (its select is disabled meanwhile). */
  busyUserId: string | null;
  onChangeRole: (member: Member, role: MemberRole) => void;
  onRemove: (member: Member) => void;
  onLeave: (member: Member) => void;
}

/** The team as a table from `md` up and as stacked items on phones; the same test ids in both. */
export function MembersTable({
  members,
  currentUserId,
  canManage,
  busyUserId,
  onChangeRole,
  onRemove,
  onLeave,
}: Props) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const isSelf = (member: Member) => member.user_id === currentUserId;

  const you = (member: Member) =>
    isSelf(member) && (
      <Chip size="small" label={t('members.you')} data-testid="member-you" sx={{ flexShrink: 0, height: 22 }} />
    );
  /** Name and e-mail; the table puts "You" beside them, a phone's card beside the role (the e-mail keeps its room). */
  const person = (member: Member, withYou = true) => (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <AccountDisplay type="users" variant="card" name={memberName(member)} username={member.email ?? undefined} />
      {withYou && you(member)}
    </Box>
  );

  const role = (member: Member) =>
    canManage ? (
      <TextField
        select
        size="small"
        value={member.role}
        disabled={busyUserId === member.user_id}
        onChange={(event) => onChangeRole(member, event.target.value as MemberRole)}
        slotProps={{
          htmlInput: { 'aria-label': t('members.roleOf', { name: memberName(member) }) },
          select: { SelectDisplayProps: { 'data-testid': `member-role-${member.user_id}` } as object },
        }}
        sx={{ minWidth: 124 }}
      >
        <MenuItem value="admin" data-testid="role-option-admin">
          {t('members.roles.admin')}
        </MenuItem>
        <MenuItem value="member" data-testid="role-option-member">
          {t('members.roles.member')}
        </MenuItem>
      </TextField>
    ) : (
      <Chip
        size="small"
        variant="outlined"
        color={member.role === 'admin' ? 'primary' : 'default'}
        label={t(`members.roles.${member.role}`)}
        data-testid={`member-role-${member.user_id}`}
      />
    );

  const actions = (member: Member) => {
    if (isSelf(member)) {
      return (
        <Button
          size="small"
          color="secondary"
          startIcon={<LogoutOutlined fontSize="small" />}
          onClick={() => onLeave(member)}
          data-testid="member-leave"
        >
          {t('members.leave.action')}
        </Button>
      );
    }
    if (!canManage) return null;
    const label = t('members.remove.named', { name: memberName(member) });
    return (
      <Tooltip title={label}>
        <IconButton aria-label={label} onClick={() => onRemove(member)} data-testid={`member-remove-${member.user_id}`}>
          <PersonRemoveOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    );
  };

  const columns: ResponsiveTableColumn<Member>[] = [
    { id: 'name', header: t('members.fields.name'), cell: person, sx: { maxWidth: 380 } },
    { id: 'role', header: t('members.fields.role'), cell: role },
    {
      id: 'joined',
      header: t('members.fields.joined'),
      cell: (member) => formatDate(member.joined_at),
      sx: { whiteSpace: 'nowrap', color: 'text.secondary' },
    },
  ];

  return (
    <ResponsiveTable
      label={t('members.title')}
      rows={members.map((member) => ({ ...member, id: member.user_id }))}
      columns={columns}
      actionsLabel={t('members.fields.actions')}
      renderActions={actions}
      testId="members-table"
      rowTestId={(member) => `member-row-${member.user_id}`}
      renderMobileItem={(member) => (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
            <Box sx={{ minWidth: 0 }}>{person(member, false)}</Box>
            <Box sx={{ flexShrink: 0 }}>{actions(member)}</Box>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 1.25 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              {role(member)}
              {you(member)}
            </Box>
            <Box component="span" sx={{ typography: 'body2', color: 'text.secondary', textAlign: 'right' }}>
              {t('members.joinedOn', { date: formatDate(member.joined_at) })}
            </Box>
          </Box>
        </>
      )}
    />
  );
}
