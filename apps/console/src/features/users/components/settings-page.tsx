import type { UserProfile } from '@cp/contracts';
import { AccountDisplay } from '@cp/ui';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { toSupportedLanguage } from '../../../i18n/detect-language.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { usePublicConfig, withReturnTo } from '../../../lib/public-config.ts';
import { useUserProfile } from '../api/get-user-profile.ts';
import { updateUserProfile, useUpdateUserProfile } from '../api/update-user-profile.ts';
import { AvatarUploader } from './avatar-uploader.tsx';

interface FormValues {
  first_name: string;
  last_name: string;
  job_title: string;
  avatar_url: string;
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Box sx={{ p: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '240px 1fr' }, gap: { xs: 2, md: 4 } }}>
      <Box>
        <Typography variant="subtitle2" component="h2">
          {title}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
          {description}
        </Typography>
      </Box>
      <Box sx={{ minWidth: 0 }}>{children}</Box>
    </Box>
  );
}

/** /settings: personal profile, language and password (spec §1, §2). */
export function SettingsPage() {
  const { t, i18n } = useTranslation();
  const profile = useUserProfile();
  const config = usePublicConfig();
  const passwordUrl = config.data?.password_change_url;

  return (
    <>
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <Card>
        {profile.data ? (
          <ProfileForm key={profile.data.id} profile={profile.data} />
        ) : (
          <Box sx={{ p: 3 }} data-testid="settings-loading">
            <Skeleton variant="rounded" height={56} />
            <Skeleton variant="rounded" height={56} sx={{ mt: 2 }} />
          </Box>
        )}
        <Divider />
        <Section title={t('settings.language')} description={t('settings.languageHelp')}>
          <LanguageSelect
            testId="settings-language"
            size="medium"
            // In the language just chosen: this render's `t` is still the previous language's. The choice is also
            // the person's language for the e-mails the platform sends them (e.g. the KYB decision).
            onChanged={async () => {
              const locale = toSupportedLanguage(i18n.language);
              try {
                if (locale) await updateUserProfile({ locale });
                notify({ severity: 'success', title: i18n.t('settings.languageSaved') });
              } catch {
                notify({ severity: 'error', title: i18n.t('settings.saveFailed') });
              }
            }}
          />
        </Section>
        {passwordUrl && (
          <>
            <Divider />
            <Section title={t('settings.password')} description={t('settings.passwordHelp')}>
              <Button
                variant="outlined"
                color="secondary"
                startIcon={<LockOutlined />}
                href={withReturnTo(passwordUrl)}
                data-testid="change-password"
                sx={{ borderColor: 'grey.300' }}
              >
                {t('settings.changePassword')}
              </Button>
            </Section>
          </>
        )}
      </Card>
    </>
  );
}

/** Japanese and Korean write the family name first; the form follows that order. */
const FAMILY_NAME_FIRST = ['ja', 'ko'];

function ProfileForm({ profile }: { profile: UserProfile }) {
  const { t, i18n } = useTranslation();
  const familyNameFirst = FAMILY_NAME_FIRST.includes(i18n.language);
  const update = useUpdateUserProfile();
  const defaults: FormValues = {
    first_name: profile.first_name ?? '',
    last_name: profile.last_name ?? '',
    job_title: profile.job_title ?? '',
    avatar_url: profile.avatar?.url ?? '',
  };
  const { register, handleSubmit, reset, watch, setValue, formState } = useForm<FormValues>({
    defaultValues: defaults,
  });
  const avatarUrl = watch('avatar_url');
  const name = [watch('first_name'), watch('last_name')].filter(Boolean).join(' ') || profile.username || '';

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync({
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        job_title: values.job_title.trim(),
        avatar_url: values.avatar_url.trim(),
      });
      reset({
        first_name: saved.first_name ?? '',
        last_name: saved.last_name ?? '',
        job_title: saved.job_title ?? '',
        avatar_url: saved.avatar?.url ?? '',
      });
      notify({ severity: 'success', title: t('settings.saved') });
    } catch {
      notify({ severity: 'error', title: t('settings.saveFailed') });
    }
  });

  const required = { validate: (v: string) => v.trim().length > 0 || t('validation.required') };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} data-testid="settings-profile-form">
      <Section title={t('settings.profile')} description={t('settings.profileHelp')}>
        <Box sx={{ mb: 3 }}>
          <AccountDisplay
            type="users"
            name={name}
            username={profile.email}
            img={avatarUrl && isHttpUrl(avatarUrl) ? avatarUrl : undefined}
            verifiedLabel={t('common.verified')}
          />
        </Box>
        <Box sx={{ mb: 3 }}>
          <AvatarUploader onSaved={(saved) => setValue('avatar_url', saved.avatar?.url ?? '')} />
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2.5 }}>
          {familyNameFirst ? (
            <>
              <TextField
                label={t('settings.lastName')}
                required
                error={Boolean(formState.errors.last_name)}
                helperText={formState.errors.last_name?.message}
                slotProps={{ htmlInput: { 'data-testid': 'settings-last-name', maxLength: 100 } }}
                {...register('last_name', required)}
              />
              <TextField
                label={t('settings.firstName')}
                required
                error={Boolean(formState.errors.first_name)}
                helperText={formState.errors.first_name?.message}
                slotProps={{ htmlInput: { 'data-testid': 'settings-first-name', maxLength: 100 } }}
                {...register('first_name', required)}
              />
            </>
          ) : (
            <>
              <TextField
                label={t('settings.firstName')}
                required
                error={Boolean(formState.errors.first_name)}
                helperText={formState.errors.first_name?.message}
                slotProps={{ htmlInput: { 'data-testid': 'settings-first-name', maxLength: 100 } }}
                {...register('first_name', required)}
              />
              <TextField
                label={t('settings.lastName')}
                required
                error={Boolean(formState.errors.last_name)}
                helperText={formState.errors.last_name?.message}
                slotProps={{ htmlInput: { 'data-testid': 'settings-last-name', maxLength: 100 } }}
                {...register('last_name', required)}
              />
            </>
          )}
          <TextField
            label={t('settings.jobTitle')}
            sx={{ gridColumn: { sm: '1 / -1' } }}
            slotProps={{ htmlInput: { 'data-testid': 'settings-job-title', maxLength: 120 } }}
            {...register('job_title')}
          />
          <TextField
            label={t('settings.avatarUrl')}
            type="url"
            placeholder="https://"
            sx={{ gridColumn: { sm: '1 / -1' } }}
            error={Boolean(formState.errors.avatar_url)}
            helperText={formState.errors.avatar_url?.message}
            slotProps={{
              htmlInput: { 'data-testid': 'settings-avatar-url', maxLength: 2048 },
              // An uploaded avatar fills the field programmatically, which the label does not notice by itself.
              inputLabel: avatarUrl ? { shrink: true } : {},
            }}
            {...register('avatar_url', {
              validate: (v) => !v.trim() || isHttpUrl(v.trim()) || t('validation.url'),
            })}
          />
          {profile.email && (
            <TextField
              label={t('settings.email')}
              value={profile.email}
              sx={{ gridColumn: { sm: '1 / -1' } }}
              slotProps={{
                htmlInput: { readOnly: true, 'data-testid': 'settings-email' },
                input: { sx: { bgcolor: 'grey.50' } },
              }}
            />
          )}
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, mt: 3 }}>
          <Button color="secondary" disabled={!formState.isDirty || update.isPending} onClick={() => reset(defaults)}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={update.isPending} data-testid="settings-save">
            {update.isPending ? t('common.saving') : t('common.save')}
          </Button>
        </Box>
      </Section>
    </Box>
  );
}
