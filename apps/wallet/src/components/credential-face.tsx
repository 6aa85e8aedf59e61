import { brandTextColor, contrastRatio, parseHexColor, WCAG_AA_CONTRAST } from '@cp/contracts/color-contrast';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CredentialDisplay, CredentialFormat, IssuerInfo } from '../app/core-api.ts';
import { pickDisplay } from '../app/core-api.ts';
import { currentLanguage } from '../i18n/index.ts';
import { MdocTag } from './format-label.tsx';
import { AssuranceBadge } from './issuer-assurance.tsx';

/** A #rgb / #rrggbb / rgb() colour from issuer metadata, or undefined (never arbitrary CSS). */
function safeColor(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value) || /^rgba?\([\d\s.,%]+\)$/i.test(value)
    ? value
    : undefined;
}

/** The product's card colour for issuers that publish none. */
const DEFAULT_BACKGROUND = '#004a46';

/**
 * The card's colours from the issuer's `background_color` and `text_color` (OpenID4VCI §12.2.4 credential display).
 * The issuer's text colour is kept while it reads on its background (WCAG 2.2 AA, 4.5:1); when it is missing or
 * does not, the card uses white or near-black, whichever contrasts more — as the platform's own issuers publish.
 * A background we cannot measure (`rgb()`, 8 digits) keeps the issuer's text colour, or white.
 */
export function cardColors(display: Pick<CredentialDisplay, 'backgroundColor' | 'textColor'>): {
  background: string;
  text: string;
} {
  const background = safeColor(display.backgroundColor) ?? DEFAULT_BACKGROUND;
  const text = safeColor(display.textColor);
  if (parseHexColor(background) === null) return { background, text: text ?? '#ffffff' };
  const ratio = text ? contrastRatio(background, text) : null;
  if (text && ratio !== null && ratio >= WCAG_AA_CONTRAST) return { background, text };
  return { background, text: brandTextColor(background) };
}

export function credentialName(display: CredentialDisplay, fallback: string): string {
  return pickDisplay(display.name, currentLanguage()) || fallback;
}

/** The front of a credential card: the issuer's colours, logo and names from its metadata. */
export function CredentialFace({
  display,
  issuer,
  fallbackName,
  badge,
  nameComponent = 'p',
  format = 'dc+sd-jwt',
}: {
  display: CredentialDisplay;
  issuer: IssuerInfo;
  fallbackName: string;
  badge?: ReactNode;
  /** A held credential's format: an mdoc is tagged as one. */
  format?: CredentialFormat;
  /** The credential's page makes its name the page's heading (`h1`); on a card in a list it is text. */
  nameComponent?: 'p' | 'h1';
}) {
  const { t } = useTranslation();
  const locale = currentLanguage();
  const { background, text: color } = cardColors(display);
  const logo = display.logoUri ?? issuer.logoUri;
  const issuerName = pickDisplay(issuer.name, locale) || issuer.id;
  return (
    <Box
      data-testid="credential-face"
      sx={{
        bgcolor: background,
        color,
        p: 2.5,
        minHeight: 150,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        gap: 2,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
        <Avatar
          src={logo}
          alt=""
          variant="rounded"
          sx={{ width: 44, height: 44, bgcolor: 'rgba(255,255,255,0.9)', color: background, fontWeight: 700 }}
          slotProps={{ img: { style: { objectFit: 'contain' } } }}
        >
          {issuerName.slice(0, 1).toUpperCase()}
        </Avatar>
        {badge}
      </Box>
      <Box>
        <Typography
          component={nameComponent}
          sx={{ fontSize: 20, fontWeight: 600, lineHeight: 1.3, color: 'inherit', m: 0 }}
        >
          {credentialName(display, fallbackName)}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5 }}>
          <Typography variant="body2" sx={{ opacity: 0.85, color: 'inherit' }}>
            {t('credentials.issuedBy', { issuer: issuerName })}
          </Typography>
          <AssuranceBadge assurance={issuer.assurance} />
          <MdocTag format={format} />
        </Box>
      </Box>
    </Box>
  );
}
