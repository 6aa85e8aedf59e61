import type { Organization } from '@cp/contracts';
import {
  BRAND_TEXT_DARK,
  BRAND_TEXT_LIGHT,
  brandTextColor,
  contrastRatio,
  WCAG_AA_CONTRAST,
} from '@cp/contracts/color-contrast';
import { colors } from '@cp/ui';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { brandButtonSx, OrganizationBand } from '../../../components/organization-band.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { useUpdateBrandColor } from '../api/update-brand-color.ts';

/** The product's primary colour, shown in the colour picker while the organization has none of its own. */
const PRODUCT_COLOR = colors.teal[600];

/**
 * What was typed, as `#rrggbb`: '' (no colour), the colour, or null when it is not one. Lenient with how people
 * paste colours (`1A73E8`, `#1a73e8`, `#fff`); the API accepts only `#rrggbb`.
 */
export function parseColorInput(text: string): string | null {
  const value = text.trim().toLowerCase();
  if (value === '') return '';
  const hex = value.startsWith('#') ? value.slice(1) : value;
  if (/^[0-9a-f]{6}$/.test(hex)) return `#${hex}`;
  if (/^[0-9a-f]{3}$/.test(hex)) return `#${[...hex].map((c) => c + c).join('')}`;
  return null;
}

/** A ratio rounded down to one decimal, so that 4.46:1 never reads as a passing "4.5:1". */
const floorRatio = (ratio: number) => Math.floor(ratio * 10) / 10;

/**
 * The organization's brand colour: a colour picker and its `#rrggbb` text, a live preview of the band and the
 * button holders see, and how readable text is on it (WCAG 2.2 AA, 4.5:1). Holder pages and wallets put white or
 * near-black text on it, whichever contrasts more; when white falls short, the owner is told, and told what is
 * done about it. Saved on its own, like the logo.
 */
export function OrganizationBrandColorField({ organization }: { organization: Organization }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateBrandColor(organization.id);
  const saved = organization.brand_color ?? null;
  const [text, setText] = useState(saved ?? '');
  useEffect(() => setText(organization.brand_color ?? ''), [organization.brand_color]);

  const parsed = parseColorInput(text);
  const isInvalid = parsed === null;
  const draft = parsed === '' ? null : parsed;
  const isChanged = !isInvalid && draft !== saved;
  // The preview follows what is typed as soon as it is a colour; until then, the saved one.
  const shown = isInvalid ? saved : draft;
  const format = (ratio: number) =>
    new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
      floorRatio(ratio),
    );

  const save = async (value: string | null) => {
    try {
      await update.mutateAsync(value);
      notify({ severity: 'success', title: t('organization.updated') });
    } catch {
      notify({ severity: 'error', title: t('organization.updateFailed'), message: t('catalogue.updateOrganization') });
    }
  };

  // The field sits in the profile form: Enter saves the colour instead of submitting the name and description.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (isChanged && !update.isPending) void save(draft);
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <Box
          component="input"
          type="color"
          aria-label={t('organizations.brandColor.picker')}
          data-testid="organization-brand-color-picker"
          value={shown ?? PRODUCT_COLOR}
          onChange={(event: { target: { value: string } }) => setText(event.target.value)}
          sx={{
            width: 56,
            height: 40,
            p: 0.5,
            flexShrink: 0,
            border: 1,
            borderColor: 'grey.300',
            borderRadius: 2,
            bgcolor: 'background.paper',
            cursor: 'pointer',
            '&::-webkit-color-swatch-wrapper': { p: 0 },
            '&::-webkit-color-swatch': { border: 'none', borderRadius: '6px' },
            '&::-moz-color-swatch': { border: 'none', borderRadius: '6px' },
            '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
          }}
        />
        <TextField
          label={t('organizations.brandColor.hex')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          size="small"
          error={isInvalid}
          placeholder={PRODUCT_COLOR}
          helperText={isInvalid ? t('organizations.brandColor.invalid') : t('organizations.brandColor.hexHelper')}
          sx={{ width: { xs: '100%', sm: 220 }, flex: { xs: '1 1 160px', sm: '0 0 auto' } }}
          slotProps={{
            htmlInput: {
              'data-testid': 'organization-brand-color',
              maxLength: 7,
              spellCheck: false,
              autoCapitalize: 'off',
              autoComplete: 'off',
              sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
            },
          }}
        />
      </Box>

      <ContrastReport color={shown} format={format} />

      <Box data-testid="organization-brand-color-preview" aria-label={t('organizations.brandColor.preview')}>
        <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('organizations.brandColor.preview')}
        </Typography>
        <Box
          sx={{ border: 1, borderColor: 'grey.200', borderRadius: 2, overflow: 'hidden', bgcolor: 'background.paper' }}
        >
          <OrganizationBand
            label={t('organizations.brandColor.previewIssuedBy')}
            name={organization.name}
            logoUrl={organization.logo?.url ?? null}
            brandColor={shown}
            verifiedLabel={organization.verified ? t('organizations.brandColor.previewVerified') : null}
            logoAlt={t('organizations.logo.alt', { name: organization.name })}
            testId="organization-brand-color-preview-header"
          />
          <Box sx={{ p: { xs: 2, sm: 2.5 }, display: 'flex', justifyContent: 'center' }}>
            <Button
              variant="contained"
              tabIndex={-1}
              disableRipple
              data-testid="organization-brand-color-preview-button"
              sx={[{ minWidth: 220, pointerEvents: 'none' }, brandButtonSx(shown) as object]}
            >
              {t('organizations.brandColor.previewButton')}
            </Button>
          </Box>
        </Box>
      </Box>

      <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        {saved !== null && (
          <Button
            color="secondary"
            disabled={update.isPending}
            onClick={() => save(null)}
            data-testid="organization-brand-color-reset"
          >
            {t('organizations.brandColor.reset')}
          </Button>
        )}
        <Button
          variant="outlined"
          disabled={!isChanged || update.isPending}
          onClick={() => save(draft)}
          data-testid="organization-brand-color-save"
        >
          {update.isPending ? t('common.saving') : t('organizations.brandColor.save')}
        </Button>
      </Box>
    </Box>
  );
}

/** How readable text is on the colour, and what holder pages and wallets do about it. */
function ContrastReport({ color, format }: { color: string | null; format: (ratio: number) => string }) {
  const { t } = useTranslation();
  if (!color) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="organization-brand-color-contrast">
        {t('organizations.brandColor.none')}
      </Typography>
    );
  }
  const white = contrastRatio(color, BRAND_TEXT_LIGHT) ?? 1;
  const chosen = brandTextColor(color);
  const best = contrastRatio(color, chosen) ?? 1;
  const minimum = format(WCAG_AA_CONTRAST);
  if (white >= WCAG_AA_CONTRAST) {
    return (
      <Alert severity="success" data-testid="organization-brand-color-contrast" data-level="white">
        {t('organizations.brandColor.whiteOk', { ratio: format(white), minimum })}
      </Alert>
    );
  }
  if (best >= WCAG_AA_CONTRAST) {
    return (
      <Alert severity="warning" data-testid="organization-brand-color-contrast" data-level="dark">
        {t('organizations.brandColor.whiteLow', { ratio: format(white), minimum, dark: format(best) })}
      </Alert>
    );
  }
  return (
    <Alert severity="warning" data-testid="organization-brand-color-contrast" data-level="low">
      {t(
        chosen === BRAND_TEXT_DARK ? 'organizations.brandColor.bothLowDark' : 'organizations.brandColor.bothLowWhite',
        {
          ratio: format(white),
          dark: format(contrastRatio(color, BRAND_TEXT_DARK) ?? 1),
          minimum,
        },
      )}
    </Alert>
  );
}
