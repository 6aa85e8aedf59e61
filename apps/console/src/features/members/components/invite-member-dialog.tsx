import { INVITATION_EMAIL_MAX, type MemberRole, ProblemCode, type SentInvitation } from '@cp/contracts';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CopyField } from '../../../components/copy-field.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { problemMessageKeys } from '../../../lib/problem-messages.ts';

interface FormValues {
  email: string;
  role: MemberRole;
}

/** The shape the API accepts (zod's e-mail check is the authority; this catches typos before sending). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Invite someone by e-mail with a role, each role explained. Once sent, the dialog says so and shows the link (the
 * only time it is available) for sharing another way.
 */
export function InviteMemberDialog({
  open,
  organizationName,
  onClose,
  onSubmit,
}: {
  open: boolean;
  organizationName: string;
  onClose: () => void;
  /** Sends the invitation; rejects with the API's error. */
  onSubmit: (values: FormValues) => Promise<SentInvitation>;
}) {
  const { t } = useTranslation();
  const [sent, setSent] = useState<SentInvitation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, control, formState, setError, reset } = useForm<FormValues>({
    defaultValues: { email: '', role: 'member' },
  });

  const close = () => {
    onClose();
    // After the closing transition, the next opening starts afresh.
    setTimeout(() => {
      setSent(null);
      setFailure(null);
      reset({ email: '', role: 'member' });
    }, 200);
  };

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      setSent(await onSubmit({ email: values.email.trim(), role: values.role }));
    } catch (error) {
      if (isApiError(error) && error.is(ProblemCode.ORGANIZATION_ALREADY_MEMBER)) {
        setError('email', { message: t(problemMessageKeys[ProblemCode.ORGANIZATION_ALREADY_MEMBER]) });
      } else if (isApiError(error) && error.status === 400) {
        setError('email', { message: t('validation.email') });
      } else {
        setFailure(t('members.errors.invite'));
      }
    }
  });

  const roleOption = (role: MemberRole) => (
    <FormControlLabel
      value={role}
      control={<Radio slotProps={{ input: { 'data-testid': `invite-role-${role}` } as object }} />}
      sx={{
        alignItems: 'flex-start',
        m: 0,
        p: 1.5,
        pr: 2,
        border: 1,
        borderColor: 'grey.300',
        borderRadius: 1,
        '& .MuiRadio-root': { mt: -0.75, ml: -0.75 },
      }}
      label={
        <Box>
          <Typography variant="subtitle2">{t(`members.roles.${role}`)}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t(`members.roleHelp.${role}`)}
          </Typography>
        </Box>
      }
    />
  );

  return (
    <Dialog
      open={open}
      onClose={formState.isSubmitting ? undefined : close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="invite-member-title"
      data-testid="invite-dialog"
    >
      {sent ? (
        <>
          <DialogTitle id="invite-member-title" sx={{ fontWeight: 600, display: 'flex', alignItems: 'center', gap: 1 }}>
            <MarkEmailReadOutlined color="success" />
            {t('members.invite.sentTitle')}
          </DialogTitle>
          <DialogContent>
            <Typography variant="body1" sx={{ mb: 2.5 }} data-testid="invite-sent">
              {t('members.invite.sentBody', {
                email: sent.email,
                organization: organizationName,
                role: t(`members.roles.${sent.role}`),
              })}
            </Typography>
            <CopyField
              label={t('members.invite.link')}
              value={sent.url}
              copyLabel={t('members.invitations.copyLink')}
              copiedTitle={t('members.invitations.linkCopied')}
              valueTestId="invite-link"
              copyTestId="invite-link-copy"
            />
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
              {t('members.invite.linkHelp', { email: sent.email })}
            </Typography>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button variant="contained" onClick={close} data-testid="invite-done">
              {t('members.invite.done')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <form noValidate onSubmit={submit}>
          <DialogTitle id="invite-member-title" sx={{ fontWeight: 600 }}>
            {t('members.invite.title', { organization: organizationName })}
          </DialogTitle>
          <DialogContent sx={{ pt: '8px !important' }}>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2.5 }}>
              {t('members.invite.body')}
            </Typography>
            {failure && (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="invite-error">
                {failure}
              </Alert>
            )}
            <TextField
              label={t('members.fields.email')}
              type="email"
              required
              fullWidth
              autoFocus
              autoComplete="off"
              placeholder={t('members.invite.emailPlaceholder')}
              error={Boolean(formState.errors.email)}
              helperText={formState.errors.email?.message ?? t('members.invite.emailHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'invite-email', maxLength: INVITATION_EMAIL_MAX } }}
              {...register('email', {
                validate: (value) => {
                  const trimmed = value.trim();
                  if (!trimmed) return t('validation.required');
                  return EMAIL.test(trimmed) || t('validation.email');
                },
              })}
            />
            <FormLabel component="legend" sx={{ mt: 3, mb: 1, typography: 'subtitle2', color: 'text.primary' }}>
              {t('members.fields.role')}
            </FormLabel>
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <RadioGroup {...field} sx={{ gap: 1 }} aria-label={t('members.fields.role')}>
                  {roleOption('member')}
                  {roleOption('admin')}
                </RadioGroup>
              )}
            />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button onClick={close} disabled={formState.isSubmitting} color="secondary">
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="invite-send">
              {formState.isSubmitting ? t('members.invite.sending') : t('members.invite.send')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
