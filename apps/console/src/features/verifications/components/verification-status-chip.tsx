import type { IndividualStatus, Verification } from '@cp/contracts';
import Chip, { type ChipProps } from '@mui/material/Chip';
import { useTranslation } from '../../../i18n/index.ts';

const individualColors: Record<IndividualStatus, ChipProps['color']> = {
  CREATED: 'default',
  REQUESTED: 'info',
  VERIFIED: 'success',
  FAILED: 'error',
};

/** One holder's attempt: link opened, waiting for the wallet, verified or failed. */
export function IndividualStatusChip({ status, testId }: { status: IndividualStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={individualColors[status]}
      label={t(`verifications.individualStatus.${status}`)}
      data-testid={testId}
      data-status={status}
    />
  );
}

/**
 * A single-use link is active until a holder completes it, then used. (`Verification['status']`: the contracts' bare
 * `VerificationStatus` name is taken by the organizations' KYB status.)
 */
export function VerificationStatusChip({ status, testId }: { status: Verification['status']; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={status === 'ACTIVE' ? 'success' : 'default'}
      label={t(`verifications.status.${status}`)}
      data-testid={testId}
      data-status={status}
    />
  );
}
