import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useTranslation } from 'react-i18next';
import { changeLanguage, SUPPORTED_LANGUAGES } from '../i18n/index.ts';

/**
 * A native select (robust on mobile and for automation) listing each language in its own name. Built from the
 * parts of an outlined `TextField select native`, without TextField: that one also brings the non-native Select
 * (Menu, Popover, Modal), which /intro would download for nothing (issue 8: first-screen size).
 */
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
  const label = t('settings.language');
  const helperId = helperText ? `${testId}-helper-text` : undefined;
  return (
    <FormControl size={size} fullWidth={fullWidth} sx={{ minWidth: 180 }}>
      <InputLabel htmlFor={testId} id={`${testId}-label`}>
        {label}
      </InputLabel>
      <NativeSelect
        value={i18n.language}
        onChange={async (event) => {
          await changeLanguage(event.target.value);
          onChanged?.();
        }}
        input={
          <OutlinedInput
            label={label}
            inputProps={{ id: testId, 'data-testid': testId, 'aria-describedby': helperId }}
          />
        }
      >
        {SUPPORTED_LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`languages.${language}`)}
          </option>
        ))}
      </NativeSelect>
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
