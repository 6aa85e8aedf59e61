import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import { useTranslation } from '../../../i18n/index.ts';
import { StateCard } from './state-card.tsx';

/** A verification link that cannot be used: unknown or malformed (NOT_FOUND), or the API failed (ERROR). */
export function VerificationUnavailableCard({ testId, reason }: { testId: string; reason: 'NOT_FOUND' | 'ERROR' }) {
  const { t } = useTranslation();
  const isMissing = reason === 'NOT_FOUND';
  return (
    <StateCard
      testId={testId}
      status={reason}
      icon={<ErrorOutlineOutlined fontSize="inherit" color="error" />}
      title={isMissing ? t('connect.verification.notFoundTitle') : t('connect.verification.errorTitle')}
      body={isMissing ? t('connect.verification.notFoundBody') : t('connect.verification.errorBody')}
    />
  );
}
