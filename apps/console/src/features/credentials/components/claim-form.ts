import type { CredentialSchemaAttribute, CredentialSchemaAttributeType } from '@cp/contracts';

export type ClaimFormValue = string | boolean;

/** A recipient typed in the wizard; `createdId` once POST with-recipient created its credential. */
export interface RecipientDraft {
  key: number;
  email: string;
  first_name: string;
  last_name: string;
  claims: Record<string, ClaimFormValue>;
  createdId?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** What a `datetime-local` input gives: a local date and time, no offset (HTML § 2.3.5.5). */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/** Whether the date (and time) exists: 2025-02-30 does not (Date would roll it over to March 2). */
function isCalendarDate(text: string) {
  const [y, m, d, h = 0, min = 0] = text.split(/[-T:]/).map(Number) as number[];
  const date = new Date(Date.UTC(y!, m! - 1, d, h, min));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === m! - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === min
  );
}

/**
 * A DATETIME claim as the API wants it: a date-and-time typed in the picker is the sender's local time, so it
 * becomes that instant in ISO 8601 UTC (`…Z`) and keeps its time; a bare date stays a calendar date.
 */
export function toDateTimeClaim(text: string): string {
  if (!LOCAL_DATE_TIME.test(text)) return text;
  const date = new Date(text); // no offset: parsed as local time (ECMA-262 Date Time String Format)
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/** The i18n key (under issuing.validation) of what is wrong with a value, or null when it is fine. */
export function claimError(type: CredentialSchemaAttributeType, value: ClaimFormValue | undefined): string | null {
  if (type === 'BOOLEAN') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return 'required';
  switch (type) {
    case 'NUMBER':
      return NUMBER.test(text) && Number.isFinite(Number(text)) ? null : 'number';
    case 'EMAIL':
      return EMAIL.test(text) ? null : 'email';
    case 'URL':
      try {
        const url = new URL(text);
        return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'url';
      } catch {
        return 'url';
      }
    case 'DATETIME':
      return (DATE_ONLY.test(text) || LOCAL_DATE_TIME.test(text)) && isCalendarDate(text) ? null : 'date';
    default:
      return null;
  }
}

export function recipientErrors(
  draft: Omit<RecipientDraft, 'key'>,
  attributes: CredentialSchemaAttribute[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!draft.email.trim()) errors.email = 'required';
  else if (!EMAIL.test(draft.email.trim())) errors.email = 'email';
  if (!draft.first_name.trim()) errors.first_name = 'required';
  if (!draft.last_name.trim()) errors.last_name = 'required';
  for (const attribute of attributes) {
    const error = claimError(attribute.type, draft.claims[attribute.name]);
    if (error) errors[`claim.${attribute.name}`] = error;
  }
  return errors;
}

/** The claims as the API wants them: numbers as numbers, booleans as booleans, the rest trimmed text. */
export function toClaims(
  draft: Pick<RecipientDraft, 'claims'>,
  attributes: CredentialSchemaAttribute[],
): { name: string; value: string | number | boolean }[] {
  return attributes.map((attribute) => {
    const raw = draft.claims[attribute.name];
    if (attribute.type === 'BOOLEAN') return { name: attribute.name, value: raw === true };
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (attribute.type === 'NUMBER') return { name: attribute.name, value: Number(text) };
    if (attribute.type === 'DATETIME') return { name: attribute.name, value: toDateTimeClaim(text) };
    return { name: attribute.name, value: text };
  });
}

export function emptyClaims(attributes: CredentialSchemaAttribute[]): Record<string, ClaimFormValue> {
  return Object.fromEntries(attributes.map((a) => [a.name, a.type === 'BOOLEAN' ? false : '']));
}
