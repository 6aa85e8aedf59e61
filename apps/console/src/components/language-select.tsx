import Box from '@mui/material/Box';
import { changeLanguage, SUPPORTED_LANGUAGES, useTranslation } from '../i18n/index.ts';

/** MUI's outlined input, as the theme sets it (`MuiOutlinedInput` in @cp/ui). */
const OUTLINE = 'grey.300';
const RADIUS = '8px';

/**
 * A native select (robust on mobile and for automation) listing each language in its own name, drawn as MUI's
 * outlined `TextField select native` with its label on the border. It is plain elements with MUI's styles rather
 * than FormControl, InputLabel, OutlinedInput and NativeSelect: those (with InputBase, TextareaAutosize and
 * FormHelperText) are ≈ 8 KB gzip that /intro, where this is the only form control, would download for nothing
 * (issue 8: first-screen size). The notch in the border is a `<legend>`, as in MUI's NotchedOutline.
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
    <Box
      sx={{
        display: 'inline-flex',
        flexDirection: 'column',
        position: 'relative',
        verticalAlign: 'top',
        minWidth: 180,
        width: fullWidth ? '100%' : undefined,
      }}
    >
      <Box
        sx={{
          position: 'relative',
          display: 'flex',
          alignItems: 'center',
          borderRadius: RADIUS,
          bgcolor: '#ffffff',
          color: 'text.primary',
          typography: 'body1',
          lineHeight: '1.4375em',
          '&:hover > fieldset': { borderColor: 'text.primary' },
          '@media (hover: none)': { '&:hover > fieldset': { borderColor: OUTLINE } },
          '&:focus-within > fieldset': { borderColor: 'primary.main', borderWidth: 2 },
          '&:focus-within > label': { color: 'primary.main' },
        }}
      >
        <Box
          component="label"
          htmlFor={testId}
          id={`${testId}-label`}
          sx={{
            position: 'absolute',
            left: 0,
            top: 0,
            zIndex: 1,
            typography: 'body1',
            lineHeight: '1.4375em',
            color: 'text.secondary',
            transformOrigin: 'top left',
            transform: 'translate(14px, -9px) scale(0.75)',
            maxWidth: 'calc(133% - 32px)',
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            userSelect: 'none',
          }}
        >
          {label}
        </Box>
        <Box
          component="select"
          id={testId}
          data-testid={testId}
          aria-describedby={helperId}
          value={i18n.language}
          onChange={async (event) => {
            await changeLanguage(event.target.value);
            onChanged?.();
          }}
          sx={{
            font: 'inherit',
            letterSpacing: 'inherit',
            color: 'currentColor',
            appearance: 'none',
            border: 0,
            borderRadius: RADIUS,
            bgcolor: 'transparent',
            boxSizing: 'content-box',
            height: '1.4375em',
            m: 0,
            display: 'block',
            minWidth: 16,
            width: '100%',
            cursor: 'pointer',
            userSelect: 'none',
            outline: 0,
            padding: size === 'small' ? '8.5px 32px 8.5px 14px' : '16.5px 32px 16.5px 14px',
            '& option': { bgcolor: 'background.paper' },
          }}
        >
          {SUPPORTED_LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t(`languages.${language}`)}
            </option>
          ))}
        </Box>
        {/* MUI's ArrowDropDown icon. */}
        <Box
          component="svg"
          aria-hidden
          focusable="false"
          viewBox="0 0 24 24"
          sx={{
            position: 'absolute',
            right: 7,
            top: 'calc(50% - 0.5em)',
            width: '1em',
            height: '1em',
            fontSize: '1.5rem',
            fill: 'currentColor',
            color: 'action.active',
            pointerEvents: 'none',
          }}
        >
          <path d="M7 10l5 5 5-5z" />
        </Box>
        <Box
          component="fieldset"
          aria-hidden
          sx={{
            position: 'absolute',
            inset: '-5px 0 0 0',
            m: 0,
            px: 1,
            py: 0,
            pointerEvents: 'none',
            borderRadius: 'inherit',
            borderStyle: 'solid',
            borderWidth: 1,
            borderColor: OUTLINE,
            overflow: 'hidden',
            minWidth: '0%',
            textAlign: 'left',
          }}
        >
          <Box
            component="legend"
            sx={{
              float: 'unset',
              width: 'auto',
              overflow: 'hidden',
              display: 'block',
              p: 0,
              height: 11,
              fontSize: '0.75em',
              visibility: 'hidden',
              maxWidth: '100%',
              whiteSpace: 'nowrap',
              '& > span': { px: '5px', display: 'inline-block', opacity: 0, visibility: 'visible' },
            }}
          >
            <span>{label}</span>
          </Box>
        </Box>
      </Box>
      {helperText && (
        <Box
          component="p"
          id={helperId}
          sx={{ typography: 'caption', color: 'text.secondary', textAlign: 'left', m: '3px 14px 0' }}
        >
          {helperText}
        </Box>
      )}
    </Box>
  );
}
