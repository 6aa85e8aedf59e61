import { z } from 'zod';
import { pageOf, zPageQuery } from './common.ts';
import { zCredentialSchemaAttributeType } from './credential-schemas.ts';

/** SINGLE: the link completes once (single-use). MULTI: every visit is a new attempt (reusable). */
export const verificationTypes = ['SINGLE', 'MULTI'] as const;
export const zVerificationType = z.enum(verificationTypes);
export type VerificationType = z.infer<typeof zVerificationType>;

/** The spec's operators: equal, not, greater than, less than (compared by the attribute's type). */
export const verificationOperators = ['EQUAL', 'NOT', 'BIGGER', 'SMALLER'] as const;
export const zVerificationOperator = z.enum(verificationOperators);
export type VerificationOperator = z.infer<typeof zVerificationOperator>;

/** ACTIVE: accepts presentations. COMPLETED: a single-use link that has been used. */
export const verificationRequestStatuses = ['ACTIVE', 'COMPLETED'] as const;
export const zVerificationRequestStatus = z.enum(verificationRequestStatuses);
export type VerificationRequestStatus = z.infer<typeof zVerificationRequestStatus>;

export const VERIFICATION_NAME_MAX = 120;
export const VERIFICATION_DESCRIPTION_MAX = 1000;
export const VERIFICATION_RULES_MAX = 20;
export const VERIFICATION_TRUSTED_ISSUERS_MAX = 20;
export const VERIFICATION_RULE_VALUE_MAX = 2000;
export const CUSTOMER_ID_MAX = 128;
/** A customer id the holder page generates when none is given: three 4-digit groups joined by dashes. */
export const CUSTOMER_ID_PATTERN = /^[\w.@:+-]{1,128}$/;

/** A trusted issuer: an organization's DID (`did:web:…`, `did:jwk:…`, `did:key:…`) or an issuer URL. */
export const zTrustedIssuer = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((value) => {
    if (/^did:[a-z0-9]+:\S+$/.test(value)) return true;
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'Must be a DID or an https issuer URL');

export const zVerificationRuleInput = z.strictObject({
  attribute_id: z.uuid(),
  operator: zVerificationOperator,
  /** Checked against the attribute's type by the API (422 with the field's message when it does not fit). */
  value: z.string().trim().max(VERIFICATION_RULE_VALUE_MAX),
  /** The attribute's type, as the reference console sends it; the API uses the schema's own type. */
  type: zCredentialSchemaAttributeType.optional(),
});
export type VerificationRuleInput = z.infer<typeof zVerificationRuleInput>;

export const zCreateVerificationRequest = z.strictObject({
  name: z.string().trim().min(1).max(VERIFICATION_NAME_MAX),
  description: z.string().trim().max(VERIFICATION_DESCRIPTION_MAX).optional(),
  schema_id: z.uuid(),
  type: zVerificationType,
  attributes: z.array(zVerificationRuleInput).max(VERIFICATION_RULES_MAX).default([]),
  /** Accept credentials only from these issuers; empty: any issuer whose signature verifies. */
  trusted_issuers: z.array(zTrustedIssuer).max(VERIFICATION_TRUSTED_ISSUERS_MAX).default([]),
  /**
   * The schema attributes the verifier wants to see disclosed, besides those its rules need.
   * Absent: only the rules' attributes (or every attribute when there is no rule).
   */
  requested_attribute_ids: z.array(z.uuid()).max(50).optional(),
});
export type CreateVerificationRequest = z.input<typeof zCreateVerificationRequest>;
export const zUpdateVerificationRequest = zCreateVerificationRequest;
export type UpdateVerificationRequest = CreateVerificationRequest;

export const zVerificationRule = z.object({
  attribute_id: z.uuid(),
  /** The attribute's (claim's) name. */
  name: z.string(),
  operator: zVerificationOperator,
  value: z.string(),
  type: zCredentialSchemaAttributeType,
});
export type VerificationRule = z.infer<typeof zVerificationRule>;

export const zVerification = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  status: zVerificationRequestStatus,
  /** The proof id shown in the console: a short public reference of the verification. */
  present_id: z.string(),
  type: zVerificationType,
  user: z.object({ id: z.uuid(), first_name: z.string(), last_name: z.string() }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  schema: z.object({
    id: z.uuid(),
    /** As stored: platform schemas are stored in English (the console shows them in the user's language). */
    name: z.string(),
    /** The credential schema's slug (as `CredentialSchema.slug`). Optional: absent from older answers. */
    slug: z.string().optional(),
    /** False for the platform's own schemas (as `CredentialSchema.deleteable`). Optional: absent from older answers. */
    deleteable: z.boolean().optional(),
    attributes: z.array(z.object({ id: z.uuid(), name: z.string(), type: zCredentialSchemaAttributeType })),
  }),
  attributes: z.array(zVerificationRule),
  trusted_issuers: z.array(z.string()),
  /** Claim names the verifier asks to see (rules' attributes included). */
  requested_claims: z.array(z.string()),
  requested_attribute_ids: z.array(z.uuid()),
  /** Attempts so far: every individual, those VERIFIED and those FAILED. */
  usage: z.object({ total: z.number().int(), verified: z.number().int(), failed: z.number().int() }),
  /** The holder link to share: `/connect/redirect/{id}` on the console. */
  link: z.string(),
});
export type Verification = z.infer<typeof zVerification>;

export const zVerificationPage = pageOf(zVerification);
export type VerificationPage = z.infer<typeof zVerificationPage>;

export const zVerificationListQuery = zPageQuery.extend({
  type: zVerificationType.optional(),
  'filter.type': zVerificationType.optional(),
});

// ---- Individuals: one holder's attempt ------------------------------------------------------------

/** CREATED: link opened. REQUESTED: a wallet fetched the request. VERIFIED / FAILED: the wallet answered. */
export const individualStatuses = ['CREATED', 'REQUESTED', 'VERIFIED', 'FAILED'] as const;
export const zIndividualStatus = z.enum(individualStatuses);
export type IndividualStatus = z.infer<typeof zIndividualStatus>;

/** Every check the verifier runs on a presentation, recorded with its outcome. */
export const verificationCheckCodes = [
  /** The wallet's answer could be read (encrypted response, vp_token, one SD-JWT VC). */
  'RESPONSE_FORMAT',
  /** The wallet declined or reported an error instead of presenting. */
  'WALLET_ERROR',
  /** A single-use link already completed by another attempt. */
  'SINGLE_USE',
  /** The issuer's signature verifies with a key bound to the issuer (x5c chain, metadata or DID). */
  'ISSUER_SIGNATURE',
  /** The issuer is one of the verification's trusted issuers. */
  'TRUSTED_ISSUER',
  /** The credential type (`vct`) is the one asked for. */
  'CREDENTIAL_TYPE',
  /** Not expired, already valid. */
  'EXPIRY',
  /** Not revoked or suspended in the issuer's status list. */
  'STATUS',
  /** The key-binding JWT is signed by the holder key bound in the credential and covers the disclosures. */
  'KEY_BINDING',
  /** The key-binding JWT carries this request's nonce. */
  'NONCE',
  /** The key-binding JWT is addressed to this verifier. */
  'AUDIENCE',
  /** The key-binding JWT was made just now. */
  'FRESHNESS',
  /** The claims the verifier asked for were disclosed. */
  'CLAIMS_DISCLOSED',
  /** One rule (attribute, operator, value) holds. */
  'RULE',
] as const;
export const zVerificationCheckCode = z.enum(verificationCheckCodes);
export type VerificationCheckCode = z.infer<typeof zVerificationCheckCode>;

export const zVerificationCheck = z.object({
  code: zVerificationCheckCode,
  passed: z.boolean(),
  /** A technical reason, in English, when the check failed. */
  detail: z.string().optional(),
  /** RULE only: the rule and the value presented. */
  rule: z
    .object({
      attribute: z.string(),
      operator: zVerificationOperator,
      value: z.string(),
      presented: z.union([z.string(), z.number(), z.boolean()]).nullable(),
    })
    .optional(),
});
export type VerificationCheck = z.infer<typeof zVerificationCheck>;

export const zVerificationIndividual = z.object({
  id: z.uuid(),
  verification_id: z.uuid(),
  customer_id: z.string(),
  status: zIndividualStatus,
  /** The holder page of this attempt. */
  connection_url: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  verified_at: z.iso.datetime({ offset: true }).nullable(),
  /** The claims the holder disclosed (after the checks); empty before an answer. */
  presented_claims: z.record(z.string(), z.unknown()),
  /** The credential's issuer (`iss`) when one was presented. */
  issuer: z.string().nullable(),
  checks: z.array(zVerificationCheck),
  /** The first failed check's code, as the reference product's `validation_error`. */
  validation_error: z.string().nullable(),
});
export type VerificationIndividual = z.infer<typeof zVerificationIndividual>;

export const zVerificationIndividualPage = pageOf(zVerificationIndividual);
export type VerificationIndividualPage = z.infer<typeof zVerificationIndividualPage>;

export const zCreateVerificationIndividualRequest = z.strictObject({
  verification_id: z.uuid(),
  customer_id: z.string().trim().regex(CUSTOMER_ID_PATTERN).optional(),
});
export type CreateVerificationIndividualRequest = z.infer<typeof zCreateVerificationIndividualRequest>;

/** POST verifications/individuals answer (public): where the holder goes next. */
export const zCreatedVerificationIndividual = z.object({
  id: z.uuid(),
  verification_id: z.uuid(),
  customer_id: z.string(),
  status: zIndividualStatus,
  created_at: z.iso.datetime({ offset: true }),
});
export type CreatedVerificationIndividual = z.infer<typeof zCreatedVerificationIndividual>;

/** GET verifications/{individualId}/connect (public): what the holder page shows. */
export const zVerificationConnect = z.object({
  id: z.uuid(),
  status: zIndividualStatus,
  verification: z.object({ name: z.string(), description: z.string().nullable() }),
  verifier: z.object({ name: z.string(), logo_url: z.string().nullable(), verified: z.boolean() }),
  /** Claims the verifier will see, by name. */
  requested_claims: z.array(z.string()),
  /** `openid4vp://?client_id=…&request_uri=…` while the attempt is open, else null. */
  connection_url: z.string().nullable(),
});
export type VerificationConnect = z.infer<typeof zVerificationConnect>;

/** GET verifications/{individualId}/verify (public): the attempt's outcome, without personal data. */
export const zVerificationOutcome = z.object({
  id: z.uuid(),
  status: zIndividualStatus,
  verified_at: z.iso.datetime({ offset: true }).nullable(),
  /** Codes of the failed checks (empty unless FAILED). */
  failed_checks: z.array(zVerificationCheckCode),
});
export type VerificationOutcome = z.infer<typeof zVerificationOutcome>;
