import Box from '@mui/material/Box';
import { keyframes } from '@mui/material/styles';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { loadingStore } from '../lib/loading.ts';

// MUI's LinearProgress (indeterminate, primary): its two bars and their keyframes, without its other variants
// (determinate, buffer, query) and colours. Every first screen shows it while a call is in flight (issue 16).
const bar1 = keyframes`
  0% { left: -35%; right: 100%; }
  60% { left: 100%; right: -90%; }
  100% { left: 100%; right: -90%; }
`;
const bar2 = keyframes`
  0% { left: -200%; right: 100%; }
  60% { left: 107%; right: -8%; }
  100% { left: 107%; right: -8%; }
`;
const barSx = {
  position: 'absolute',
  left: 0,
  bottom: 0,
  top: 0,
  width: 'auto',
  transition: 'transform 0.2s linear',
  transformOrigin: 'left',
  bgcolor: 'primary.main',
} as const;

/** The global loading indicator: on while at least one call is in flight. */
export function LoadingIndicator() {
  const { t } = useTranslation();
  const count = useSyncExternalStore(loadingStore.subscribe, loadingStore.count, loadingStore.count);
  if (count === 0) return null;
  return (
    <Box
      component="span"
      role="progressbar"
      aria-label={t('common.loading')}
      data-testid="global-loading"
      className="MuiLinearProgress-root MuiLinearProgress-colorPrimary MuiLinearProgress-indeterminate"
      sx={(theme) => ({
        overflow: 'hidden',
        display: 'block',
        '@media print': { colorAdjust: 'exact' },
        backgroundColor: theme.lighten(theme.palette.primary.main, 0.62),
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        zIndex: theme.zIndex.modal + 1,
        height: 3,
      })}
    >
      <Box
        component="span"
        className="MuiLinearProgress-bar MuiLinearProgress-bar1"
        sx={{ ...barSx, animation: `${bar1} 2.1s cubic-bezier(0.65, 0.815, 0.735, 0.395) infinite` }}
      />
      <Box
        component="span"
        className="MuiLinearProgress-bar MuiLinearProgress-bar2"
        sx={{ ...barSx, animation: `${bar2} 2.1s cubic-bezier(0.165, 0.84, 0.44, 1) 1.15s infinite` }}
      />
    </Box>
  );
}
