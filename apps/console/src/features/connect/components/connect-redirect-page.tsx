import { ProblemCode } from '@cp/contracts';
import HourglassDisabledOutlined from '@mui/icons-material/HourglassDisabledOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { createVerificationIndividual, generateCustomerId } from '../api/create-verification-individual.ts';
import { useVerificationRequester } from '../api/get-verification-requester.ts';
import { HolderPage, type HolderParty } from './holder-page.tsx';
import { StateCard } from './state-card.tsx';
import { VerificationUnavailableCard } from './verification-unavailable-card.tsx';

type Failure = 'USED' | 'NOT_FOUND' | 'ERROR' | 'LINK_INVALID' | 'LINK_EXPIRED';

function toFailure(error: unknown, isSigned: boolean): Failure {
  if (!isApiError(error)) return 'ERROR';
  if (error.is(ProblemCode.VERIFICATION_LINK_SIGNATURE_INVALID) || error.status === 403) return 'LINK_INVALID';
  if (error.is(ProblemCode.VERIFICATION_LINK_EXPIRED) || error.status === 410) return 'LINK_EXPIRED';
  if (error.status === 409 || error.is(ProblemCode.VERIFICATION_ALREADY_USED)) return 'USED';
  // A signed link the API cannot even read (a cut-off signature, a garbled expiry) is not a valid link.
  if (isSigned && (error.status === 400 || error.status === 422)) return 'LINK_INVALID';
  // A malformed id is answered 400 (or 422): to the holder it is the same as a link that does not exist.
  if (error.status === 404 || error.status === 400) return 'NOT_FOUND';
  return 'ERROR';
}

/**
 * What the link says about its holder: the customer id, and for a link the integrator signed, when it expires
 * and its signature (passed through as they are: the API checks them). Null when a signed link cannot be one
 * (a signature without a customer or a whole-number expiry).
 */
function linkRequest(searchParams: URLSearchParams) {
  const customer = searchParams.get('customer')?.trim() || undefined;
  const expires = searchParams.get('expires')?.trim() || undefined;
  const signature = searchParams.get('signature')?.trim() || undefined;
  const isWholeNumber = expires !== undefined && /^\d{1,11}$/.test(expires);
  if (signature !== undefined && (customer === undefined || !isWholeNumber)) return null;
  return {
    customer,
    ...(isWholeNumber ? { expires: Number(expires) } : {}),
    ...(signature !== undefined ? { signature } : {}),
  };
}

/**
 * /connect/redirect/{verificationId}?customer=…[&expires=…&signature=…]: the shareable link. Opens one attempt
 * for this holder (customer id from the link, or a generated one; a signed link vouches for its customer) and
 * moves on to its holder page.
 */
export function ConnectRedirectPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<Failure | null>(null);
  // React StrictMode runs effects twice in development: one link visit must open one attempt only.
  const started = useRef(false);
  // Read once: the attempt is opened for the link as it was opened.
  const [request] = useState(() => linkRequest(searchParams));
  // Who asks, shown while the attempt opens and when the link cannot be used (the attempt's page shows it after).
  const requester = useVerificationRequester(id);
  const party: HolderParty | 'loading' | undefined = requester.data
    ? { label: t('connect.verification.requestedBy'), organization: requester.data, testId: 'verification-verifier' }
    : requester.isPending
      ? 'loading'
      : undefined;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!request) {
      setFailure('LINK_INVALID');
      return;
    }
    const { customer, ...signed } = request;
    createVerificationIndividual({
      verification_id: id,
      customer_id: customer ?? generateCustomerId(),
      ...signed,
    }).then(
      (individual) => navigate(`/connect/verification/${encodeURIComponent(individual.id)}`, { replace: true }),
      (error: unknown) => setFailure(toFailure(error, signed.signature !== undefined)),
    );
  }, [id, request, navigate]);

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
  } else if (failure === 'LINK_INVALID' || failure === 'LINK_EXPIRED') {
    const isExpired = failure === 'LINK_EXPIRED';
    content = (
      <StateCard
        testId="verification-redirect"
        status={failure}
        icon={
          isExpired ? (
            <HourglassDisabledOutlined fontSize="inherit" color="warning" />
          ) : (
            <LinkOffOutlined fontSize="inherit" color="error" />
          )
        }
        title={t(isExpired ? 'connect.verification.linkExpiredTitle' : 'connect.verification.linkInvalidTitle')}
        body={t(isExpired ? 'connect.verification.linkExpiredBody' : 'connect.verification.linkInvalidBody')}
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
    <HolderPage testId="verification-redirect-page" languageTestId="verification-language" party={party}>
      {content}
    </HolderPage>
  );
}
