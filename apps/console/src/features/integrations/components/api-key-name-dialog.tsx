import { API_KEY_NAME_MAX } from '@cp/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../i18n/index.ts';

interface FormValues {
  name: string;
}

/** Add (no `initialName`) or rename an API key: only its name can be chosen or changed. */
export function ApiKeyNameDialog({
  open,
  mode,
  initialName = '',
  onClose,
  onSubmit,
}: {
  open: boolean;
  mode: 'create' | 'rename';
  initialName?: string;
  onClose: () => void;
  /** Resolves when saved; rejects (after notifying) to keep the dialog open. */
  onSubmit: (name: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { register, handleSubmit, formState } = useForm<FormValues>({ values: { name: initialName } });
  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values.name.trim());
    } catch {
      // The caller has told the user; the dialog stays open so nothing typed is lost.
    }
  });
  const titleId = `integration-${mode}-title`;

  return (
    <Dialog
      open={open}
      onClose={formState.isSubmitting ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby={titleId}
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId} sx={{ fontWeight: 600 }}>
          {mode === 'create' ? t('integrations.form.createTitle') : t('integrations.form.renameTitle')}
        </DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          {mode === 'create' && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2.5 }}>
              {t('integrations.form.createBody')}
            </Typography>
          )}
          <TextField
            label={t('integrations.form.name')}
            placeholder={t('integrations.form.namePlaceholder')}
            required
            fullWidth
            autoFocus
            error={Boolean(formState.errors.name)}
            helperText={formState.errors.name?.message ?? t('integrations.form.nameHelper')}
            slotProps={{ htmlInput: { 'data-testid': 'integration-name', maxLength: API_KEY_NAME_MAX } }}
            {...register('name', {
              validate: (value) => {
                const trimmed = value.trim();
                if (!trimmed) return t('validation.required');
                if (trimmed.length > API_KEY_NAME_MAX) return t('common.maxLength', { count: API_KEY_NAME_MAX });
                return true;
              },
            })}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} disabled={formState.isSubmitting} color="secondary">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="integration-save">
            {formState.isSubmitting
              ? t('common.saving')
              : mode === 'create'
                ? t('integrations.form.create')
                : t('integrations.form.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
