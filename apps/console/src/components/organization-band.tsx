import { brandTextColor } from '@cp/contracts/color-contrast';
import VerifiedRounded from '@mui/icons-material/VerifiedRounded';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import { darken, type SxProps, type Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * The colours of an organization's brand as a background: the colour itself and the text colour that contrasts
 * best with it (white or near-black, `brandTextColor`). Null: the product's own colours.
 */
export function brandColors(brandColor: string | null | undefined) {
  return brandColor ? { background: brandColor, text: brandTextColor(brandColor) } : null;
}

/** A contained button in the organization's colour (its text colour chosen for contrast); nothing without one. */
export function brandButtonSx(brandColor: string | null | undefined): SxProps<Theme> {
  const colors = brandColors(brandColor);
  if (!colors) return {};
  return {
    bgcolor: colors.background,
    color: colors.text,
    '&:hover': { bgcolor: darken(colors.background, 0.12) },
    // Keyboard focus stays visible on any colour: a ring in the text colour, inside an outline in the colour.
    '&.Mui-focusVisible': { outline: `2px solid ${colors.background}`, outlineOffset: 2 },
  };
}

/**
 * The band at the top of what a holder sees: the organization's logo (or its initial), a line saying what it
 * does ("Issued by", "Asked by"), its name and, after KYB, its verified badge. In the organization's colour
 * with the text colour that reads on it; a light neutral band without a colour.
 */
export function OrganizationBand({
  label,
  name,
  logoUrl,
  brandColor,
  verifiedLabel,
  testId,
  logoAlt,
  actions,
}: {
  label: string;
  name: string;
  logoUrl: string | null;
  brandColor: string | null;
  /** The badge's text when the organization passed KYB; null: no badge. */
  verifiedLabel: string | null;
  /** Of the name; the badge's is `${testId}-verified`, the band's `${testId}-band`, the logo's `${testId}-logo`. */
  testId: string;
  logoAlt: string;
  actions?: ReactNode;
}) {
  const colors = brandColors(brandColor);
  return (
    <Box
      data-testid={`${testId}-band`}
      data-brand-color={brandColor ?? ''}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.75,
        px: { xs: 2.5, sm: 4 },
        py: { xs: 2.25, sm: 2.75 },
        bgcolor: colors ? colors.background : 'grey.50',
        color: colors ? colors.text : 'text.primary',
        borderBottom: 1,
        borderColor: colors ? 'transparent' : 'grey.200',
        minWidth: 0,
      }}
    >
      <Avatar
        src={logoUrl ?? undefined}
        alt={logoUrl ? logoAlt : undefined}
        variant="rounded"
        data-testid={`${testId}-logo`}
        sx={{
          width: 56,
          height: 56,
          flexShrink: 0,
          borderRadius: 2,
          bgcolor: '#ffffff',
          color: colors?.background ?? 'primary.main',
          fontWeight: 700,
          fontSize: 22,
          boxShadow: '0 0 0 1px rgba(16, 24, 40, 0.08)',
          p: logoUrl ? 0.75 : 0,
        }}
        slotProps={{ img: { style: { objectFit: 'contain' } } }}
      >
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" component="p" sx={{ color: 'inherit', opacity: colors ? 0.92 : 0.75 }}>
          {label}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', columnGap: 1, rowGap: 0.5, flexWrap: 'wrap' }}>
          <Typography
            component="p"
            sx={{
              color: 'inherit',
              fontWeight: 600,
              fontSize: { xs: 17, sm: 19 },
              lineHeight: 1.3,
              overflowWrap: 'anywhere',
            }}
            data-testid={testId}
          >
            {name}
          </Typography>
          {verifiedLabel && (
            // On white whatever the band's colour, so the green stays readable.
            <Box
              component="span"
              data-testid={`${testId}-verified`}
              sx={{
                display: 'inline-flex',
                alignItems: 'center',
                gap: 0.5,
                px: 1,
                py: 0.25,
                borderRadius: 999,
                bgcolor: '#ffffff',
                color: 'success.700',
                fontSize: 12,
                fontWeight: 600,
                lineHeight: '18px',
                whiteSpace: 'nowrap',
                boxShadow: '0 0 0 1px rgba(16, 24, 40, 0.08)',
              }}
            >
              <VerifiedRounded sx={{ fontSize: 16 }} aria-hidden />
              {verifiedLabel}
            </Box>
          )}
        </Box>
      </Box>
      {actions}
    </Box>
  );
}
