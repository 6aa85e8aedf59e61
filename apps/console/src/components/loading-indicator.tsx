import LinearProgress from '@mui/material/LinearProgress';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { loadingStore } from '../lib/loading.ts';

/** The global loading indicator: on while at least one call is in flight. */
export function LoadingIndicator() {
  const { t } = useTranslation();
  const count = useSyncExternalStore(loadingStore.subscribe, loadingStore.count, loadingStore.count);
  if (count === 0) return null;
  return (
    <LinearProgress
      aria-label={t('common.loading')}
      data-testid="global-loading"
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.modal + 1, height: 3 }}
    />
  );
}
