import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CredentialFormat } from '../app/core-api.ts';

/** The credential format in the holder's words: "SD-JWT VC" or "ISO mdoc (mDL-style)". */
export function useFormatName() {
  const { t } = useTranslation();
  return (format: CredentialFormat) => (format === 'mso_mdoc' ? t('format.mdoc') : t('format.sdJwt'));
}

/**
 * A small tag naming an mdoc's format on a card (an SD-JWT VC, this wallet's default, carries none), so the holder
 * can tell the two forms of one credential apart.
 */
export function MdocTag({ format }: { format: CredentialFormat }) {
  const { t } = useTranslation();
  if (format !== 'mso_mdoc') return null;
  return (
    <Typography
      component="span"
      variant="caption"
      data-testid="credential-format"
      data-format={format}
      sx={{ border: 1, borderColor: 'currentColor', borderRadius: 1, px: 0.75, lineHeight: 1.6, color: 'inherit' }}
    >
      {t('format.mdocShort')}
    </Typography>
  );
}
