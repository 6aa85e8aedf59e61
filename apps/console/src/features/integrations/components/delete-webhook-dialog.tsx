import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useTranslation } from '../../../i18n/index.ts';

/** Deleting needs confirmation: the endpoint stops receiving events at once. */
export function DeleteWebhookDialog({
  url,
  busy,
  onCancel,
  onConfirm,
}: {
  /** The endpoint being deleted; the dialog is open while it is set. */
  url: string | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={url !== null}
      title={t('integrations.webhooks.delete.title')}
      body={t('integrations.webhooks.delete.body', { url: url ?? '' })}
      confirmLabel={t('integrations.webhooks.delete.confirm')}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
      confirmTestId="webhook-delete-confirm"
    />
  );
}
