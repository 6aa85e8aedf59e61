import type {
  CreateVerificationRequest,
  CredentialSchemaAttributeType,
  Verification,
  VerificationOperator,
  VerificationType,
} from '@cp/contracts';

/** A schema the verification can ask for: the organization's, the platform's (verify-only ones included). */
export interface VerificationSchemaOption {
  id: string;
  name: string;
  isVerifyOnly: boolean;
  attributes: { id: string; name: string; type: CredentialSchemaAttributeType }[];
}

export interface VerificationRuleValues {
  attribute_id: string;
  operator: VerificationOperator;
  value: string;
}

export interface VerificationFormValues {
  name: string;
  description: string;
  schema_id: string;
  type: VerificationType;
  rules: VerificationRuleValues[];
  trusted_issuers: { value: string }[];
  /** The claims the verifier wants to see besides those the rules need. */
  requested_attribute_ids: string[];
}

export const emptyRule = (): VerificationRuleValues => ({ attribute_id: '', operator: 'EQUAL', value: '' });

export const emptyVerificationForm = (type: VerificationType = 'MULTI'): VerificationFormValues => ({
  name: '',
  description: '',
  schema_id: '',
  type,
  rules: [],
  trusted_issuers: [],
  requested_attribute_ids: [],
});

/** A date input holds a calendar date: a stored date-time shows as its date. */
const ruleValueForInput = (type: CredentialSchemaAttributeType, value: string) =>
  type === 'DATETIME' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value;

export function verificationFormValues(verification: Verification): VerificationFormValues {
  return {
    name: verification.name,
    description: verification.description ?? '',
    schema_id: verification.schema.id,
    type: verification.type,
    rules: verification.attributes.map((rule) => ({
      attribute_id: rule.attribute_id,
      operator: rule.operator,
      value: ruleValueForInput(rule.type, rule.value),
    })),
    trusted_issuers: verification.trusted_issuers.map((value) => ({ value })),
    requested_attribute_ids: verification.requested_attribute_ids,
  };
}

/** The attributes the verifier will see: those it ticked and those its rules need, in the schema's order. */
export function requestedAttributeIds(values: VerificationFormValues, schema: VerificationSchemaOption | undefined) {
  const wanted = new Set([...values.requested_attribute_ids, ...values.rules.map((rule) => rule.attribute_id)]);
  return (schema?.attributes ?? []).filter((attribute) => wanted.has(attribute.id)).map((attribute) => attribute.id);
}

/** The request POST and PUT take: trimmed; rules in the form's order (a 422 path `attributes.N` is row N). */
export function toVerificationRequest(
  values: VerificationFormValues,
  schema: VerificationSchemaOption | undefined,
): CreateVerificationRequest {
  const description = values.description.trim();
  const types = new Map((schema?.attributes ?? []).map((attribute) => [attribute.id, attribute.type]));
  return {
    name: values.name.trim(),
    ...(description ? { description } : {}),
    schema_id: values.schema_id,
    type: values.type,
    attributes: values.rules.map((rule) => {
      const type = types.get(rule.attribute_id);
      return {
        attribute_id: rule.attribute_id,
        operator: rule.operator,
        value: rule.value.trim(),
        ...(type ? { type } : {}),
      };
    }),
    trusted_issuers: values.trusted_issuers.map((issuer) => issuer.value.trim()),
    requested_attribute_ids: requestedAttributeIds(values, schema),
  };
}

type FieldPath =
  | 'name'
  | 'description'
  | 'schema_id'
  | 'type'
  | 'requested_attribute_ids'
  | `rules.${number}.${'attribute_id' | 'operator' | 'value'}`
  | `trusted_issuers.${number}.value`;

/**
 * The form field of a problem+json `errors[].path` (`attributes.0.value` → `rules.0.value`), or null when the
 * path names nothing the form shows. Accepts `a.0.b`, `a[0].b` and JSON pointers (`/a/0/b`).
 */
export function formFieldOfPath(path: string): FieldPath | null {
  const parts = path
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^\//, '')
    .split(/[./]/)
    .filter(Boolean);
  if (parts[0] === 'body') parts.shift();
  const [head, index, field] = parts;
  const position = index !== undefined && /^\d+$/.test(index) ? Number(index) : null;
  switch (head) {
    case 'name':
    case 'description':
    case 'schema_id':
    case 'type':
    case 'requested_attribute_ids':
      return head;
    case 'attributes':
      if (position === null) return null;
      if (field === 'attribute_id' || field === 'operator') return `rules.${position}.${field}`;
      // The rule's type is the attribute's: a wrong type is a wrong attribute.
      if (field === 'type') return `rules.${position}.attribute_id`;
      return `rules.${position}.value`;
    case 'trusted_issuers':
      return position === null ? null : `trusted_issuers.${position}.value`;
    default:
      return null;
  }
}
