import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { type IssuerInfo, pickDisplay } from '../../app/core-api.ts';
import { errorCode, errorMessage } from '../../app/error-message.ts';
import {
  loadPlatformTrust,
  type ResolvedIssuer,
  resolveIssuer,
  resolveIssuerConfiguration,
  startAuthorizedReceive,
} from '../../app/protocol-api.ts';
import { useVault } from '../../app/vault-context.tsx';
import { MdocTag } from '../../components/format-label.tsx';
import { IssuerSummary } from '../../components/issuer-summary.tsx';
import { PageTitle, Section } from '../../components/section.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { goToIssuer } from './go-to-issuer.ts';
import { Working } from './receive-page.tsx';

type Step = { step: 'enter' } | { step: 'reading' } | { step: 'choose'; issuer: ResolvedIssuer } | { step: 'leaving' };

/**
 * `/receive/issuer` (wallet-initiated issuance, OpenID4VCI 1.0 §5): the holder names an issuer (typed, one they
 * already hold credentials from, or `?issuer=` from a link), chooses one of the credentials it issues, and goes to
 * the issuer's page, where the issuer finds out who they are (here: an e-mail address and a one-time code).
 */
export function IssuerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const vault = useVault();
  const [params] = useSearchParams();
  const locale = currentLanguage();
  const [address, setAddress] = useState(params.get('issuer') ?? '');
  const [state, setState] = useState<Step>({ step: 'enter' });
  const [error, setError] = useState<unknown>(null);
  const [known, setKnown] = useState<IssuerInfo[]>([]);
  const [platform, setPlatform] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    vault
      .listCredentials()
      .then((credentials) => {
        const byId = new Map(credentials.map((credential) => [credential.issuer.id, credential.issuer]));
        if (active) setKnown([...byId.values()].filter((issuer) => /^https?:\/\//.test(issuer.id)));
      })
      .catch(() => undefined);
    loadPlatformTrust()
      .then((trust) => active && setPlatform(trust?.url ?? null))
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [vault]);

  async function read(target: string) {
    setError(null);
    setState({ step: 'reading' });
    try {
      setState({ step: 'choose', issuer: await resolveIssuer(target, locale) });
    } catch (failure) {
      setError(failure);
      setState({ step: 'enter' });
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (address.trim()) void read(address.trim());
  }

  async function choose(issuer: ResolvedIssuer, configurationId: string) {
    setError(null);
    setState({ step: 'leaving' });
    try {
      const resolved = await resolveIssuerConfiguration(issuer, configurationId);
      goToIssuer(await startAuthorizedReceive(resolved));
    } catch (failure) {
      setError(failure);
      setState({ step: 'choose', issuer });
    }
  }

  if (state.step === 'reading') return <Working text={t('fromIssuer.reading')} />;
  if (state.step === 'leaving') return <Working text={t('fromIssuer.leaving')} />;
  const errorAlert = error !== null && (
    <Alert severity="error" data-testid="issuer-error" data-code={errorCode(error)}>
      {errorMessage(t, error)}
    </Alert>
  );

  if (state.step === 'choose') {
    const { issuer } = state;
    return (
      <Stack spacing={2} data-testid="issuer-choose">
        <PageTitle>{t('fromIssuer.chooseTitle')}</PageTitle>
        <Section title={t('receive.from')}>
          <IssuerSummary issuer={issuer.issuer} />
        </Section>
        <Typography sx={{ color: 'text.secondary' }}>{t('fromIssuer.chooseHint')}</Typography>
        {errorAlert}
        <Stack spacing={1.5} component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {issuer.configurations.map((configuration) => {
            const name = pickDisplay(configuration.display.name, locale) || configuration.id;
            const description = configuration.display.description
              ? pickDisplay(configuration.display.description, locale)
              : '';
            const claims = configuration.claimDisplay.map((claim) => pickDisplay(claim.label, locale) || claim.name);
            return (
              <Box component="li" key={configuration.id}>
                <Card variant="outlined" sx={{ borderRadius: 3 }}>
                  <CardActionArea
                    onClick={() => void choose(issuer, configuration.id)}
                    sx={{ p: 2 }}
                    data-testid="issuer-configuration"
                    data-configuration={configuration.id}
                  >
                    <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
                      {name} <MdocTag format={configuration.format} />
                    </Typography>
                    {description && (
                      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
                        {description}
                      </Typography>
                    )}
                    {claims.length > 0 && (
                      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 1 }}>
                        {t('fromIssuer.contains', { claims: claims.join(', ') })}
                      </Typography>
                    )}
                  </CardActionArea>
                </Card>
              </Box>
            );
          })}
        </Stack>
        <Alert severity="info" variant="outlined">
          {t('fromIssuer.whatNext')}
        </Alert>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => setState({ step: 'enter' })} data-testid="issuer-back">
            {t('fromIssuer.back')}
          </Button>
        </Stack>
      </Stack>
    );
  }

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate data-testid="issuer-enter">
      <PageTitle>{t('fromIssuer.title')}</PageTitle>
      <Typography sx={{ color: 'text.secondary' }}>{t('fromIssuer.intro')}</Typography>
      {errorAlert}
      <TextField
        label={t('fromIssuer.address')}
        value={address}
        onChange={(event) => setAddress(event.target.value)}
        placeholder={platform ? `${platform}/orgs/…` : 'https://'}
        helperText={platform ? t('fromIssuer.addressHelpPlatform', { platform }) : t('fromIssuer.addressHelp')}
        fullWidth
        type="url"
        autoComplete="url"
        slotProps={{ htmlInput: { spellCheck: false, inputMode: 'url', 'data-testid': 'issuer-address' } }}
      />
      {known.length > 0 && (
        <Box>
          <Typography variant="overline" component="h2" sx={{ color: 'text.secondary' }}>
            {t('fromIssuer.known')}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {known.map((issuer) => (
              <Chip
                key={issuer.id}
                label={pickDisplay(issuer.name, locale) || new URL(issuer.id).host}
                onClick={() => {
                  setAddress(issuer.id);
                  void read(issuer.id);
                }}
                variant="outlined"
                data-testid="issuer-known"
              />
            ))}
          </Stack>
        </Box>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => navigate('/')}>{t('receive.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={!address.trim()} data-testid="issuer-continue">
          {t('fromIssuer.continue')}
        </Button>
      </Stack>
    </Stack>
  );
}
