import BlockOutlined from '@mui/icons-material/BlockOutlined';
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
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  type PresentationCandidate,
  type PresentationChoice,
  type PresentationPlan,
  pickDisplay,
  type RequestedCredential,
  type ResolvedPresentationRequest,
  type StoredCredential,
  WalletErrorCode,
} from '../../app/core-api.ts';
import { errorCode, errorMessage } from '../../app/error-message.ts';
import {
  answersRequest,
  chosenCandidates,
  declinePresentation,
  defaultChoice,
  isUsable,
  planPresentation,
  resolvePresentationRequest,
  submitPresentation,
} from '../../app/protocol-api.ts';
import { useVault } from '../../app/vault-context.tsx';
import { ClaimList } from '../../components/claim-list.tsx';
import { claimLabel } from '../../components/format.ts';
import { useFormatName } from '../../components/format-label.tsx';
import { AssuranceLine } from '../../components/issuer-assurance.tsx';
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

/** The request with what this wallet can answer, and every held credential (to name what is missing). */
interface Consent {
  request: ResolvedPresentationRequest;
  plan: PresentationPlan;
  held: StoredCredential[];
}

type State =
  | { step: 'resolving' }
  | ({ step: 'consent' } & Consent)
  | ({ step: 'sending' } & Consent)
  | ({ step: 'done'; consent?: Consent; request?: ResolvedPresentationRequest } & Outcome);

function Busy({ text }: { text: string }) {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }} aria-live="polite">
      <CircularProgress aria-label={text} />
      <Typography sx={{ mt: 2, color: 'text.secondary' }}>{text}</Typography>
    </Box>
  );
}

function PresentationFlow({ input }: { input: string }) {
  const { t } = useTranslation();
  const vault = useVault();
  const [state, setState] = useState<State>({ step: 'resolving' });
  const [choice, setChoice] = useState<PresentationChoice>({ options: [], credentials: {} });

  useEffect(() => {
    let active = true;
    (async () => {
      const request = await resolvePresentationRequest(input);
      const held = await vault.listCredentials();
      const plan = planPresentation(request, held);
      if (!active) return;
      setChoice(defaultChoice(plan));
      setState({ step: 'consent', request, plan, held });
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
    const { consent } = state;
    return (
      <OutcomePanel state={state} onRetry={consent ? () => setState({ step: 'consent', ...consent }) : undefined} />
    );
  }

  const { request, plan, held } = state;
  const consent: Consent = { request, plan, held };
  const selection = chosenCandidates(plan, choice);
  const canShare =
    plan.canShare &&
    selection.length > 0 &&
    answersRequest(
      request.dcql,
      selection.map((candidate) => candidate.queryId),
    );

  async function share() {
    if (!canShare) return;
    setState({ step: 'sending', ...consent });
    try {
      const { redirectUri } = await submitPresentation(request, selection, vault);
      setState({ step: 'done', outcome: 'shared', redirectUri, request, consent });
    } catch (error) {
      setState({ step: 'done', outcome: 'error', error, canRetry: true, request, consent });
    }
  }

  async function decline() {
    setState({ step: 'sending', ...consent });
    try {
      // The history names the credential when there was only one to choose.
      const { redirectUri } = await declinePresentation(
        request,
        vault,
        selection.length === 1 ? selection[0]?.credential : undefined,
      );
      setState({ step: 'done', outcome: 'declined', notified: true, redirectUri, request, consent });
    } catch (error) {
      console.warn('Decline', error);
      setState({ step: 'done', outcome: 'declined', notified: false, request, consent });
    }
  }

  return (
    <Stack spacing={2} data-testid="present-consent">
      <PageTitle>{t('present.title')}</PageTitle>
      <Section title={t('present.whoIsAsking')}>
        <VerifierSummary request={request} />
      </Section>
      {plan.canShare ? (
        <RequestedCredentials plan={plan} held={held} choice={choice} onChange={setChoice} />
      ) : (
        <MissingCredentials plan={plan} held={held} />
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={decline} data-testid="present-decline">
          {t('present.decline')}
        </Button>
        <Button variant="contained" onClick={share} disabled={!canShare} data-testid="present-share">
          {t('present.share')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** A readable name for a credential query: a held credential of its type, else its `vct`'s last word. */
function queryName(requested: RequestedCredential, held: readonly StoredCredential[], fallback: string): string {
  const locale = currentLanguage();
  const known =
    requested.candidates[0]?.credential ?? held.find((credential) => requested.vctValues.includes(credential.vct));
  if (known) return pickDisplay(known.display.name, locale) || known.vct;
  const slug = requested.vctValues[0]?.split(/[/:#]/).filter(Boolean).at(-1);
  if (!slug) return fallback;
  const words = decodeURIComponent(slug).replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : fallback;
}

/** Every credential asked for: alternatives to pick from, optional ones to opt into, and the claims each shares. */
function RequestedCredentials({
  plan,
  held,
  choice,
  onChange,
}: {
  plan: PresentationPlan;
  held: readonly StoredCredential[];
  choice: PresentationChoice;
  onChange: (choice: PresentationChoice) => void;
}) {
  const { t } = useTranslation();
  const byId = new Map(plan.credentials.map((requested) => [requested.queryId, requested]));
  const name = (id: string) => {
    const requested = byId.get(id);
    return requested ? queryName(requested, held, t('present.genericCredential')) : id;
  };
  const optionName = (queryIds: readonly string[]) => queryIds.map(name).join(' + ');
  const setOption = (setIndex: number, option: number | null) =>
    onChange({ ...choice, options: choice.options.map((value, index) => (index === setIndex ? option : value)) });
  const pickCredential = (queryId: string, credentialId: string) =>
    onChange({ ...choice, credentials: { ...choice.credentials, [queryId]: credentialId } });
  const answered = chosenCandidates(plan, choice);
  const count = answered.length;
  // A query two sets share is shown once, under the first set that chose it.
  const shown = new Set<string>();

  return (
    <>
      {plan.sets.map((set, setIndex) => {
        const chosen = choice.options[setIndex] ?? null;
        const option = chosen === null ? undefined : set.options[chosen];
        const queries = (option?.queryIds ?? []).filter((id) => !shown.has(id) && shown.add(id));
        const firstSatisfiable = set.options.findIndex((o) => o.isSatisfiable);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: credential sets have no identity beyond their position
          <Stack spacing={2} key={setIndex} data-testid="present-set">
            {!set.required && (
              <Card variant="outlined" sx={{ p: 2 }} data-testid="present-optional">
                <Typography variant="overline" component="h2" sx={{ color: 'text.secondary', lineHeight: 2 }}>
                  {t('present.optional')}
                </Typography>
                <FormControlLabel
                  control={
                    <Switch
                      checked={chosen !== null}
                      disabled={firstSatisfiable < 0}
                      onChange={(event) => setOption(setIndex, event.target.checked ? firstSatisfiable : null)}
                    />
                  }
                  label={t('present.optionalShare', {
                    name: optionName((set.options[Math.max(firstSatisfiable, 0)] ?? set.options[0]!).queryIds),
                  })}
                />
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {firstSatisfiable < 0 ? t('present.notHeld') : t('present.optionalHint')}
                </Typography>
              </Card>
            )}
            {set.options.length > 1 && (set.required || chosen !== null) && (
              <Section title={t('present.alternatives')}>
                <RadioGroup
                  value={chosen === null ? '' : String(chosen)}
                  onChange={(event) => setOption(setIndex, Number(event.target.value))}
                >
                  {set.options.map((o, index) => (
                    <FormControlLabel
                      key={o.queryIds.join('+')}
                      value={String(index)}
                      disabled={!o.isSatisfiable}
                      control={<Radio />}
                      label={
                        o.isSatisfiable ? optionName(o.queryIds) : `${optionName(o.queryIds)} (${t('present.notHeld')})`
                      }
                      data-testid="present-option"
                    />
                  ))}
                </RadioGroup>
              </Section>
            )}
            {queries.map((queryId) => {
              const requested = byId.get(queryId);
              const candidate = answered.find((c) => c.queryId === queryId);
              if (!requested || !candidate) return null;
              const index = answered.indexOf(candidate);
              return (
                <RequestedCredentialCard
                  key={queryId}
                  title={
                    count > 1
                      ? t('present.credentialOf', { index: index + 1, total: count })
                      : t('present.whichCredential')
                  }
                  requested={requested}
                  candidate={candidate}
                  onPick={(credentialId) => pickCredential(queryId, credentialId)}
                />
              );
            })}
          </Stack>
        );
      })}
      <Typography variant="caption" sx={{ color: 'text.secondary', px: 1 }}>
        {t('present.nothingElse', { count })}
      </Typography>
    </>
  );
}

function RequestedCredentialCard({
  title,
  requested,
  candidate,
  onPick,
}: {
  title: string;
  requested: RequestedCredential;
  candidate: PresentationCandidate;
  onPick: (credentialId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card variant="outlined" sx={{ p: 2 }} data-testid="present-request" data-query={requested.queryId}>
      <Typography variant="overline" component="h2" sx={{ color: 'text.secondary', lineHeight: 2 }}>
        {title}
      </Typography>
      {requested.candidates.length > 1 && (
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('present.chooseCredential')}
        </Typography>
      )}
      <CandidatePicker
        candidates={requested.candidates}
        selected={candidate.credential.id}
        onSelect={onPick}
        name={`present-${requested.queryId}`}
      />
      {!isUsable(candidate.credential) && (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid="present-unusable">
          {t('present.unusable')}
        </Alert>
      )}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        {t('present.willShare')}
      </Typography>
      <ClaimList
        names={candidate.disclose}
        claims={candidate.credential.claims}
        claimDisplay={candidate.credential.claimDisplay}
        testId="present-claim"
      />
    </Card>
  );
}

/** Nothing (or not enough) matches: what the request needs that this wallet does not hold. */
function MissingCredentials({ plan, held }: { plan: PresentationPlan; held: readonly StoredCredential[] }) {
  const { t } = useTranslation();
  const locale = currentLanguage();
  const byId = new Map(plan.credentials.map((requested) => [requested.queryId, requested]));
  const describe = (queryId: string) => {
    const requested = byId.get(queryId);
    if (!requested) return queryId;
    const name = queryName(requested, held, t('present.genericCredential'));
    if (requested.claimNames.length === 0) return name;
    // Labels from a held credential of the same type (its claims are just not enough), else from any held
    // credential that labels a claim of that name, else the claim name itself.
    const sameType = held.find((credential) => requested.vctValues.includes(credential.vct));
    const label = (claim: string) => {
      const labelled =
        sameType ?? held.find((credential) => credential.claimDisplay.some((display) => display.name === claim));
      return labelled ? claimLabel(labelled.claimDisplay, claim, locale) : claim.replace(/_/g, ' ');
    };
    const claims = requested.claimNames.map(label).join(', ');
    return t('present.missingItem', { name, claims });
  };
  const unanswerable = plan.sets.filter((set) => set.required && !set.options.some((option) => option.isSatisfiable));
  return (
    <Alert severity="warning" data-testid="present-no-match">
      <Typography variant="body2">
        {plan.credentials.some((requested) => requested.candidates.length > 0)
          ? t('present.noMatchPart')
          : t('present.noMatch')}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {t('present.missingTitle')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {unanswerable.map((set) => (
          <li key={set.options.map((option) => option.queryIds.join('+')).join('|')} data-testid="present-missing">
            {set.options
              .map((option) =>
                option.queryIds
                  .filter((id) => plan.missing.includes(id))
                  .map(describe)
                  .join(' + '),
              )
              .join(` ${t('present.or')} `)}
          </li>
        ))}
      </Box>
    </Alert>
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
  name,
}: {
  candidates: PresentationCandidate[];
  selected: string;
  onSelect: (credentialId: string) => void;
  name: string;
}) {
  const locale = currentLanguage();
  const formatName = useFormatName();
  const describe = (candidate: PresentationCandidate) => (
    <Box>
      <Typography sx={{ fontWeight: 500 }}>
        {pickDisplay(candidate.credential.display.name, locale) || candidate.credential.vct}
      </Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {pickDisplay(candidate.credential.issuer.name, locale) || candidate.credential.issuer.id}
        {candidate.credential.format === 'mso_mdoc' && (
          <span data-testid="present-candidate-format"> · {formatName(candidate.credential.format)}</span>
        )}
      </Typography>
      <AssuranceLine assurance={candidate.credential.issuer.assurance} />
    </Box>
  );
  if (candidates.length === 1) return describe(candidates[0]!);
  return (
    <RadioGroup name={name} value={selected} onChange={(event) => onSelect(event.target.value)}>
      {candidates.map((candidate) => (
        <FormControlLabel
          key={candidate.credential.id}
          value={candidate.credential.id}
          control={<Radio />}
          label={describe(candidate)}
          data-testid="present-candidate"
          sx={{ py: 0.5 }}
        />
      ))}
    </RadioGroup>
  );
}

/** The verifier's own refusal (OpenID4VP 1.0 §8.2 error response) carried by a VERIFIER_ERROR, if any. */
function verifierRefusal(error: unknown): { error: string; description?: string } | undefined {
  if (
    errorCode(error) !== WalletErrorCode.VERIFIER_ERROR ||
    !error ||
    typeof error !== 'object' ||
    !('remote' in error)
  ) {
    return undefined;
  }
  const remote = (error as { remote?: { error?: unknown; description?: unknown } }).remote;
  if (typeof remote?.error !== 'string' || remote.error === '') return undefined;
  return typeof remote.description === 'string' && remote.description !== ''
    ? { error: remote.error, description: remote.description }
    : { error: remote.error };
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
  const refusal = state.outcome === 'error' ? verifierRefusal(state.error) : undefined;
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
        : refusal
          ? {
              icon: <BlockOutlined color="error" sx={{ fontSize: 56 }} />,
              title: t('present.outcome.refused'),
              body: t('present.outcome.refusedBody', { reason: refusal.description ?? refusal.error }),
              hint: t('present.outcome.refusedHint'),
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
      data-refusal={refusal?.error}
    >
      {view.icon}
      <Typography variant="h2" component="h1" sx={{ mt: 1 }}>
        {view.title}
      </Typography>
      <Typography
        sx={{ color: refusal ? 'text.primary' : 'text.secondary', mt: 1, wordBreak: 'break-word' }}
        data-testid="present-outcome-body"
      >
        {view.body}
      </Typography>
      {'hint' in view && view.hint && (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
          {view.hint}
        </Typography>
      )}
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
