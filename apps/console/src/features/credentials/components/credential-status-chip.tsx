import type { CredentialStatus } from '@cp/contracts';
import Chip from '@mui/material/Chip';
import { useTranslation } from '../../../i18n/index.ts';

type ChipColor = 'default' | 'info' | 'success' | 'error' | 'warning';

/** Each status its colour: created grey, issued blue, claimed green, revoked red, expired amber. */
export const statusColor: Record<CredentialStatus, ChipColor> = {
  CREATED: 'default',
  ISSUED: 'info',
  CLAIMED: 'success',
  REVOKED: 'error',
  EXPIRED: 'warning',
};

export function CredentialStatusChip({ id, status }: { id: string; status: CredentialStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={statusColor[status]}
      variant={status === 'CREATED' ? 'outlined' : 'filled'}
      label={t(`issuing.status.${status}`)}
      data-testid={`credential-status-${id}`}
      data-status={status}
    />
  );
}
