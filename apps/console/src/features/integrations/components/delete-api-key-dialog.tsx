import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Deleting needs confirmation: systems using the key stop working at once. */
export function DeleteApiKeyDialog({
  name,
  busy,
  onCancel,
  onConfirm,
}: {
  /** The key being deleted; the dialog is open while it is set. */
  name: string | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  // Keep showing the last name while the dialog fades out, instead of an empty "".
  const shown = useRef(name);
  if (name !== null) shown.current = name;
  return (
    <Dialog
      open={name !== null}
      onClose={busy ? undefined : onCancel}
      fullWidth
      maxWidth="xs"
      aria-labelledby="integration-delete-title"
    >
      <DialogTitle id="integration-delete-title" sx={{ fontWeight: 600 }}>
        {t('integrations.delete.title')}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{t('integrations.delete.body', { name: shown.current ?? '' })}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onCancel} disabled={busy} color="secondary">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={onConfirm}
          disabled={busy}
          data-testid="integration-delete-confirm"
        >
          {t('integrations.delete.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
