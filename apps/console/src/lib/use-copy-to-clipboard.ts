import { useCallback } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { notify } from './notifications.ts';

/** Copies a value and says so; where the clipboard is refused (insecure origin), the value is shown instead. */
export function useCopyToClipboard() {
  const { t } = useTranslation();
  return useCallback(
    async (value: string, successTitle?: string) => {
      try {
        await navigator.clipboard.writeText(value);
        notify({ severity: 'success', title: successTitle ?? t('common.copied') });
      } catch {
        notify({ severity: 'info', title: value });
      }
    },
    [t],
  );
}
