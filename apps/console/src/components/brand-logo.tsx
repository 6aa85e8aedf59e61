import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../i18n/index.ts';

export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 32 32"
      aria-hidden
      sx={{ width: size, height: size, flexShrink: 0, display: 'block' }}
    >
      <rect width="32" height="32" rx="8" fill="#004a46" />
      <path
        d="M10 16.5l4 4 8-9"
        stroke="#fff"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Box>
  );
}

export function BrandLogo({ inverted = false, size = 32 }: { inverted?: boolean; size?: number }) {
  const { t } = useTranslation();
  const isSmall = size < 28;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: isSmall ? 0.75 : 1.25 }}>
      <BrandMark size={size} />
      <Typography
        variant="subtitle2"
        component="span"
        sx={{
          fontSize: isSmall ? 13 : 16,
          color: inverted ? 'common.white' : isSmall ? 'text.secondary' : 'text.primary',
          whiteSpace: 'nowrap',
        }}
      >
        {t('app.name')}
      </Typography>
    </Box>
  );
}
