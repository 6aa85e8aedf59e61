import type { Verification } from '@cp/contracts';
import type { TFunction } from '../../../i18n/index.ts';

/** The holder link as shared: the API may answer it relative to the console (`/connect/redirect/{id}`). */
export function absoluteLink(link: string): string {
  try {
    return new URL(link, window.location.origin).toString();
  } catch {
    return link;
  }
}

/** Who created the verification; none when it was created with an API key (or the user was deleted). */
export function creatorName(verification: Verification, t: TFunction): string {
  const user = verification.user;
  if (!user) return t('verifications.list.integration');
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || '—';
}

export function formatDate(value: string | null | undefined, language: string): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(date);
}

export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
