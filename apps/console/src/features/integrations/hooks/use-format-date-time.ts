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

/**
 * The date and the time apart, for table cells that show them on two lines (a one-line date and time is the
 * widest thing in a row, and the names beside it need the room).
 */
export function useFormatDateAndTime() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
    const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' });
    return (iso: string) => ({ date: date.format(new Date(iso)), time: time.format(new Date(iso)) });
  }, [i18n.language]);
}
