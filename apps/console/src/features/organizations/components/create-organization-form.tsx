import { ORGANIZATION_DESCRIPTION_MAX } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../i18n/index.ts';
import { useCreateOrganization } from '../api/create-organization.ts';

interface FormValues {
  name: string;
  description: string;
}

/** The console's own organization form, used when no account center handles creation (config URL is null). */
export function CreateOrganizationForm({ onCreated, onCancel }: { onCreated?: () => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  const create = useCreateOrganization();
  const { register, handleSubmit, watch, formState } = useForm<FormValues>({
    defaultValues: { name: '', description: '' },
  });
  const description = watch('description') ?? '';

  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit(async (values) => {
        await create.mutateAsync({ name: values.name.trim(), description: values.description.trim() || undefined });
        onCreated?.();
      })}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
    >
      {create.isError && (
        <Alert severity="error" data-testid="create-organization-error">
          {t('organization.createFailed')}
        </Alert>
      )}
      <TextField
        label={t('organization.name')}
        required
        fullWidth
        autoFocus
        error={Boolean(formState.errors.name)}
        helperText={formState.errors.name?.message}
        slotProps={{ htmlInput: { 'data-testid': 'create-organization-name', maxLength: 120 } }}
        {...register('name', { validate: (v) => v.trim().length > 0 || t('validation.required') })}
      />
      <TextField
        label={t('organization.description')}
        fullWidth
        multiline
        minRows={3}
        error={Boolean(formState.errors.description)}
        helperText={
          formState.errors.description?.message ??
          t('common.characterCount', { count: description.length, max: ORGANIZATION_DESCRIPTION_MAX })
        }
        slotProps={{ htmlInput: { 'data-testid': 'create-organization-description' } }}
        {...register('description', {
          maxLength: {
            value: ORGANIZATION_DESCRIPTION_MAX,
            message: t('common.maxLength', { count: ORGANIZATION_DESCRIPTION_MAX }),
          },
        })}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        {onCancel && (
          <Button color="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={create.isPending} data-testid="create-organization-submit">
          {t('organization.createSubmit')}
        </Button>
      </Box>
    </Box>
  );
}
