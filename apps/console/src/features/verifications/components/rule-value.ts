import type { CredentialSchemaAttributeType } from '@cp/contracts';

/**
 * What is wrong with a rule value for its attribute's type, as a key under `verifications.validation`
 * (spec §5: Must be a valid URL / a numeric value / a valid Email / a date value; Required), or null.
 * The same rules as the API's claim typing (packages/credentials `typeClaimValue`), which the console
 * does not depend on: it brings Node-only crypto with it.
 */
export type RuleValueError = 'required' | 'number' | 'url' | 'email' | 'date' | 'boolean';

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

export function ruleValueError(type: CredentialSchemaAttributeType, value: string): RuleValueError | null {
  const text = value.trim();
  if (!text) return 'required';
  switch (type) {
    case 'NUMBER':
      return NUMBER.test(text) && Number.isFinite(Number(text)) ? null : 'number';
    case 'EMAIL':
      return EMAIL.test(text) ? null : 'email';
    case 'URL':
      try {
        const url = new URL(text);
        return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'url';
      } catch {
        return 'url';
      }
    case 'DATETIME': {
      if (DATE_ONLY.test(text)) {
        const date = new Date(`${text}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text) ? null : 'date';
      }
      return DATE_TIME.test(text) && !Number.isNaN(new Date(text).getTime()) ? null : 'date';
    }
    case 'BOOLEAN':
      return text === 'true' || text === 'false' ? null : 'boolean';
    case 'TEXT':
      return null;
  }
}

/** A message of the API's 422 `errors[]` that the console can show in the user's language. */
export type ServerMessageKey = RuleValueError | 'notAnAttribute' | 'tooLong';

/** The API's English messages (spec §5 and the verifier's own) → our keys, so a 422 shows translated. */
const SERVER_MESSAGES: Record<string, ServerMessageKey> = {
  'Must be a valid URL': 'url',
  'Must be a numeric value': 'number',
  'Must be a valid Email': 'email',
  'Must be a date value': 'date',
  'Must be true or false': 'boolean',
  Required: 'required',
  'Not an attribute of this schema': 'notAnAttribute',
  'Too long': 'tooLong',
};

export const ruleValueErrorFromServer = (message: string): ServerMessageKey | null => SERVER_MESSAGES[message] ?? null;
