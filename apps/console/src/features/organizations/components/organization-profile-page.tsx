import { ORGANIZATION_DESCRIPTION_MAX, type Organization } from '@cp/contracts';
import { AccountDisplay } from '@cp/ui';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { RecordLoadError } from '../../../components/record-load-error.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { isOrganizationAdmin } from '../../../lib/organization-role.ts';
// The KYB state belongs on this page too (spec §4); the banner is the kyb feature's one component.
import { KybBanner } from '../../kyb/components/kyb-banner.tsx';
import { useOrganization } from '../api/get-organization.ts';
import { useUpdateOrganization } from '../api/update-organization.ts';
import { OrganizationBrandColorField } from './organization-brand-color-field.tsx';
import { OrganizationIssuerPolicySetting } from './organization-issuer-policy-setting.tsx';
import { OrganizationLogoField } from './organization-logo-field.tsx';
import { OrganizationTwoFactorSetting } from './organization-two-factor-setting.tsx';

interface FormValues {
  name: string;
  description: string;
}

const statusColor = {
  UNDEFINED: 'default',
  PENDING: 'warning',
  APPROVED: 'success',
  REJECTED: 'error',
} as const;

/** /organization and /organization/{id}: the organization profile form (spec §2, REFERENCE-PRODUCT). */
export function OrganizationProfilePage() {
  const { t } = useTranslation();
  const params = useParams();
  const { current } = useIdentity();
  const id = params.id ?? current?.id;
  const organization = useOrganization(id);

  return (
    <>
      <PageHeader title={t('organization.title')} subtitle={t('organization.subtitle')} />
      {organization.data ? (
        <>
          <KybBanner organization={organization.data} sx={{ mb: 3 }} />
          <OrganizationForm key={organization.data.id} organization={organization.data} />
          {isOrganizationAdmin(organization.data) && <OrganizationTwoFactorSetting organization={organization.data} />}
          <OrganizationIssuerPolicySetting organization={organization.data} />
        </>
      ) : organization.isError ? (
        <RecordLoadError
          kind="organization"
          error={organization.error}
          catalogueKey="catalogue.getOrganization"
          onRetry={() => void organization.refetch()}
          testId="organization-error"
        />
      ) : (
        <Card sx={{ p: 3 }} data-testid="organization-loading">
          <Skeleton variant="rounded" height={48} width={260} />
          <Skeleton variant="rounded" height={56} sx={{ mt: 3 }} />
          <Skeleton variant="rounded" height={112} sx={{ mt: 2 }} />
        </Card>
      )}
    </>
  );
}

function OrganizationForm({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  // Admins edit the profile; members read it (the API refuses their changes).
  const canEdit = isOrganizationAdmin(organization);
  const update = useUpdateOrganization(organization.id);
  const { register, handleSubmit, watch, reset, formState } = useForm<FormValues>({
    defaultValues: { name: organization.name, description: organization.description ?? '' },
  });
  const description = watch('description') ?? '';

  useEffect(() => {
    reset({ name: organization.name, description: organization.description ?? '' });
  }, [organization, reset]);

  const copyDid = async () => {
    if (!organization.did) return;
    try {
      await navigator.clipboard.writeText(organization.did);
      notify({ severity: 'success', title: t('organization.didCopied') });
    } catch {
      notify({ severity: 'info', title: organization.did });
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ name: values.name.trim(), description: values.description.trim() });
      notify({ severity: 'success', title: t('organization.updated') });
    } catch {
      notify({ severity: 'error', title: t('organization.updateFailed'), message: t('catalogue.updateOrganization') });
    }
  });

  return (
    <Card component="form" noValidate onSubmit={onSubmit} data-testid="organization-form">
      <Box
        sx={{
          p: 3,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          flexWrap: 'wrap',
        }}
      >
        <AccountDisplay
          type="organizations"
          name={organization.name}
          img={organization.logo?.url}
          isVerified={organization.verified}
          verifiedLabel={t('common.verified')}
          username={organization.did ?? undefined}
        />
        <Chip
          size="small"
          variant="outlined"
          color={statusColor[organization.verification_status]}
          label={t(`organization.status.${organization.verification_status}`)}
          data-testid="organization-status"
        />
      </Box>
      <Divider />
      {!canEdit && (
        <Alert severity="info" sx={{ mx: 3, mt: 3 }} data-testid="organization-read-only">
          {t('organizations.readOnly')}
        </Alert>
      )}
      <Box sx={{ p: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '240px 1fr' }, gap: { xs: 2, md: 4 } }}>
        <Box>
          <Typography variant="subtitle2">{t('organization.details')}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('organization.descriptionHelper')}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, minWidth: 0 }}>
          <TextField
            label={t('organization.name')}
            required
            fullWidth
            error={Boolean(formState.errors.name)}
            helperText={formState.errors.name?.message}
            slotProps={{ htmlInput: { 'data-testid': 'organization-name', maxLength: 120, readOnly: !canEdit } }}
            {...register('name', { validate: (v) => v.trim().length > 0 || t('validation.required') })}
          />
          <TextField
            label={t('organization.description')}
            fullWidth
            multiline
            minRows={4}
            error={Boolean(formState.errors.description)}
            helperText={
              formState.errors.description?.message ??
              t('common.characterCount', { count: description.length, max: ORGANIZATION_DESCRIPTION_MAX })
            }
            slotProps={{
              htmlInput: { 'data-testid': 'organization-description', readOnly: !canEdit },
              formHelperText: { sx: { textAlign: formState.errors.description ? 'left' : 'right' } },
            }}
            {...register('description', {
              maxLength: {
                value: ORGANIZATION_DESCRIPTION_MAX,
                message: t('common.maxLength', { count: ORGANIZATION_DESCRIPTION_MAX }),
              },
            })}
          />
          {organization.did && (
            <TextField
              label={t('organization.did')}
              value={organization.did}
              fullWidth
              helperText={t('organization.didHelper')}
              slotProps={{
                htmlInput: { readOnly: true, 'data-testid': 'organization-did' },
                input: {
                  sx: {
                    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
                    fontSize: 14,
                    bgcolor: 'grey.50',
                  },
                  endAdornment: (
                    <InputAdornment position="end">
                      <Tooltip title={t('organization.copyDid')}>
                        <IconButton aria-label={t('organization.copyDid')} onClick={copyDid} edge="end">
                          <ContentCopyOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </InputAdornment>
                  ),
                },
              }}
            />
          )}
        </Box>
      </Box>
      <Divider />
      <Box sx={{ p: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '240px 1fr' }, gap: { xs: 2, md: 4 } }}>
        <Box>
          <Typography variant="subtitle2">{t('organizations.logo.title')}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('organizations.logo.helper')}
          </Typography>
        </Box>
        <OrganizationLogoField organization={organization} readOnly={!canEdit} />
      </Box>
      {canEdit && (
        <>
          <Divider />
          <Box
            sx={{ p: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '240px 1fr' }, gap: { xs: 2, md: 4 } }}
          >
            <Box>
              <Typography variant="subtitle2">{t('organizations.brandColor.title')}</Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
                {t('organizations.brandColor.helper')}
              </Typography>
            </Box>
            <OrganizationBrandColorField organization={organization} />
          </Box>
        </>
      )}
      {canEdit && (
        <>
          <Divider />
          <Box sx={{ px: 3, py: 2, display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
            <Button
              color="secondary"
              disabled={!formState.isDirty || update.isPending}
              onClick={() => reset({ name: organization.name, description: organization.description ?? '' })}
            >
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={update.isPending} data-testid="organization-save">
              {update.isPending ? t('common.saving') : t('common.save')}
            </Button>
          </Box>
        </>
      )}
    </Card>
  );
}
