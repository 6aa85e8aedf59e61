import type { CredentialSchemaAttribute } from '@cp/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { type ClaimFormValue, emptyClaims, type RecipientDraft, recipientErrors } from './claim-form.ts';

type Draft = Omit<RecipientDraft, 'key'>;

const inputType = {
  TEXT: 'text',
  NUMBER: 'text',
  EMAIL: 'email',
  URL: 'url',
  // A date and a time (the attribute is a date-time; the claim keeps the time).
  DATETIME: 'datetime-local',
  BOOLEAN: 'text',
} as const;

/** Adds or edits one recipient: e-mail, names and the claims typed by the schema's attributes. */
export function RecipientDialog({
  open,
  attributes,
  initial,
  onCancel,
  onSave,
}: {
  open: boolean;
  attributes: CredentialSchemaAttribute[];
  initial: RecipientDraft | null;
  onCancel: () => void;
  onSave: (draft: Draft) => void;
}) {
  const { t } = useTranslation();
  const blank = (): Draft => ({ email: '', first_name: '', last_name: '', claims: emptyClaims(attributes) });
  const [draft, setDraft] = useState<Draft>(blank);
  const [submitted, setSubmitted] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (open) {
      setDraft(initial ? { ...initial, claims: { ...emptyClaims(attributes), ...initial.claims } } : blank());
      setSubmitted(false);
    }
  }, [open]);

  const errors = recipientErrors(draft, attributes);
  const errorText = (field: string) =>
    submitted && errors[field] ? t(`issuing.validation.${errors[field]}`) : undefined;
  const setClaim = (name: string, value: ClaimFormValue) =>
    setDraft((d) => ({ ...d, claims: { ...d.claims, [name]: value } }));

  const save = () => {
    setSubmitted(true);
    if (Object.keys(errors).length === 0) onSave(draft);
  };

  return (
    <Dialog open={open} onClose={onCancel} fullWidth maxWidth="sm">
      <DialogTitle sx={{ fontWeight: 600 }}>
        {initial ? t('issuing.recipients.editTitle') : t('issuing.recipients.addTitle')}
      </DialogTitle>
      <DialogContent>
        <Box
          component="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
          sx={{ display: 'grid', gap: 2, pt: 1 }}
        >
          <TextField
            label={t('issuing.recipients.email')}
            type="email"
            value={draft.email}
            onChange={(e) => setDraft((d) => ({ ...d, email: e.target.value }))}
            error={Boolean(errorText('email'))}
            helperText={errorText('email')}
            slotProps={{ htmlInput: { 'data-testid': 'recipient-email' } }}
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              label={t('issuing.recipients.firstName')}
              value={draft.first_name}
              onChange={(e) => setDraft((d) => ({ ...d, first_name: e.target.value }))}
              error={Boolean(errorText('first_name'))}
              helperText={errorText('first_name')}
              slotProps={{ htmlInput: { 'data-testid': 'recipient-first-name' } }}
            />
            <TextField
              label={t('issuing.recipients.lastName')}
              value={draft.last_name}
              onChange={(e) => setDraft((d) => ({ ...d, last_name: e.target.value }))}
              error={Boolean(errorText('last_name'))}
              helperText={errorText('last_name')}
              slotProps={{ htmlInput: { 'data-testid': 'recipient-last-name' } }}
            />
          </Box>
          {attributes.length > 0 && (
            <Typography variant="subtitle2" sx={{ mt: 1 }}>
              {t('issuing.recipients.claims')}
            </Typography>
          )}
          {attributes.map((attribute) =>
            attribute.type === 'BOOLEAN' ? (
              <FormControlLabel
                key={attribute.name}
                label={attribute.name}
                control={
                  <Switch
                    checked={draft.claims[attribute.name] === true}
                    onChange={(e) => setClaim(attribute.name, e.target.checked)}
                    slotProps={{ input: { 'data-testid': `claim-${attribute.name}` } as object }}
                  />
                }
              />
            ) : (
              <TextField
                key={attribute.name}
                label={attribute.name}
                type={inputType[attribute.type]}
                value={String(draft.claims[attribute.name] ?? '')}
                onChange={(e) => setClaim(attribute.name, e.target.value)}
                error={Boolean(errorText(`claim.${attribute.name}`))}
                helperText={errorText(`claim.${attribute.name}`) ?? attribute.description ?? undefined}
                slotProps={{
                  inputLabel: attribute.type === 'DATETIME' ? { shrink: true } : undefined,
                  htmlInput: {
                    'data-testid': `claim-${attribute.name}`,
                    inputMode: attribute.type === 'NUMBER' ? 'decimal' : undefined,
                  },
                }}
              />
            ),
          )}
          <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={save} data-testid="recipient-save">
          {t('issuing.recipients.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
