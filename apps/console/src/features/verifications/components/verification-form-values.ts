import {
  type CreateVerificationRequest,
  type CredentialSchemaAttributeType,
  type TrustPolicy,
  type Verification,
  type VerificationFormat,
  type VerificationOperator,
  type VerificationType,
  type VerifierClientIdScheme,
  zClaimPath,
  zExternalMdocCredentialType,
} from '@cp/contracts';

/** A schema the verification can ask for: the organization's, the platform's (verify-only ones included). */
export interface VerificationSchemaOption {
  id: string;
  name: string;
  isVerifyOnly: boolean;
  attributes: { id: string; name: string; type: CredentialSchemaAttributeType }[];
}

/** What the verification asks for: one of this platform's schemas, or a credential type of another issuer. */
export type CredentialSource = 'SCHEMA' | 'EXTERNAL';

/** A claim of another issuer's credential type as typed: its path is dotted text (`address.country`). */
export interface ExternalClaimValues {
  name: string;
  path: string;
  type: CredentialSchemaAttributeType;
}

export interface VerificationRuleValues {
  /** The schema attribute's id or, for a credential type of another issuer, the claim's name. */
  attribute: string;
  operator: VerificationOperator;
  value: string;
}

export interface VerificationFormValues {
  name: string;
  description: string;
  source: CredentialSource;
  schema_id: string;
  /** The format asked for: an SD-JWT VC, or an ISO mdoc (a schema's mdoc, or another issuer's doctype). */
  format: VerificationFormat;
  /** SOURCE EXTERNAL, SD-JWT VC: the types (`vct`) accepted. */
  vct_values: { value: string }[];
  /** SOURCE EXTERNAL, mdoc: the doctype asked for. */
  doctype_value: string;
  /** SOURCE EXTERNAL: the claims to ask for (an mdoc's as `namespace.element`). */
  claims: ExternalClaimValues[];
  type: VerificationType;
  rules: VerificationRuleValues[];
  /** The claims the verifier wants to see besides those the rules need: attribute ids, or claim names. */
  requested: string[];
  trust_policy: TrustPolicy;
  trusted_issuers: { value: string }[];
  /** ANY_ISSUER is saved only once the user has said they understand what it proves. */
  any_issuer_confirmed: boolean;
  /** How wallets are told who asks (OpenID4VP client identifier prefix). */
  client_id_scheme: VerifierClientIdScheme;
}

/** One thing a rule or "claims to see" can name: a schema attribute (by id) or an external claim (by name). */
export interface ClaimOption {
  key: string;
  name: string;
  type: CredentialSchemaAttributeType;
}

export const emptyRule = (): VerificationRuleValues => ({ attribute: '', operator: 'EQUAL', value: '' });
export const emptyClaim = (): ExternalClaimValues => ({ name: '', path: '', type: 'TEXT' });

export const emptyVerificationForm = (type: VerificationType = 'MULTI'): VerificationFormValues => ({
  name: '',
  description: '',
  source: 'SCHEMA',
  schema_id: '',
  format: 'dc+sd-jwt',
  vct_values: [{ value: '' }],
  doctype_value: '',
  claims: [emptyClaim()],
  type,
  rules: [],
  requested: [],
  trust_policy: 'PLATFORM_VERIFIED',
  trusted_issuers: [],
  any_issuer_confirmed: false,
  client_id_scheme: 'x509_hash',
});

type ClaimPath = (string | number | null)[];

/**
 * A typed dotted path → a DCQL claims path (OpenID4VP §7): `address.country` → `["address", "country"]`;
 * a whole number selects an array element (`nationalities.0` → `["nationalities", 0]`) and `*` every element
 * (`null`). Null when the text is not a path the API takes.
 */
export function parseClaimPath(text: string): ClaimPath | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const parts = trimmed.split('.').map((part) => part.trim());
  if (parts.some((part) => part === '')) return null;
  const path = parts.map((part) => (part === '*' ? null : /^\d+$/.test(part) ? Number(part) : part));
  return zClaimPath.safeParse(path).success ? path : null;
}

const zMdocPath = zExternalMdocCredentialType.shape.claims.element.shape.path;

/**
 * An mdoc element as typed, `namespace.element` (namespaces have dots, element identifiers do not:
 * `org.iso.18013.5.1.family_name` → `["org.iso.18013.5.1", "family_name"]`). Null when it is not one.
 */
export function parseMdocClaimPath(text: string): [string, string] | null {
  const trimmed = text.trim();
  const dot = trimmed.lastIndexOf('.');
  if (dot <= 0) return null;
  const path: [string, string] = [trimmed.slice(0, dot), trimmed.slice(dot + 1)];
  return zMdocPath.safeParse(path).success ? path : null;
}

/** The API's claims path back as the dotted text the form shows. */
export const formatClaimPath = (path: ClaimPath): string =>
  path.map((part) => (part === null ? '*' : String(part))).join('.');

/** A date input holds a calendar date: a stored date-time shows as its date. */
const ruleValueForInput = (type: CredentialSchemaAttributeType, value: string) =>
  type === 'DATETIME' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value;

export function verificationFormValues(verification: Verification): VerificationFormValues {
  const external = verification.schema === null ? verification.credential : null;
  const common = {
    name: verification.name,
    description: verification.description ?? '',
    type: verification.type,
    trust_policy: verification.trust_policy,
    trusted_issuers: verification.trusted_issuers.map((value) => ({ value })),
    // Saved before with ANY_ISSUER: the user confirmed it then (the warning stays on screen).
    any_issuer_confirmed: verification.trust_policy === 'ANY_ISSUER',
    client_id_scheme: verification.client_id_scheme,
  };
  if (external) {
    const names = new Set(external.claims.map((claim) => claim.name));
    return {
      ...common,
      source: 'EXTERNAL',
      schema_id: '',
      format: external.format,
      vct_values: (external.format === 'mso_mdoc' ? [''] : external.vct_values).map((value) => ({ value })),
      doctype_value: external.format === 'mso_mdoc' ? external.doctype_value : '',
      claims: external.claims.map((claim) => ({
        name: claim.name,
        path: formatClaimPath(claim.path),
        type: claim.type,
      })),
      rules: verification.attributes.map((rule) => ({
        attribute: rule.name,
        operator: rule.operator,
        value: ruleValueForInput(rule.type, rule.value),
      })),
      requested: verification.requested_claims.filter((name) => names.has(name)),
    };
  }
  return {
    ...common,
    source: 'SCHEMA',
    schema_id: verification.schema?.id ?? '',
    format: verification.format ?? 'dc+sd-jwt',
    vct_values: [{ value: '' }],
    doctype_value: '',
    claims: [emptyClaim()],
    rules: verification.attributes.map((rule) => ({
      attribute: rule.attribute_id ?? '',
      operator: rule.operator,
      value: ruleValueForInput(rule.type, rule.value),
    })),
    requested: verification.requested_attribute_ids,
  };
}

/** What rules and "claims to see" can name: the schema's attributes, or the external type's named claims. */
export function claimOptions(
  values: Pick<VerificationFormValues, 'source' | 'claims'>,
  schema?: VerificationSchemaOption,
) {
  if (values.source === 'SCHEMA') {
    return (schema?.attributes ?? []).map((attribute): ClaimOption => ({ key: attribute.id, ...attribute }));
  }
  const seen = new Set<string>();
  return values.claims.flatMap((claim): ClaimOption[] => {
    const name = claim.name.trim();
    if (!name || seen.has(name)) return [];
    seen.add(name);
    return [{ key: name, name, type: claim.type }];
  });
}

/** The claims the verifier will see: those it ticked and those its rules need, in the schema's (type's) order. */
export function requestedKeys(values: Pick<VerificationFormValues, 'requested' | 'rules'>, options: ClaimOption[]) {
  const wanted = new Set([...values.requested, ...values.rules.map((rule) => rule.attribute)]);
  return options.filter((option) => wanted.has(option.key)).map((option) => option.key);
}

/** The request POST and PUT take: trimmed; rules in the form's order (a 422 path `attributes.N` is row N). */
export function toVerificationRequest(
  values: VerificationFormValues,
  schema: VerificationSchemaOption | undefined,
): CreateVerificationRequest {
  const description = values.description.trim();
  const options = claimOptions(values, schema);
  const types = new Map(options.map((option) => [option.key, option.type]));
  const rules = values.rules.map((rule) => {
    const type = types.get(rule.attribute);
    return { key: rule.attribute, operator: rule.operator, value: rule.value.trim(), ...(type ? { type } : {}) };
  });
  const common = {
    name: values.name.trim(),
    ...(description ? { description } : {}),
    type: values.type,
    trust_policy: values.trust_policy,
    // Only NAMED_ISSUERS reads the list: another policy saves none, so it never comes back by surprise.
    trusted_issuers:
      values.trust_policy === 'NAMED_ISSUERS' ? values.trusted_issuers.map((issuer) => issuer.value.trim()) : [],
    client_id_scheme: values.client_id_scheme,
  };
  if (values.source === 'EXTERNAL') {
    return {
      ...common,
      credential:
        values.format === 'mso_mdoc'
          ? {
              format: 'mso_mdoc',
              doctype_value: values.doctype_value.trim(),
              claims: values.claims.map((claim) => ({
                name: claim.name.trim(),
                path: parseMdocClaimPath(claim.path) ?? ['', ''],
                type: claim.type,
              })),
            }
          : {
              format: 'dc+sd-jwt',
              vct_values: values.vct_values.map((vct) => vct.value.trim()),
              claims: values.claims.map((claim) => ({
                name: claim.name.trim(),
                path: parseClaimPath(claim.path) ?? [],
                type: claim.type,
              })),
            },
      attributes: rules.map(({ key, ...rest }) => ({ claim: key, ...rest })),
      requested_claims: requestedKeys(values, options),
    };
  }
  return {
    ...common,
    schema_id: values.schema_id,
    // The default (an SD-JWT VC) goes unsaid, as before formats existed.
    ...(values.format === 'mso_mdoc' ? { format: values.format } : {}),
    attributes: rules.map(({ key, ...rest }) => ({ attribute_id: key, ...rest })),
    requested_attribute_ids: requestedKeys(values, options),
  };
}

type FieldPath =
  | 'name'
  | 'description'
  | 'schema_id'
  | 'type'
  | 'requested'
  | 'trust_policy'
  | 'client_id_scheme'
  | 'doctype_value'
  | `rules.${number}.${'attribute' | 'operator' | 'value'}`
  | `trusted_issuers.${number}.value`
  | `vct_values.${number}.value`
  | `claims.${number}.${'name' | 'path' | 'type'}`;

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
    case 'trust_policy':
    case 'client_id_scheme':
      return head;
    case 'requested_attribute_ids':
    case 'requested_claims':
      return 'requested';
    case 'attributes':
      if (position === null) return null;
      if (field === 'operator') return `rules.${position}.operator`;
      // The rule's type is the attribute's: a wrong type is a wrong attribute.
      if (field === 'attribute_id' || field === 'claim' || field === 'type') return `rules.${position}.attribute`;
      return `rules.${position}.value`;
    case 'trusted_issuers':
      // "Name at least one trusted issuer" names the list: it shows with the trust policy.
      return position === null ? 'trust_policy' : `trusted_issuers.${position}.value`;
    case 'credential': {
      // credential.vct_values.N, credential.doctype_value, credential.claims.N.(name|path|type)
      const [, list, at, claimField] = parts;
      const item = at !== undefined && /^\d+$/.test(at) ? Number(at) : null;
      if (list === 'vct_values') return item === null ? null : `vct_values.${item}.value`;
      if (list === 'doctype_value') return 'doctype_value';
      if (list === 'claims' && item !== null) {
        return claimField === 'path' || claimField === 'type' ? `claims.${item}.${claimField}` : `claims.${item}.name`;
      }
      return null;
    }
    default:
      return null;
  }
}
