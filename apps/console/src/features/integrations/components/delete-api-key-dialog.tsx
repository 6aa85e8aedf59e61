import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useTranslation } from '../../../i18n/index.ts';

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
  return (
    <ConfirmDialog
      open={name !== null}
      title={t('integrations.delete.title')}
      body={t('integrations.delete.body', { name: name ?? '' })}
      confirmLabel={t('integrations.delete.confirm')}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
      confirmTestId="integration-delete-confirm"
    />
  );
}
