import type { CredentialSchema } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';

/** Confirms a deletion and says what it does not do: credentials already issued stay valid (spec §4). */
export function DeleteCredentialSchemaDialog({
  schema,
  isDeleting,
  onCancel,
  onConfirm,
}: {
  schema: CredentialSchema | null;
  isDeleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={schema !== null} onClose={isDeleting ? undefined : onCancel} maxWidth="xs" fullWidth>
      <DialogTitle>{t('credentialSchemas.deleteDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('credentialSchemas.deleteDialog.body', { name: schema?.name ?? '' })}</DialogContentText>
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('credentialSchemas.deleteDialog.keepsCredentials')}
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="secondary" onClick={onCancel} disabled={isDeleting}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={onConfirm}
          disabled={isDeleting}
          data-testid="schema-delete-confirm"
        >
          {t('credentialSchemas.deleteDialog.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
