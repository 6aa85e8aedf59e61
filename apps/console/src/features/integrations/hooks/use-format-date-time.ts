import { useMemo } from 'react';
import { useTranslation } from '../../../i18n/index.ts';

/** Dates and times in the user's language (e.g. "Nov 22, 2026, 1:52 AM" / "2026/11/22 1:52"). */
export function useFormatDateTime() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    return (iso: string) => format.format(new Date(iso));
  }, [i18n.language]);
}
