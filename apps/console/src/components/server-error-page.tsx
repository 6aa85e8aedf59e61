import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/index.ts';

/** sessionStorage flag: the 500 page reloads the app once per browser session before showing itself. */
export const ERROR_RELOAD_FLAG = 'error_reloaded';

/** True the first time in a session (and records it), false afterwards. */
export function claimErrorReload(storage: Pick<Storage, 'getItem' | 'setItem'>): boolean {
  try {
    if (storage.getItem(ERROR_RELOAD_FLAG)) return false;
    storage.setItem(ERROR_RELOAD_FLAG, '1');
    return true;
  } catch {
    return false;
  }
}

/** POST /api/errors (public): the API forwards render crashes to the team's chat; no address ships here. */
export function reportCrash(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? error.stack : undefined;
  void fetch('/api/errors', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      message: message.slice(0, 2000) || 'Unknown error',
      stack: stack?.slice(0, 8000),
      url: window.location.href.slice(0, 2048),
    }),
    keepalive: true,
  }).catch(() => undefined);
}

export interface ServerErrorPageProps {
  error: unknown;
  reload?: () => void;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
}

export function ServerErrorPage({
  error,
  reload = () => window.location.reload(),
  storage = window.sessionStorage,
}: ServerErrorPageProps) {
  const { t } = useTranslation();
  const [reloading, setReloading] = useState(true);
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    reportCrash(error);
    if (claimErrorReload(storage)) reload();
    else setReloading(false);
  }, [error, reload, storage]);

  if (reloading) return null;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : null;
  return (
    <Box
      component="main"
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: 3, textAlign: 'center' }}
    >
      <SkipLink label={t('common.skipToContent')} />
      <Box role="alert" sx={{ maxWidth: 520 }}>
        <Typography variant="h3" component="h1">
          {t('errors.serverTitle')}
        </Typography>
        <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1.5 }}>
          {t('errors.serverBody')}
        </Typography>
        {message && (
          <Typography
            component="pre"
            variant="body2"
            data-testid="error-message"
            sx={{
              mt: 3,
              p: 2,
              bgcolor: 'grey.100',
              borderRadius: 2,
              color: 'grey.700',
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              textAlign: 'left',
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            }}
          >
            {message}
          </Typography>
        )}
        <Button variant="contained" href="/" startIcon={<HomeOutlined />} sx={{ mt: 4 }} data-testid="go-home">
          {t('common.goHome')}
        </Button>
      </Box>
    </Box>
  );
}
