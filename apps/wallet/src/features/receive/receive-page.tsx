import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { type CredentialFormat, pickDisplay, type ResolvedOffer, WalletErrorCode } from '../../app/core-api.ts';
import { errorCode, errorMessage } from '../../app/error-message.ts';
import { acceptOffer, resolveOffer, startAuthorizedReceive } from '../../app/protocol-api.ts';
import { useVault } from '../../app/vault-context.tsx';
import { CredentialFace } from '../../components/credential-face.tsx';
import { useFormatName } from '../../components/format-label.tsx';
import { IssuerAssuranceNote } from '../../components/issuer-assurance.tsx';
import { IssuerSummary } from '../../components/issuer-summary.tsx';
import { ScanPanel } from '../../components/scan/scan-panel.tsx';
import { PageTitle, Section } from '../../components/section.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { goToIssuer } from './go-to-issuer.ts';

/** `/receive?offer=…` resolves the offer at once; without it, scan or paste one. */
export function ReceivePage() {
  const [params] = useSearchParams();
  const offer = params.get('offer');
  if (!offer) return <ScanPanel />;
  return <OfferFlow key={offer} offer={offer} />;
}

export function Working({ text }: { text: string }) {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }} aria-live="polite">
      <CircularProgress aria-label={text} />
      <Typography sx={{ mt: 2, color: 'text.secondary' }}>{text}</Typography>
    </Box>
  );
}

type Step = { step: 'resolving' } | { step: 'failed'; error: unknown } | { step: 'review'; resolved: ResolvedOffer };

function OfferFlow({ offer }: { offer: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Step>({ step: 'resolving' });
  const [link, setLink] = useState(offer);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the resolution on "Try again"
  useEffect(() => {
    let active = true;
    setState({ step: 'resolving' });
    resolveOffer(offer, currentLanguage())
      .then((resolved) => active && setState({ step: 'review', resolved }))
      .catch((error: unknown) => active && setState({ step: 'failed', error }));
    return () => {
      active = false;
    };
  }, [offer, attempt]);

  function retry(event: FormEvent) {
    event.preventDefault();
    if (link.trim() === offer) setAttempt((n) => n + 1);
    else navigate(`/receive?offer=${encodeURIComponent(link.trim())}`, { replace: true });
  }

  if (state.step === 'resolving') return <Working text={t('receive.resolving')} />;
  if (state.step === 'failed') {
    return (
      <Stack component="form" spacing={2} onSubmit={retry} noValidate>
        <Alert severity="error" data-testid="offer-error" data-code={errorCode(state.error)}>
          <AlertTitle>{t('receive.failedTitle')}</AlertTitle>
          {errorMessage(t, state.error)}
        </Alert>
        <TextField
          label={t('receive.link')}
          value={link}
          onChange={(event) => setLink(event.target.value)}
          multiline
          minRows={2}
          fullWidth
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => navigate('/')}>{t('receive.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!link.trim()}>
            {t('receive.retry')}
          </Button>
        </Stack>
      </Stack>
    );
  }
  return <OfferReview resolved={state.resolved} />;
}

function OfferReview({ resolved }: { resolved: ResolvedOffer }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const vault = useVault();
  const locale = currentLanguage();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const formats = resolved.formats ?? ['dc+sd-jwt'];
  const [format, setFormat] = useState<CredentialFormat>(formats[0]!);
  const formatName = useFormatName();
  const txCode = resolved.txCode;
  const code = error ? errorCode(error) : null;
  const pinError = code === WalletErrorCode.PIN_WRONG || code === WalletErrorCode.PIN_REQUIRED;

  async function accept(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const stored = await acceptOffer(resolved, vault, { format, ...(txCode ? { txCode: pin.trim() } : {}) });
      navigate(`/credentials/${encodeURIComponent(stored.id)}`, { replace: true, state: { received: true } });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  /** The authorization code grant: PAR and PKCE, then this tab goes to the issuer's page and comes back. */
  async function continueAtIssuer() {
    setBusy(true);
    setError(null);
    try {
      goToIssuer(await startAuthorizedReceive(resolved, { format }));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  const atIssuer = resolved.authorizationCode === 'required';
  if (busy) return <Working text={t(atIssuer ? 'fromIssuer.leaving' : 'receive.accepting')} />;
  const numeric = txCode?.inputMode !== 'text';
  return (
    <Stack component="form" spacing={2} onSubmit={accept} noValidate data-testid="offer-review">
      <PageTitle>{t('receive.title')}</PageTitle>
      <Section title={t('receive.from')}>
        <Stack spacing={1.5}>
          <IssuerSummary issuer={resolved.issuer} />
          <IssuerAssuranceNote assurance={resolved.issuer.assurance} phase="offer" />
        </Stack>
      </Section>
      <Card sx={{ borderRadius: 3, overflow: 'hidden' }}>
        <CredentialFace display={resolved.display} issuer={resolved.issuer} fallbackName={resolved.configurationId} />
      </Card>
      <Section title={t('receive.willContain')}>
        {resolved.claimDisplay.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('receive.noClaims')}
          </Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {resolved.claimDisplay.map((claim) => (
              <li key={claim.name} data-testid="offer-claim">
                <Typography variant="body2">{pickDisplay(claim.label, locale) || claim.name}</Typography>
              </li>
            ))}
          </Box>
        )}
      </Section>
      {formats.length > 1 && (
        <FormControl data-testid="offer-format">
          <FormLabel id="offer-format-label">{t('receive.format')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby="offer-format-label"
            aria-describedby="offer-format-help"
            name="format"
            value={format}
            onChange={(event) => setFormat(event.target.value as CredentialFormat)}
          >
            {formats.map((option) => (
              <FormControlLabel
                key={option}
                value={option}
                control={<Radio slotProps={{ input: { 'data-testid': `offer-format-${option}` } as object }} />}
                label={formatName(option)}
              />
            ))}
          </RadioGroup>
          <FormHelperText id="offer-format-help" sx={{ mx: 0 }}>
            {t('receive.formatHelp')}
          </FormHelperText>
        </FormControl>
      )}
      {atIssuer && (
        <Alert severity="info" variant="outlined" data-testid="offer-at-issuer">
          {t('receive.atIssuerHint')}
        </Alert>
      )}
      {txCode && !atIssuer && (
        <TextField
          label={t('receive.pin')}
          value={pin}
          onChange={(event) => setPin(numeric ? event.target.value.replace(/\D/g, '') : event.target.value)}
          error={pinError}
          helperText={
            pinError
              ? errorMessage(t, error)
              : txCode.description ||
                (txCode.length ? t('receive.pinHelpLength', { count: txCode.length }) : t('receive.pinHelp'))
          }
          autoComplete="one-time-code"
          fullWidth
          slotProps={{
            htmlInput: {
              'data-testid': 'offer-pin',
              inputMode: numeric ? 'numeric' : 'text',
              pattern: numeric ? '[0-9]*' : undefined,
              maxLength: txCode.length,
            },
          }}
        />
      )}
      {error !== null && !pinError && (
        <Alert severity="error" data-testid="offer-error" data-code={code}>
          {errorMessage(t, error)}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => navigate('/')} data-testid="offer-cancel">
          {t('receive.cancel')}
        </Button>
        {atIssuer ? (
          <Button variant="contained" onClick={() => void continueAtIssuer()} data-testid="offer-continue-at-issuer">
            {t('receive.continueAtIssuer')}
          </Button>
        ) : (
          <Button
            type="submit"
            variant="contained"
            disabled={Boolean(txCode) && !pin.trim()}
            data-testid="offer-accept"
          >
            {t('receive.accept')}
          </Button>
        )}
      </Stack>
      {resolved.authorizationCode === 'possible' && !txCode && (
        <Button
          size="small"
          onClick={() => void continueAtIssuer()}
          sx={{ alignSelf: 'flex-end' }}
          data-testid="offer-use-issuer-page"
        >
          {t('receive.useIssuerPage')}
        </Button>
      )}
    </Stack>
  );
}
