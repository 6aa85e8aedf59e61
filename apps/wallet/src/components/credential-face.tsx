import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CredentialDisplay, IssuerInfo } from '../app/core-api.ts';
import { pickDisplay } from '../app/core-api.ts';
import { currentLanguage } from '../i18n/index.ts';
import { AssuranceBadge } from './issuer-assurance.tsx';

/** A #rgb / #rrggbb / rgb() colour from issuer metadata, or undefined (never arbitrary CSS). */
function safeColor(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value) || /^rgba?\([\d\s.,%]+\)$/i.test(value)
    ? value
    : undefined;
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
}: {
  display: CredentialDisplay;
  issuer: IssuerInfo;
  fallbackName: string;
  badge?: ReactNode;
}) {
  const { t } = useTranslation();
  const locale = currentLanguage();
  const background = safeColor(display.backgroundColor) ?? '#004a46';
  const color = safeColor(display.textColor) ?? '#ffffff';
  const logo = display.logoUri ?? issuer.logoUri;
  const issuerName = pickDisplay(issuer.name, locale) || issuer.id;
  return (
    <Box
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
        <Typography component="p" sx={{ fontSize: 20, fontWeight: 600, lineHeight: 1.3, color: 'inherit' }}>
          {credentialName(display, fallbackName)}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5 }}>
          <Typography variant="body2" sx={{ opacity: 0.85, color: 'inherit' }}>
            {t('credentials.issuedBy', { issuer: issuerName })}
          </Typography>
          <AssuranceBadge assurance={issuer.assurance} />
        </Box>
      </Box>
    </Box>
  );
}
