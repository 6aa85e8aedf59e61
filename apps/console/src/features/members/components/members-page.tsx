import type { Invitation, Member, MemberRole, SentInvitation } from '@cp/contracts';
import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { toSupportedLanguage } from '../../../i18n/detect-language.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { isOrganizationAdmin } from '../../../lib/organization-role.ts';
import { problemMessage } from '../../../lib/problem-messages.ts';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard.ts';
// The signed-in user's profile (shared with the side menu's query): which row is "You".
import { useUserProfile } from '../../users/api/get-user-profile.ts';
import { useCreateInvitation } from '../api/create-invitation.ts';
import { useInvitations } from '../api/find-invitations.ts';
import { useMembers } from '../api/find-members.ts';
import { useRemoveMember } from '../api/remove-member.ts';
import { useResendInvitation } from '../api/resend-invitation.ts';
import { useRevokeInvitation } from '../api/revoke-invitation.ts';
import { useUpdateMemberRole } from '../api/update-member-role.ts';
import { InviteMemberDialog } from './invite-member-dialog.tsx';
import { MembersTable, memberName } from './members-table.tsx';
import { PendingInvitationsTable } from './pending-invitations-table.tsx';

const PAGE_SIZE = 10;

type Confirming =
  | { kind: 'remove'; member: Member }
  | { kind: 'leave'; member: Member }
  | { kind: 'demote-self'; member: Member }
  | { kind: 'revoke'; invitation: Invitation };

/**
 * /members: the organization's team. Every member sees who is in it (and may leave); admins invite people, change
 * roles, remove members and manage pending invitations. The API enforces the same rules.
 */
export function MembersPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { current, refresh } = useIdentity();
  const organizationId = current?.id ?? '';
  const canManage = isOrganizationAdmin(current);
  const profile = useUserProfile();
  const [page, setPage] = useState(1);
  const [invitationPage, setInvitationPage] = useState(1);
  const members = useMembers(organizationId || undefined, page, PAGE_SIZE);
  const invitations = useInvitations(organizationId || undefined, invitationPage, PAGE_SIZE, canManage);
  const changeRole = useUpdateMemberRole(organizationId);
  const remove = useRemoveMember(organizationId);
  const invite = useCreateInvitation(organizationId);
  const resend = useResendInvitation(organizationId);
  const revoke = useRevokeInvitation(organizationId);
  const copy = useCopyToClipboard();
  const [isInviting, setInviting] = useState(false);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  // Links are returned once, when sent: those sent from this page stay at hand for "Copy link".
  const [links, setLinks] = useState<Record<string, string>>({});
  const locale = toSupportedLanguage(i18n.language) ?? 'en';

  const remember = (invitation: SentInvitation) => setLinks((known) => ({ ...known, [invitation.id]: invitation.url }));

  const failure = (error: unknown, fallback: string) =>
    notify({
      severity: 'error',
      title: problemMessage(t, error, fallback),
    });

  const applyRole = async (member: Member, role: MemberRole) => {
    try {
      await changeRole.mutateAsync({ userId: member.user_id, role });
      notify({
        severity: 'success',
        title: t('members.roleChanged', { name: memberName(member), role: t(`members.roles.${role}`) }),
      });
    } catch (error) {
      failure(error, 'members.errors.changeRole');
    }
  };

  const onChangeRole = (member: Member, role: MemberRole) => {
    if (member.role === role) return;
    // Stepping down takes one's own admin rights away at once: ask first.
    if (member.user_id === profile.data?.id && role === 'member') setConfirming({ kind: 'demote-self', member });
    else void applyRole(member, role);
  };

  const sendInvitation = async (values: { email: string; role: MemberRole }) => {
    const sent = await invite.mutateAsync({ ...values, locale });
    remember(sent);
    return sent;
  };

  const resendOne = async (invitation: Invitation) => {
    const sent = await resend.mutateAsync({ invitationId: invitation.id, locale });
    remember(sent);
    return sent;
  };

  const onResend = async (invitation: Invitation) => {
    try {
      await resendOne(invitation);
      notify({ severity: 'success', title: t('members.invitations.resent', { email: invitation.email }) });
    } catch (error) {
      failure(error, 'members.errors.resend');
    }
  };

  /** A link sent from this page is copied as is; otherwise a new one is made (and e-mailed) to be copied. */
  const onCopyLink = async (invitation: Invitation) => {
    const known = links[invitation.id];
    if (known) {
      await copy(known, t('members.invitations.linkCopied'));
      return;
    }
    try {
      const sent = await resendOne(invitation);
      await copy(sent.url, t('members.invitations.newLinkCopied', { email: invitation.email }));
    } catch (error) {
      failure(error, 'members.errors.resend');
    }
  };

  const confirm = async () => {
    if (!confirming) return;
    try {
      if (confirming.kind === 'revoke') {
        await revoke.mutateAsync(confirming.invitation.id);
        notify({
          severity: 'success',
          title: t('members.invitations.revoked', { email: confirming.invitation.email }),
        });
      } else if (confirming.kind === 'demote-self') {
        await applyRole(confirming.member, 'member');
      } else {
        await remove.mutateAsync(confirming.member.user_id);
        if (confirming.kind === 'leave') {
          notify({ severity: 'success', title: t('members.leave.done', { organization: current?.name ?? '' }) });
          // The organization is gone from the list: the next one becomes current.
          await refresh();
          navigate('/', { replace: true });
        } else {
          notify({ severity: 'success', title: t('members.remove.done', { name: memberName(confirming.member) }) });
        }
      }
    } catch (error) {
      failure(error, confirming.kind === 'revoke' ? 'members.errors.revoke' : 'members.errors.remove');
    } finally {
      setConfirming(null);
    }
  };

  const dialogText = (() => {
    const organization = current?.name ?? '';
    switch (confirming?.kind) {
      case 'remove':
        return {
          title: t('members.remove.title', { name: memberName(confirming.member) }),
          body: t('members.remove.body', { name: memberName(confirming.member), organization }),
          confirm: t('members.remove.confirm'),
        };
      case 'leave':
        return {
          title: t('members.leave.title', { organization }),
          body: t('members.leave.body', { organization }),
          confirm: t('members.leave.confirm'),
        };
      case 'demote-self':
        return {
          title: t('members.demoteSelf.title'),
          body: t('members.demoteSelf.body', { organization }),
          confirm: t('members.demoteSelf.confirm'),
        };
      case 'revoke':
        return {
          title: t('members.invitations.revokeTitle'),
          body: t('members.invitations.revokeBody', { email: confirming.invitation.email }),
          confirm: t('members.invitations.revoke'),
        };
      default:
        return { title: '', body: '', confirm: '' };
    }
  })();

  const inviteButton = canManage ? (
    <Button
      variant="contained"
      startIcon={<GroupAddOutlined />}
      onClick={() => setInviting(true)}
      disabled={!organizationId}
      data-testid="members-invite"
      sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
    >
      {t('members.invite.open')}
    </Button>
  ) : undefined;

  const total = members.data?.total ?? 0;
  const pendingTotal = invitations.data?.total ?? 0;

  return (
    <>
      <PageHeader title={t('members.title')} subtitle={t('members.subtitle')} actions={inviteButton} />
      {!canManage && current && (
        <Alert severity="info" variant="outlined" sx={{ mb: 3 }} data-testid="members-read-only">
          {t('members.readOnly', { organization: current.name })}
        </Alert>
      )}

      {members.data ? (
        <Card>
          <MembersTable
            members={members.data.results}
            currentUserId={profile.data?.id}
            canManage={canManage}
            busyUserId={changeRole.isPending ? (changeRole.variables?.userId ?? null) : null}
            onChangeRole={onChangeRole}
            onRemove={(member) => setConfirming({ kind: 'remove', member })}
            onLeave={(member) => setConfirming({ kind: 'leave', member })}
          />
          <Footer
            text={t('members.count', { count: total })}
            testId="members-count"
            pages={Math.ceil(total / PAGE_SIZE)}
            page={page}
            onPageChange={setPage}
          />
        </Card>
      ) : members.isError ? (
        <Card
          sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
          data-testid="members-error"
        >
          <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
            {t('members.errors.load')}
          </Typography>
          <Button variant="outlined" color="secondary" onClick={() => void members.refetch()}>
            {t('members.retry')}
          </Button>
        </Card>
      ) : (
        <Card sx={{ p: 2 }} data-testid="members-loading">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={56} sx={{ mb: i < 2 ? 1.5 : 0 }} />
          ))}
        </Card>
      )}

      {canManage && (
        <Box component="section" sx={{ mt: 5 }} aria-labelledby="pending-invitations-title">
          <Typography id="pending-invitations-title" variant="h4" component="h2" sx={{ mb: 0.5 }}>
            {t('members.invitations.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
            {t('members.invitations.subtitle')}
          </Typography>
          {invitations.data && pendingTotal > 0 ? (
            <Card>
              <PendingInvitationsTable
                invitations={invitations.data.results}
                busyId={resend.isPending ? (resend.variables?.invitationId ?? null) : null}
                onResend={(invitation) => void onResend(invitation)}
                onCopyLink={(invitation) => void onCopyLink(invitation)}
                onRevoke={(invitation) => setConfirming({ kind: 'revoke', invitation })}
              />
              <Footer
                text={t('members.invitations.count', { count: pendingTotal })}
                testId="invitations-count"
                pages={Math.ceil(pendingTotal / PAGE_SIZE)}
                page={invitationPage}
                onPageChange={setInvitationPage}
              />
            </Card>
          ) : invitations.isError ? (
            <Card sx={{ p: 3 }} data-testid="invitations-error">
              <Typography variant="body2" sx={{ color: 'error.main' }}>
                {t('members.errors.loadInvitations')}
              </Typography>
            </Card>
          ) : (
            <Card
              variant="outlined"
              sx={{ p: 3, color: 'text.secondary', typography: 'body2', borderStyle: 'dashed' }}
              data-testid="invitations-empty"
            >
              {invitations.data ? t('members.invitations.empty') : t('common.loading')}
            </Card>
          )}
        </Box>
      )}

      <InviteMemberDialog
        open={isInviting}
        organizationName={current?.name ?? ''}
        onClose={() => setInviting(false)}
        onSubmit={sendInvitation}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={dialogText.title}
        body={dialogText.body}
        confirmLabel={dialogText.confirm}
        busy={remove.isPending || revoke.isPending || changeRole.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirm()}
        confirmTestId="members-confirm"
      />
    </>
  );
}

function Footer({
  text,
  testId,
  pages,
  page,
  onPageChange,
}: {
  text: string;
  testId: string;
  pages: number;
  page: number;
  onPageChange: (page: number) => void;
}) {
  return (
    <>
      <Divider />
      <Box
        sx={{
          px: { xs: 2, md: 3 },
          py: 1.5,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={testId}>
          {text}
        </Typography>
        {pages > 1 && (
          <Pagination
            count={pages}
            page={page}
            onChange={(_, value) => onPageChange(value)}
            shape="rounded"
            size="small"
          />
        )}
      </Box>
    </>
  );
}
