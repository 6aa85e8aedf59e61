import { useMemo } from 'react';
import { useTranslation } from '../../../i18n/index.ts';

/** A date in the user's language (e.g. "Nov 22, 2026" / "2026/11/22"). */
export function useFormatDate() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
    return (iso: string) => format.format(new Date(iso));
  }, [i18n.language]);
}
