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
      return DATE_ONLY.test(text) && !Number.isNaN(new Date(`${text}T00:00:00Z`).getTime()) ? null : 'date';
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
    return { name: attribute.name, value: attribute.type === 'NUMBER' ? Number(text) : text };
  });
}

export function emptyClaims(attributes: CredentialSchemaAttribute[]): Record<string, ClaimFormValue> {
  return Object.fromEntries(attributes.map((a) => [a.name, a.type === 'BOOLEAN' ? false : '']));
}
