import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { changeLanguage, SUPPORTED_LANGUAGES } from '../i18n/index.ts';

/** A native select (robust on mobile and for automation) listing each language in its own name. */
export function LanguageSelect({
  testId = 'language-select',
  helperText,
  onChanged,
  fullWidth = false,
  size = 'small',
}: {
  testId?: string;
  helperText?: string;
  onChanged?: () => void;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
}) {
  const { t, i18n } = useTranslation();
  return (
    <TextField
      select
      size={size}
      fullWidth={fullWidth}
      label={t('settings.language')}
      value={i18n.language}
      helperText={helperText}
      onChange={async (event) => {
        await changeLanguage(event.target.value);
        onChanged?.();
      }}
      slotProps={{
        select: { native: true },
        htmlInput: { 'data-testid': testId, id: testId },
        inputLabel: { htmlFor: testId },
      }}
      sx={{ minWidth: 180 }}
    >
      {SUPPORTED_LANGUAGES.map((language) => (
        <option key={language} value={language}>
          {t(`languages.${language}`)}
        </option>
      ))}
    </TextField>
  );
}
