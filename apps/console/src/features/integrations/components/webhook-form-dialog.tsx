import {
  type CreateWebhookRequest,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_URL_MAX,
  type WebhookEventType,
  webhookEventTypes,
  zCreateWebhookRequest,
} from '@cp/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from '../../../i18n/index.ts';

interface FormValues {
  url: string;
  description: string;
  events: WebhookEventType[];
}

const isValidUrl = (value: string) => zCreateWebhookRequest.shape.url.safeParse(value).success;

/** Add a webhook endpoint: where to send, which events, and a note for the team. */
export function WebhookFormDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  /** Resolves when saved; rejects (after notifying) to keep the dialog open. */
  onSubmit: (body: CreateWebhookRequest) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { register, control, handleSubmit, formState, reset } = useForm<FormValues>({
    defaultValues: { url: '', description: '', events: ['verification.completed'] },
  });
  const submit = handleSubmit(async (values) => {
    try {
      const description = values.description.trim();
      await onSubmit({
        url: values.url.trim(),
        events: webhookEventTypes.filter((event) => values.events.includes(event)),
        ...(description ? { description } : {}),
      });
      reset();
    } catch {
      // The caller has told the user; the dialog stays open so nothing typed is lost.
    }
  });
  const close = () => {
    reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={formState.isSubmitting ? undefined : close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="webhook-form-title"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id="webhook-form-title" sx={{ fontWeight: 600 }}>
          {t('integrations.webhooks.form.title')}
        </DialogTitle>
        <DialogContent sx={{ pt: '8px !important', display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('integrations.webhooks.form.body')}
          </Typography>
          <TextField
            label={t('integrations.webhooks.form.url')}
            placeholder="https://example.com/webhooks"
            required
            fullWidth
            autoFocus
            type="url"
            error={Boolean(formState.errors.url)}
            helperText={formState.errors.url?.message ?? t('integrations.webhooks.form.urlHelper')}
            slotProps={{ htmlInput: { 'data-testid': 'webhook-url', maxLength: WEBHOOK_URL_MAX } }}
            {...register('url', {
              validate: (value) => {
                const trimmed = value.trim();
                if (!trimmed) return t('validation.required');
                return isValidUrl(trimmed) || t('validation.url');
              },
            })}
          />
          <Controller
            control={control}
            name="events"
            rules={{ validate: (value) => value.length > 0 || t('integrations.webhooks.form.eventsRequired') }}
            render={({ field, fieldState }) => (
              <FormControl component="fieldset" error={Boolean(fieldState.error)} required>
                <FormLabel component="legend" sx={{ typography: 'subtitle1', color: 'text.primary', mb: 0.5 }}>
                  {t('integrations.webhooks.form.events')}
                </FormLabel>
                <FormGroup>
                  {webhookEventTypes.map((event) => (
                    <FormControlLabel
                      key={event}
                      sx={{ alignItems: 'flex-start', mr: 0, mb: 0.5 }}
                      control={
                        <Checkbox
                          size="small"
                          sx={{ mt: -0.25 }}
                          checked={field.value.includes(event)}
                          onChange={(_, checked) =>
                            field.onChange(
                              checked ? [...field.value, event] : field.value.filter((value) => value !== event),
                            )
                          }
                          slotProps={{ input: { 'data-testid': `webhook-event-${event}` } as object }}
                        />
                      }
                      label={
                        <Box sx={{ pt: 0.5 }}>
                          <Typography variant="body2" component="span" sx={{ display: 'block', fontWeight: 500 }}>
                            {t(`integrations.webhooks.events.${event}`)}
                          </Typography>
                          <Typography
                            variant="body2"
                            component="code"
                            sx={{ color: 'text.secondary', fontFamily: 'ui-monospace, Menlo, monospace', fontSize: 12 }}
                          >
                            {event}
                          </Typography>
                        </Box>
                      }
                    />
                  ))}
                </FormGroup>
                {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
              </FormControl>
            )}
          />
          <TextField
            label={t('integrations.webhooks.form.description')}
            fullWidth
            multiline
            minRows={2}
            error={Boolean(formState.errors.description)}
            helperText={formState.errors.description?.message ?? t('integrations.webhooks.form.descriptionHelper')}
            slotProps={{
              htmlInput: { 'data-testid': 'webhook-description', maxLength: WEBHOOK_DESCRIPTION_MAX },
            }}
            {...register('description', {
              validate: (value) =>
                value.trim().length <= WEBHOOK_DESCRIPTION_MAX ||
                t('common.maxLength', { count: WEBHOOK_DESCRIPTION_MAX }),
            })}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} disabled={formState.isSubmitting} color="secondary">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="webhook-save">
            {formState.isSubmitting ? t('common.saving') : t('integrations.webhooks.form.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
