/** The attribute types of a credential schema (spec §3). */
export const attributeTypes = ['TEXT', 'NUMBER', 'BOOLEAN', 'URL', 'DATETIME', 'EMAIL'] as const;
export type AttributeType = (typeof attributeTypes)[number];

export type ClaimValue = string | number | boolean;

export type ClaimTypingError =
  | 'REQUIRED'
  | 'NOT_A_NUMBER'
  | 'NOT_A_BOOLEAN'
  | 'NOT_A_URL'
  | 'NOT_A_DATE'
  | 'NOT_AN_EMAIL'
  | 'TOO_LONG';

export type TypedClaim = { ok: true; value: ClaimValue } | { ok: false; error: ClaimTypingError };

export const CLAIM_TEXT_MAX = 2000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Types a claim value by its attribute type, as it goes into the SD-JWT VC: NUMBER as a JSON number,
 * BOOLEAN as a boolean, DATETIME as ISO 8601 (a calendar date stays a date, `2024-05-01`; a time
 * becomes UTC `…Z`), URL and EMAIL checked, TEXT as given. Input may come from a form, CSV or JSON.
 */
export function typeClaimValue(type: AttributeType, raw: unknown): TypedClaim {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    return { ok: false, error: 'REQUIRED' };
  }
  const text = typeof raw === 'string' ? raw.trim() : String(raw);
  if (text.length > CLAIM_TEXT_MAX) return { ok: false, error: 'TOO_LONG' };
  switch (type) {
    case 'NUMBER': {
      if (typeof raw === 'number')
        return Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, error: 'NOT_A_NUMBER' };
      if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) return { ok: false, error: 'NOT_A_NUMBER' };
      const value = Number(text);
      return Number.isFinite(value) ? { ok: true, value } : { ok: false, error: 'NOT_A_NUMBER' };
    }
    case 'BOOLEAN': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const lower = text.toLowerCase();
      if (['true', 'yes', '1'].includes(lower)) return { ok: true, value: true };
      if (['false', 'no', '0'].includes(lower)) return { ok: true, value: false };
      return { ok: false, error: 'NOT_A_BOOLEAN' };
    }
    case 'URL': {
      try {
        const url = new URL(text);
        return url.protocol === 'https:' || url.protocol === 'http:'
          ? { ok: true, value: url.href }
          : { ok: false, error: 'NOT_A_URL' };
      } catch {
        return { ok: false, error: 'NOT_A_URL' };
      }
    }
    case 'EMAIL':
      return EMAIL.test(text) ? { ok: true, value: text } : { ok: false, error: 'NOT_AN_EMAIL' };
    case 'DATETIME': {
      if (DATE_ONLY.test(text)) {
        const date = new Date(`${text}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text)
          ? { ok: true, value: text }
          : { ok: false, error: 'NOT_A_DATE' };
      }
      // Only ISO 8601 date-times: locale formats like 05/01/2024 are ambiguous.
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(text)) {
        return { ok: false, error: 'NOT_A_DATE' };
      }
      const date = new Date(text);
      return Number.isNaN(date.getTime())
        ? { ok: false, error: 'NOT_A_DATE' }
        : { ok: true, value: date.toISOString() };
    }
    case 'TEXT':
      return { ok: true, value: text };
  }
}

export interface AttributeDefinition {
  name: string;
  type: AttributeType;
  required?: boolean;
}

/** Types every claim of a schema; answers the typed claims or every problem, per attribute. */
export function buildClaims(
  attributes: readonly AttributeDefinition[],
  input: Record<string, unknown>,
):
  | { ok: true; claims: Record<string, ClaimValue> }
  | { ok: false; errors: { name: string; error: ClaimTypingError }[] } {
  const claims: Record<string, ClaimValue> = {};
  const errors: { name: string; error: ClaimTypingError }[] = [];
  for (const attribute of attributes) {
    const result = typeClaimValue(attribute.type, input[attribute.name]);
    if (result.ok) claims[attribute.name] = result.value;
    else if (result.error !== 'REQUIRED' || attribute.required !== false)
      errors.push({ name: attribute.name, error: result.error });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, claims };
}

/**
 * Compares a disclosed claim with a rule value by the attribute's type (verification rules): numbers
 * numerically, dates as instants, booleans as booleans, the rest as strings. Answers -1, 0 or 1, or
 * null when either side cannot be read as that type.
 */
export function compareClaim(type: AttributeType, claim: unknown, ruleValue: unknown): -1 | 0 | 1 | null {
  const left = typeClaimValue(type, claim);
  const right = typeClaimValue(type, ruleValue);
  if (!left.ok || !right.ok) return null;
  let a: number | string | boolean = left.value;
  let b: number | string | boolean = right.value;
  if (type === 'DATETIME') {
    a = Date.parse(String(a).length === 10 ? `${a}T00:00:00Z` : String(a));
    b = Date.parse(String(b).length === 10 ? `${b}T00:00:00Z` : String(b));
  } else if (type === 'EMAIL') {
    a = String(a).toLowerCase();
    b = String(b).toLowerCase();
  } else if (type === 'BOOLEAN') {
    a = a ? 1 : 0;
    b = b ? 1 : 0;
  }
  return a === b ? 0 : a < b ? -1 : 1;
}
