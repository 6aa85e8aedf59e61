import type { WebhookDeliveryStatus } from '@cp/contracts';
import Chip from '@mui/material/Chip';
import { useTranslation } from '../../../i18n/index.ts';

const colors = { PENDING: 'warning', SUCCEEDED: 'success', FAILED: 'error' } as const;

export function WebhookDeliveryStatusChip({ status }: { status: WebhookDeliveryStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={colors[status]}
      label={t(`integrations.webhooks.deliveries.status.${status}`)}
      data-status={status}
      sx={{ fontWeight: 500 }}
    />
  );
}
