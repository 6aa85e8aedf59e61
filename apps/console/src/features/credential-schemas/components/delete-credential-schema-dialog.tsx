import type { CredentialSchema } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useTranslation } from '../../../i18n/index.ts';

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
    <ConfirmDialog
      open={schema !== null}
      title={t('credentialSchemas.deleteDialog.title')}
      body={t('credentialSchemas.deleteDialog.body', { name: schema?.name ?? '' })}
      confirmLabel={t('credentialSchemas.deleteDialog.confirm')}
      busy={isDeleting}
      onCancel={onCancel}
      onConfirm={onConfirm}
      confirmTestId="schema-delete-confirm"
    >
      <Alert severity="info" sx={{ mt: 2 }}>
        {t('credentialSchemas.deleteDialog.keepsCredentials')}
      </Alert>
    </ConfirmDialog>
  );
}
