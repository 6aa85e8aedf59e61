import GppGoodOutlined from '@mui/icons-material/GppGoodOutlined';
import GppMaybeOutlined from '@mui/icons-material/GppMaybeOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { alpha, type Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { IssuerAssurance } from '../app/core-api.ts';

/**
 * How sure the wallet is of a credential's issuer (see IssuerAssurance in the core): certified by this
 * platform, certified by an authority the platform trusts, or self-asserted. Never more than was checked.
 */

const isCertified = (assurance: IssuerAssurance | undefined) =>
  assurance?.level === 'platform' || assurance?.level === 'anchor';

/** The one-line wording ("Certified by …", "Self-asserted by …"). */
export function assuranceHeadline(t: TFunction, assurance: IssuerAssurance): string {
  if (assurance.level === 'platform') return t('assurance.platform', { authority: assurance.by });
  if (assurance.level === 'anchor') return t('assurance.anchor', { authority: assurance.by });
  return t('assurance.self', { issuer: assurance.by });
}

function assuranceHint(t: TFunction, assurance: IssuerAssurance): string {
  if (assurance.level === 'platform') return t('assurance.platformHint', { authority: assurance.by });
  if (assurance.level === 'anchor') return t('assurance.anchorHint', { authority: assurance.by });
  return t(`assurance.selfHint.${assurance.source}`);
}

type Tone = 'success' | 'warning' | 'neutral';

const toneStyles = (tone: Tone) => (theme: Theme) => {
  const color = tone === 'neutral' ? theme.palette.grey[600] : theme.palette[tone].main;
  return { bgcolor: alpha(color, 0.07), border: 1, borderColor: alpha(color, 0.3) };
};

/**
 * The assurance as a short statement with its reason. `phase`: `stored` for a held credential (absent:
 * not known yet), `checking` while the wallet decides it, `offer` before a credential is issued (absent:
 * decided when the credential arrives).
 */
export function IssuerAssuranceNote({
  assurance,
  phase = 'stored',
}: {
  assurance: IssuerAssurance | undefined;
  phase?: 'stored' | 'checking' | 'offer';
}) {
  const { t } = useTranslation();
  let tone: Tone = 'neutral';
  let icon = <ShieldOutlined sx={{ color: 'grey.600' }} />;
  let headline: string;
  let hints: string[];
  if (assurance) {
    tone = isCertified(assurance) ? 'success' : 'warning';
    icon = isCertified(assurance) ? <GppGoodOutlined color="success" /> : <GppMaybeOutlined color="warning" />;
    headline = assuranceHeadline(t, assurance);
    // Provisional: the anchors could not be read, so "no authority vouches for it" would be more than known.
    hints = [assurance.provisional ? t('assurance.provisional') : assuranceHint(t, assurance)];
    if (phase === 'offer') hints.push(t('assurance.announced'));
  } else if (phase === 'checking') {
    icon = <CircularProgress size={22} aria-label={t('assurance.checking')} />;
    headline = t('assurance.checking');
    hints = [];
  } else if (phase === 'offer') {
    headline = t('assurance.pending');
    hints = [t('assurance.pendingHint')];
  } else {
    headline = t('assurance.unknown');
    hints = [t('assurance.unknownHint')];
  }
  return (
    <Box
      data-testid="issuer-assurance"
      data-level={assurance?.level ?? (phase === 'stored' ? 'unknown' : phase)}
      sx={[{ display: 'flex', gap: 1.25, alignItems: 'flex-start', p: 1.5, borderRadius: 2 }, toneStyles(tone)]}
    >
      <Box sx={{ display: 'flex', pt: 0.25, flexShrink: 0 }} aria-hidden>
        {icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, wordBreak: 'break-word' }} data-testid="issuer-assurance-headline">
          {headline}
        </Typography>
        {hints.map((hint) => (
          <Typography key={hint} variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
            {hint}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

/** The assurance on a credential card: a small pill over the issuer's colours (nothing while unknown). */
export function AssuranceBadge({ assurance }: { assurance: IssuerAssurance | undefined }) {
  const { t } = useTranslation();
  if (!assurance) return null;
  const certified = isCertified(assurance);
  const Icon = certified ? GppGoodOutlined : GppMaybeOutlined;
  return (
    <Box
      component="span"
      role="img"
      aria-label={assuranceHeadline(t, assurance)}
      title={assuranceHeadline(t, assurance)}
      data-testid="assurance-badge"
      data-level={assurance.level}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        px: 0.75,
        py: 0.25,
        borderRadius: 5,
        fontSize: 12,
        fontWeight: 600,
        lineHeight: 1.4,
        whiteSpace: 'nowrap',
        // Over any issuer colour: the card's own text colour, outlined.
        color: 'inherit',
        border: '1px solid currentColor',
      }}
    >
      <Icon sx={{ fontSize: 15 }} aria-hidden />
      <span aria-hidden>{certified ? t('assurance.short.certified') : t('assurance.short.self')}</span>
    </Box>
  );
}

/** The assurance as one line of small print, for lists (the credentials offered on the consent screen). */
export function AssuranceLine({ assurance }: { assurance: IssuerAssurance | undefined }) {
  const { t } = useTranslation();
  if (!assurance) return null;
  const certified = isCertified(assurance);
  const Icon = certified ? GppGoodOutlined : GppMaybeOutlined;
  return (
    <Box
      component="span"
      data-testid="assurance-line"
      data-level={assurance.level}
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'text.secondary' }}
    >
      <Icon sx={{ fontSize: 16 }} color={certified ? 'success' : 'warning'} aria-hidden />
      <Typography component="span" variant="caption" sx={{ wordBreak: 'break-word' }}>
        {assuranceHeadline(t, assurance)}
      </Typography>
    </Box>
  );
}
