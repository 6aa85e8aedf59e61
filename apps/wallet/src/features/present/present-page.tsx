import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import GppMaybeOutlined from '@mui/icons-material/GppMaybeOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  declinePresentation,
  findCandidates,
  isUsable,
  type PresentationCandidate,
  pickDisplay,
  type ResolvedPresentationRequest,
  resolvePresentationRequest,
  submitPresentation,
} from '../../app/core-api.ts';
import { errorCode, errorMessage } from '../../app/error-message.ts';
import { useVault } from '../../app/vault-context.tsx';
import { ClaimList } from '../../components/claim-list.tsx';
import { ScanPanel } from '../../components/scan/scan-panel.tsx';
import { PageTitle, Section } from '../../components/section.tsx';
import { currentLanguage } from '../../i18n/index.ts';

/** `/present?request=…` opens the request at once; without it, scan or paste one. */
export function PresentPage() {
  const [params] = useSearchParams();
  const request = params.get('request');
  if (!request) return <ScanPanel />;
  return <PresentationFlow key={request} input={request} />;
}

type Outcome =
  | { outcome: 'shared'; redirectUri?: string }
  | { outcome: 'declined'; notified: boolean; redirectUri?: string }
  | { outcome: 'error'; error: unknown; canRetry: boolean };

type State =
  | { step: 'resolving' }
  | { step: 'consent'; request: ResolvedPresentationRequest; candidates: PresentationCandidate[] }
  | { step: 'sending'; request: ResolvedPresentationRequest; candidates: PresentationCandidate[] }
  | ({ step: 'done'; request?: ResolvedPresentationRequest; candidates?: PresentationCandidate[] } & Outcome);

function Busy({ text }: { text: string }) {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }} aria-live="polite">
      <CircularProgress />
      <Typography sx={{ mt: 2, color: 'text.secondary' }}>{text}</Typography>
    </Box>
  );
}

function PresentationFlow({ input }: { input: string }) {
  const { t } = useTranslation();
  const vault = useVault();
  const [state, setState] = useState<State>({ step: 'resolving' });
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    let active = true;
    (async () => {
      const request = await resolvePresentationRequest(input);
      const candidates = findCandidates(request, await vault.listCredentials());
      if (active) setState({ step: 'consent', request, candidates });
    })().catch((error: unknown) => {
      if (active) setState({ step: 'done', outcome: 'error', error, canRetry: false });
    });
    return () => {
      active = false;
    };
  }, [input, vault]);

  if (state.step === 'resolving') return <Busy text={t('present.resolving')} />;
  if (state.step === 'sending') return <Busy text={t('present.sharing')} />;
  if (state.step === 'done') {
    return (
      <OutcomePanel
        state={state}
        onRetry={
          state.request && state.candidates
            ? () => setState({ step: 'consent', request: state.request!, candidates: state.candidates! })
            : undefined
        }
      />
    );
  }

  const { request, candidates } = state;
  const candidate = candidates[selected] ?? candidates[0];

  async function share() {
    if (!candidate) return;
    setState({ step: 'sending', request, candidates });
    try {
      const { redirectUri } = await submitPresentation(request, candidate, vault);
      setState({ step: 'done', outcome: 'shared', redirectUri, request, candidates });
    } catch (error) {
      setState({ step: 'done', outcome: 'error', error, canRetry: true, request, candidates });
    }
  }

  async function decline() {
    setState({ step: 'sending', request, candidates });
    try {
      const { redirectUri } = await declinePresentation(request, vault, candidate?.credential);
      setState({ step: 'done', outcome: 'declined', notified: true, redirectUri, request, candidates });
    } catch (error) {
      console.warn('Decline', error);
      setState({ step: 'done', outcome: 'declined', notified: false, request, candidates });
    }
  }

  return (
    <Stack spacing={2} data-testid="present-consent">
      <PageTitle>{t('present.title')}</PageTitle>
      <Section title={t('present.whoIsAsking')}>
        <VerifierSummary request={request} />
      </Section>
      {candidate ? (
        <>
          <Section title={t('present.whichCredential')}>
            {candidates.length > 1 && (
              <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
                {t('present.chooseCredential')}
              </Typography>
            )}
            <CandidatePicker candidates={candidates} selected={selected} onSelect={setSelected} />
            {!isUsable(candidate.credential) && (
              <Alert severity="warning" sx={{ mt: 1 }} data-testid="present-unusable">
                {t('present.unusable')}
              </Alert>
            )}
          </Section>
          <Section title={t('present.willShare')}>
            <ClaimList
              names={candidate.disclose}
              claims={candidate.credential.claims}
              claimDisplay={candidate.credential.claimDisplay}
              testId="present-claim"
            />
            <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mt: 1 }}>
              {t('present.nothingElse')}
            </Typography>
          </Section>
        </>
      ) : (
        <Alert severity="warning" data-testid="present-no-match">
          {t('present.noMatch')}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={decline} data-testid="present-decline">
          {t('present.decline')}
        </Button>
        <Button variant="contained" onClick={share} disabled={!candidate} data-testid="present-share">
          {t('present.share')}
        </Button>
      </Stack>
    </Stack>
  );
}

function VerifierSummary({ request }: { request: ResolvedPresentationRequest }) {
  const { t } = useTranslation();
  const trusted = request.clientIdScheme !== 'redirect_uri';
  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
      <Avatar
        src={request.verifier.logoUri}
        alt=""
        variant="rounded"
        sx={{ width: 48, height: 48, bgcolor: 'primary.50', color: 'primary.main' }}
      >
        {request.verifier.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }} data-testid="present-verifier">
          {request.verifier.name}
        </Typography>
        <Chip
          icon={trusted ? <VerifiedOutlined /> : <GppMaybeOutlined />}
          label={t(`present.scheme.${request.clientIdScheme}`)}
          color={trusted ? 'success' : 'warning'}
          variant="outlined"
          size="small"
          sx={{ my: 0.5 }}
          data-testid="present-scheme"
          data-scheme={request.clientIdScheme}
        />
        {request.verifier.certificateSubject && (
          <Typography variant="caption" sx={{ display: 'block', color: 'text.secondary', wordBreak: 'break-all' }}>
            {t('present.certificateSubject')}: {request.verifier.certificateSubject}
          </Typography>
        )}
        <Typography variant="caption" sx={{ display: 'block', color: 'text.secondary', wordBreak: 'break-all' }}>
          {t('present.clientId')}: {request.clientId}
        </Typography>
      </Box>
    </Box>
  );
}

function CandidatePicker({
  candidates,
  selected,
  onSelect,
}: {
  candidates: PresentationCandidate[];
  selected: number;
  onSelect: (index: number) => void;
}) {
  const locale = currentLanguage();
  const describe = (candidate: PresentationCandidate) => (
    <Box>
      <Typography sx={{ fontWeight: 500 }}>
        {pickDisplay(candidate.credential.display.name, locale) || candidate.credential.vct}
      </Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {pickDisplay(candidate.credential.issuer.name, locale) || candidate.credential.issuer.id}
      </Typography>
    </Box>
  );
  if (candidates.length === 1) return describe(candidates[0]!);
  return (
    <RadioGroup value={String(selected)} onChange={(event) => onSelect(Number(event.target.value))}>
      {candidates.map((candidate, index) => (
        <FormControlLabel
          key={`${candidate.queryId}:${candidate.credential.id}`}
          value={String(index)}
          control={<Radio />}
          label={describe(candidate)}
          data-testid="present-candidate"
          sx={{ py: 0.5 }}
        />
      ))}
    </RadioGroup>
  );
}

function OutcomePanel({
  state,
  onRetry,
}: {
  state: Outcome & { request?: ResolvedPresentationRequest };
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const verifier = state.request?.verifier.name ?? '';
  // Only a web address: a `javascript:` redirect from a hostile verifier must never become a link.
  const backUri =
    state.outcome !== 'error' && state.redirectUri && /^https?:\/\//i.test(state.redirectUri)
      ? state.redirectUri
      : undefined;
  const view =
    state.outcome === 'shared'
      ? {
          icon: <CheckCircleOutlined color="success" sx={{ fontSize: 56 }} />,
          title: t('present.outcome.shared'),
          body: t('present.outcome.sharedBody', { verifier }),
        }
      : state.outcome === 'declined'
        ? {
            icon: <CancelOutlined color="action" sx={{ fontSize: 56 }} />,
            title: t('present.outcome.declined'),
            body: state.notified
              ? t('present.outcome.declinedBody', { verifier })
              : t('present.outcome.declineNotSent'),
          }
        : {
            icon: <ErrorOutlined color="error" sx={{ fontSize: 56 }} />,
            title: t('present.outcome.error'),
            body: errorMessage(t, state.error),
          };

  return (
    <Card
      variant="outlined"
      sx={{ p: 3, textAlign: 'center' }}
      data-testid="present-outcome"
      data-outcome={state.outcome}
      data-code={state.outcome === 'error' ? errorCode(state.error) : undefined}
    >
      {view.icon}
      <Typography variant="h2" component="h1" sx={{ mt: 1 }}>
        {view.title}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mt: 1 }}>{view.body}</Typography>
      <Stack spacing={1} sx={{ mt: 3 }}>
        {backUri && (
          <Button variant="contained" href={backUri} endIcon={<OpenInNew />} data-testid="present-back-to-verifier">
            {t('present.backToVerifier')}
          </Button>
        )}
        {state.outcome === 'error' && state.canRetry && onRetry && (
          <Button variant="contained" onClick={onRetry}>
            {t('present.tryAgain')}
          </Button>
        )}
        <Button component={Link} to="/" variant={backUri ? 'text' : 'outlined'}>
          {t('present.done')}
        </Button>
      </Stack>
    </Card>
  );
}
