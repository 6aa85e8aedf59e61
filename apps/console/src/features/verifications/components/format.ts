import type { Verification } from '@cp/contracts';
import type { TFunction, Translator } from '../../../i18n/index.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';

/** The holder link as shared: the API may answer it relative to the console (`/connect/redirect/{id}`). */
export function absoluteLink(link: string): string {
  try {
    return new URL(link, window.location.origin).toString();
  } catch {
    return link;
  }
}

/**
 * What the verification asks for, as lists show it: the schema's name (a platform schema in the user's language),
 * or for another issuer's credential type its `vct` (the first, with how many more) or its mdoc doctype.
 */
export function credentialTypeName(
  verification: Pick<Verification, 'schema' | 'credential'>,
  i18n: Translator,
): string {
  if (verification.schema) return credentialSchemaText(verification.schema, i18n).name;
  const credential = verification.credential;
  // An SD-JWT VC type by its vct values; an mdoc type by its doctype.
  const [first, ...more] =
    credential?.format === 'mso_mdoc' ? [credential.doctype_value] : (credential?.vct_values ?? []);
  if (!first) return '—';
  return i18n.t('verifications.list.externalType', { type: more.length > 0 ? `${first} +${more.length}` : first });
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
