import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { createVerificationIndividual, generateCustomerId } from '../api/create-verification-individual.ts';
import { HolderPage } from './holder-page.tsx';
import { StateCard } from './state-card.tsx';
import { VerificationUnavailableCard } from './verification-unavailable-card.tsx';

type Failure = 'USED' | 'NOT_FOUND' | 'ERROR';

function toFailure(error: unknown): Failure {
  if (!isApiError(error)) return 'ERROR';
  if (error.status === 409 || error.problem?.code === 'VERIFICATION_ALREADY_USED') return 'USED';
  // A malformed id is answered 400 (or 422): to the holder it is the same as a link that does not exist.
  if (error.status === 404 || error.status === 400) return 'NOT_FOUND';
  return 'ERROR';
}

/**
 * /connect/redirect/{verificationId}?customer=…: the shareable link. Opens one attempt for this holder
 * (customer id from the link, or a generated one) and moves on to its holder page.
 */
export function ConnectRedirectPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<Failure | null>(null);
  // React StrictMode runs effects twice in development: one link visit must open one attempt only.
  const started = useRef(false);
  const customer = searchParams.get('customer')?.trim() || null;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    createVerificationIndividual({ verification_id: id, customer_id: customer ?? generateCustomerId() }).then(
      (individual) => navigate(`/connect/verification/${encodeURIComponent(individual.id)}`, { replace: true }),
      (error: unknown) => setFailure(toFailure(error)),
    );
  }, [id, customer, navigate]);

  let content: ReactNode;
  if (failure === 'USED') {
    content = (
      <StateCard
        testId="verification-redirect"
        status="USED"
        icon={<TaskAltOutlined fontSize="inherit" color="warning" />}
        title={t('connect.verification.usedTitle')}
        body={t('connect.verification.usedBody')}
      />
    );
  } else if (failure) {
    content = <VerificationUnavailableCard testId="verification-redirect" reason={failure} />;
  } else {
    content = (
      <StateCard
        testId="verification-redirect"
        status="LOADING"
        icon={<CircularProgress size={48} aria-label={t('connect.verification.preparing')} />}
        title={t('connect.verification.preparing')}
        body={t('connect.verification.preparingBody')}
      />
    );
  }

  return (
    <HolderPage testId="verification-redirect-page" languageTestId="verification-language">
      {content}
    </HolderPage>
  );
}
