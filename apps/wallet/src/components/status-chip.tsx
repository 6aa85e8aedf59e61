import Chip, { type ChipProps } from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { CredentialStatus } from '../app/core-api.ts';

const COLOR: Record<CredentialStatus, ChipProps['color']> = {
  VALID: 'success',
  REVOKED: 'error',
  EXPIRED: 'warning',
  SUSPENDED: 'warning',
  UNKNOWN: 'default',
};

export function StatusChip({ status, size = 'small' }: { status: CredentialStatus; size?: ChipProps['size'] }) {
  const { t } = useTranslation();
  return (
    <Chip
      label={t(`status.${status}`)}
      color={COLOR[status]}
      size={size}
      data-testid="status-chip"
      sx={status === 'UNKNOWN' ? { bgcolor: 'grey.100', color: 'grey.800' } : undefined}
    />
  );
}
