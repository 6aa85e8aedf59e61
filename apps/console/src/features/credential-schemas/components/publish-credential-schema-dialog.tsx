import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from '../../../i18n/index.ts';

/** Publishing is final: a published schema is never edited (spec §4). */
export function PublishCredentialSchemaDialog({
  open,
  isPublishing,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  isPublishing: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={isPublishing ? undefined : onCancel} maxWidth="xs" fullWidth>
      <DialogTitle>{t('credentialSchemas.publishDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('credentialSchemas.publishDialog.body')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="secondary" onClick={onCancel} disabled={isPublishing}>
          {t('credentialSchemas.form.cancel')}
        </Button>
        <Button variant="contained" onClick={onConfirm} disabled={isPublishing} data-testid="schema-publish-confirm">
          {t('credentialSchemas.publishDialog.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
