import type { MemberRole, PublicInvitation } from '@cp/contracts';
import { ProblemCode } from '@cp/contracts';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { rememberSignInReturn } from '../../../lib/sign-in-return.ts';
import { useHasSession } from '../../../lib/use-session.ts';
// Signing in, out and switching accounts are the auth feature's; this page only comes back here afterwards.
import { logout } from '../../auth/api/logout.ts';
import { startAuth } from '../../auth/api/start-auth.ts';
import { useAcceptInvitation } from '../api/accept-invitation.ts';
import { useInvitation } from '../api/get-invitation.ts';

/**
 * /invitations/{token}: "<inviter> invited you to join <organization> as <role>". Signed out: sign in or create an
 * account at the account center, which brings the person back here. Signed in: accept; the organization becomes the
 * current one and its credential list opens. Signed in with another account than the invited one: the invited
 * address (partly masked) and a way to sign in with it.
 */
export function InvitationPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const invitation = useInvitation(token);

  return (
    <Box sx={{ maxWidth: 560, mx: 'auto' }}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <LanguageSelect testId="invitation-language" />
      </Box>
      {invitation.data ? (
        <InvitationCard token={token} invitation={invitation.data} />
      ) : invitation.isError ? (
        <Unavailable code={isApiError(invitation.error) ? invitation.error.code : null} />
      ) : (
        <Card sx={{ p: { xs: 3, sm: 5 } }} data-testid="invitation-loading" aria-label={t('common.loading')}>
          <Skeleton variant="rounded" width={56} height={56} />
          <Skeleton variant="text" height={40} sx={{ mt: 2 }} />
          <Skeleton variant="text" height={24} />
          <Skeleton variant="rounded" height={44} sx={{ mt: 3 }} />
        </Card>
      )}
    </Box>
  );
}

function InvitationCard({ token, invitation }: { token: string; invitation: PublicInvitation }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useHasSession();
  const { selectOrganization } = useIdentity();
  const accept = useAcceptInvitation(token);
  const [leaving, setLeaving] = useState(false);
  const [invitedAddress, setInvitedAddress] = useState<string | null>(null);
  const [gone, setGone] = useState<ProblemCode | null>(null);
  const organization = invitation.organization.name;
  const role = t(`invitations.roles.${invitation.role}`);
  const inviter = [invitation.inviter?.first_name, invitation.inviter?.last_name].filter(Boolean).join(' ');
  const expires = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(invitation.expires_at));

  /** To the account center and back here: sign in, create an account, or sign in as someone else. */
  const leaveFor = async (options: { signup?: boolean; reauthenticate?: boolean }) => {
    setLeaving(true);
    rememberSignInReturn(`/invitations/${token}`);
    try {
      if (options.reauthenticate) await logout();
      await startAuth(options);
    } catch {
      setLeaving(false);
      notify({ severity: 'error', title: t('invitations.errors.signIn') });
    }
  };

  const join = async () => {
    setInvitedAddress(null);
    try {
      const accepted = await accept.mutateAsync();
      // The new organization becomes the current one (the list is reloaded first), then its credentials open.
      await selectOrganization(accepted.organization_id);
      notify({ severity: 'success', title: t('invitations.joined', { organization }) });
      navigate(`/credentials/${accepted.organization_id}`, { replace: true });
    } catch (error) {
      if (isApiError(error) && error.is(ProblemCode.INVITATION_EMAIL_MISMATCH)) {
        setInvitedAddress(error.problem?.errors?.[0]?.message ?? '');
      } else if (isApiError(error) && error.status === 410) {
        setGone(error.code ?? ProblemCode.INVITATION_EXPIRED);
      } else if (isApiError(error) && error.status === 404) {
        setGone(ProblemCode.INVITATION_NOT_FOUND);
      } else {
        notify({ severity: 'error', title: t('invitations.errors.accept') });
      }
    }
  };

  if (gone) return <Unavailable code={gone} />;

  return (
    <Card sx={{ p: { xs: 3, sm: 5 } }} data-testid="invitation">
      <Avatar
        variant="rounded"
        src={invitation.organization.logo_url ?? undefined}
        alt=""
        sx={{ width: 56, height: 56, bgcolor: 'primary.50', color: 'primary.main' }}
      >
        <BusinessOutlined />
      </Avatar>
      <Typography variant="subtitle1" component="p" sx={{ color: 'text.secondary', mt: 2 }}>
        {organization}
      </Typography>
      <Typography
        variant="h3"
        component="h1"
        sx={{ fontSize: { xs: 22, sm: 26 }, lineHeight: 1.3, mt: 0.5, overflowWrap: 'anywhere' }}
        data-testid="invitation-title"
      >
        {inviter
          ? t('invitations.titleFrom', { inviter, organization, role })
          : t('invitations.title', { organization, role })}
      </Typography>
      <RoleSummary role={invitation.role} />
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 2 }} data-testid="invitation-expires">
        {t('invitations.expires', { date: expires })}
      </Typography>
      <Divider sx={{ my: 3 }} />

      {invitedAddress !== null && (
        <Alert severity="warning" sx={{ mb: 3 }} data-testid="invitation-mismatch">
          <AlertTitle sx={{ fontWeight: 600 }}>{t('invitations.mismatch.title')}</AlertTitle>
          {t('invitations.mismatch.body', { email: invitedAddress })}
        </Alert>
      )}

      {!signedIn ? (
        <>
          <Typography variant="subtitle2" component="h2">
            {t('invitations.signedOut.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, mb: 2.5 }}>
            {t('invitations.signedOut.body')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1.5, flexDirection: { xs: 'column', sm: 'row' } }}>
            <Button
              variant="contained"
              size="large"
              disabled={leaving}
              onClick={() => void leaveFor({})}
              data-testid="invitation-sign-in"
            >
              {t('invitations.signedOut.signIn')}
            </Button>
            <Button
              variant="outlined"
              color="secondary"
              size="large"
              disabled={leaving}
              onClick={() => void leaveFor({ signup: true })}
              data-testid="invitation-sign-up"
              sx={{ borderColor: 'grey.300' }}
            >
              {t('invitations.signedOut.signUp')}
            </Button>
          </Box>
        </>
      ) : invitedAddress !== null ? (
        <Box sx={{ display: 'flex', gap: 1.5, flexDirection: { xs: 'column', sm: 'row' } }}>
          <Button
            variant="contained"
            size="large"
            disabled={leaving}
            onClick={() => void leaveFor({ reauthenticate: true })}
            data-testid="invitation-switch-account"
          >
            {t('invitations.mismatch.switch', { email: invitedAddress })}
          </Button>
        </Box>
      ) : (
        <>
          <Button
            variant="contained"
            size="large"
            fullWidth
            disabled={accept.isPending || leaving}
            onClick={() => void join()}
            data-testid="invitation-accept"
          >
            {accept.isPending ? t('invitations.accepting') : t('invitations.accept', { organization })}
          </Button>
          <Button
            color="secondary"
            size="small"
            disabled={accept.isPending || leaving}
            onClick={() => void leaveFor({ reauthenticate: true })}
            sx={{ mt: 1.5 }}
            data-testid="invitation-other-account"
          >
            {t('invitations.otherAccount')}
          </Button>
        </>
      )}
    </Card>
  );
}

function RoleSummary({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  return (
    <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1.5 }} data-testid="invitation-role-help">
      {t(`invitations.roleHelp.${role}`)}
    </Typography>
  );
}

/** Why an invitation cannot be used, by the API's answer; any other failure is `failed` (not loadable). */
const UNAVAILABLE_REASONS: { readonly [Code in ProblemCode]?: 'expired' | 'used' | 'revoked' | 'notFound' } = {
  [ProblemCode.INVITATION_EXPIRED]: 'expired',
  [ProblemCode.INVITATION_ALREADY_USED]: 'used',
  [ProblemCode.INVITATION_REVOKED]: 'revoked',
  [ProblemCode.INVITATION_NOT_FOUND]: 'notFound',
  // A malformed token in the address: no invitation can have it.
  [ProblemCode.REQUEST_INVALID]: 'notFound',
};

/** An invitation that cannot be used: unknown, expired, already used or revoked (or not loadable). */
function Unavailable({ code }: { code: ProblemCode | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useHasSession();
  const key = (code && UNAVAILABLE_REASONS[code]) ?? 'failed';
  return (
    <Card sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }} data-testid="invitation-unavailable" data-reason={key}>
      <Box sx={{ fontSize: 48, color: 'text.secondary', display: 'flex', justifyContent: 'center', mb: 2 }}>
        {key === 'expired' ? <EventBusyOutlined fontSize="inherit" /> : <LinkOffOutlined fontSize="inherit" />}
      </Box>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
        {t(`invitations.unavailable.${key}.title`)}
      </Typography>
      <Typography variant="body1" sx={{ color: 'text.secondary' }}>
        {t(`invitations.unavailable.${key}.body`)}
      </Typography>
      {signedIn && (
        <Button variant="outlined" color="secondary" sx={{ mt: 3 }} onClick={() => navigate('/credentials')}>
          {t('invitations.unavailable.toConsole')}
        </Button>
      )}
    </Card>
  );
}
