import { z } from 'zod';
import { pageOf, zPageQuery, zTimeZone } from './common.ts';
import { zCredentialSchemaAttributeType } from './credential-schemas.ts';
import { zClaimLabel, zHolderOrganization } from './holder-display.ts';

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

/**
 * Which issuers a verification admits (the issuer's key must always be bound to it: x5c path to a trust
 * anchor naming the issuer, the issuer's own DID, or its JWT VC Issuer Metadata):
 * - PLATFORM_VERIFIED: organizations of this platform that passed KYB (the default);
 * - NAMED_ISSUERS: the issuers listed in `trusted_issuers` (issuer URLs or DIDs);
 * - TRUST_ANCHORS: issuers certified by the organization's trust anchors (or the platform-wide list);
 * - ANY_ISSUER: any issuer at all: the credential proves only that whoever is named in it signed it.
 */
export const trustPolicies = ['PLATFORM_VERIFIED', 'NAMED_ISSUERS', 'TRUST_ANCHORS', 'ANY_ISSUER'] as const;
export const zTrustPolicy = z.enum(trustPolicies);
export type TrustPolicy = z.infer<typeof zTrustPolicy>;

/**
 * How the verifier names itself to wallets (OpenID4VP 1.0 §5.9.3), the request object signed by the organization's
 * key either way:
 * - x509_hash (the default): the hash of the organization's own certificate;
 * - x509_san_dns: the host of the platform's public URL, with a certificate that names it (dNSName) and the
 *   organization (URI), for wallets that accept only DNS-named verifiers; the response goes to that host.
 */
export const verifierClientIdSchemes = ['x509_hash', 'x509_san_dns'] as const;
export const zVerifierClientIdScheme = z.enum(verifierClientIdSchemes);
export type VerifierClientIdScheme = z.infer<typeof zVerifierClientIdScheme>;

export const EXTERNAL_CLAIMS_MAX = 50;
export const EXTERNAL_VCT_VALUES_MAX = 10;
/** A claim name as rules and the history show it. */
export const zExternalClaimName = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}_][\p{L}\p{N}_ .:-]{0,63}$/u, 'Letters, digits, spaces, _ . : - (at most 64)');
/** A DCQL claims path (OpenID4VP §7): claim names, array indexes, null for every element. */
export const zClaimPath = z
  .array(z.union([z.string().min(1).max(100), z.number().int().min(0).max(10_000), z.null()]))
  .min(1)
  .max(8)
  .refine((path) => typeof path[0] === 'string', 'A path starts with a claim name');

/** A credential type of another issuer: an SD-JWT VC `vct`, and the claims to ask for. */
export const zExternalCredentialType = z.strictObject({
  format: z.literal('dc+sd-jwt'),
  vct_values: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(500)
        .regex(/^[a-z][a-z0-9+.-]*:\S+$/i, 'Must be a URI (https://… or urn:…)'),
    )
    .min(1)
    .max(EXTERNAL_VCT_VALUES_MAX),
  claims: z
    .array(z.strictObject({ name: zExternalClaimName, path: zClaimPath, type: zCredentialSchemaAttributeType }))
    .min(1)
    .max(EXTERNAL_CLAIMS_MAX)
    .refine((claims) => new Set(claims.map((c) => c.name)).size === claims.length, 'Claim names must be unique'),
});
export type ExternalCredentialType = z.infer<typeof zExternalCredentialType>;

/**
 * The credential format a verification asks the wallet for (OpenID4VP 1.0 Appendix B): an SD-JWT VC
 * (`dc+sd-jwt`, the default) or an ISO mdoc (`mso_mdoc`, ISO/IEC 18013-5). An organization's schema as an
 * mdoc has the doctype and namespace derived from its `vct` (the issuer metadata's `<slug>_mdoc`).
 */
export const verificationFormats = ['dc+sd-jwt', 'mso_mdoc'] as const;
export const zVerificationFormat = z.enum(verificationFormats);
export type VerificationFormat = z.infer<typeof zVerificationFormat>;

/** An mdoc element: `[namespace, data element identifier]` (OpenID4VP 1.0 B.2.4, DCQL claims path). */
const zMdocName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces');

/** A credential type of another issuer as an ISO mdoc: its doctype, and the elements to ask for. */
export const zExternalMdocCredentialType = z.strictObject({
  format: z.literal('mso_mdoc'),
  /** DCQL `meta.doctype_value` (e.g. `org.iso.18013.5.1.mDL`). */
  doctype_value: zMdocName,
  claims: z
    .array(
      z.strictObject({
        name: zExternalClaimName,
        path: z.tuple([zMdocName, zMdocName]),
        type: zCredentialSchemaAttributeType,
      }),
    )
    .min(1)
    .max(EXTERNAL_CLAIMS_MAX)
    .refine((claims) => new Set(claims.map((c) => c.name)).size === claims.length, 'Claim names must be unique'),
});
export type ExternalMdocCredentialType = z.infer<typeof zExternalMdocCredentialType>;

/** Another issuer's credential type, by format: an SD-JWT VC `vct` or an mdoc doctype. */
export const zExternalCredential = z.discriminatedUnion('format', [
  zExternalCredentialType,
  zExternalMdocCredentialType,
]);
export type ExternalCredential = z.infer<typeof zExternalCredential>;

export const zVerificationRuleInput = z
  .strictObject({
    /** A schema attribute (verifications of a schema). */
    attribute_id: z.uuid().optional(),
    /** A claim of the external credential type, by name (verifications of another issuer's type). */
    claim: zExternalClaimName.optional(),
    operator: zVerificationOperator,
    /** Checked against the attribute's type by the API (422 with the field's message when it does not fit). */
    value: z.string().trim().max(VERIFICATION_RULE_VALUE_MAX),
    /** The attribute's type, as the reference console sends it; the API uses the schema's own type. */
    type: zCredentialSchemaAttributeType.optional(),
  })
  .refine((rule) => (rule.attribute_id === undefined) !== (rule.claim === undefined), {
    message: 'Name either attribute_id (a schema attribute) or claim (a claim of the credential type)',
  });
export type VerificationRuleInput = z.infer<typeof zVerificationRuleInput>;

export const zCreateVerificationRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(VERIFICATION_NAME_MAX),
    description: z.string().trim().max(VERIFICATION_DESCRIPTION_MAX).optional(),
    /** One of this platform's credential schemas (the organization's own or a platform schema)… */
    schema_id: z.uuid().optional(),
    /** …or a credential type of another issuer. */
    credential: zExternalCredential.optional(),
    /**
     * The format asked for (default `dc+sd-jwt`). With `credential`, its `format` decides (this must agree);
     * with `schema_id`, `mso_mdoc` asks for the schema's mdoc.
     */
    format: zVerificationFormat.optional(),
    type: zVerificationType,
    attributes: z.array(zVerificationRuleInput).max(VERIFICATION_RULES_MAX).default([]),
    /** Default: NAMED_ISSUERS when `trusted_issuers` is not empty, else PLATFORM_VERIFIED. */
    trust_policy: zTrustPolicy.optional(),
    /** The issuers NAMED_ISSUERS admits (issuer URLs or DIDs). */
    trusted_issuers: z.array(zTrustedIssuer).max(VERIFICATION_TRUSTED_ISSUERS_MAX).default([]),
    /** How the verifier names itself in requests (default x509_hash). */
    client_id_scheme: zVerifierClientIdScheme.optional(),
    /**
     * The schema attributes the verifier wants to see disclosed, besides those its rules need.
     * Absent: only the rules' attributes (or every attribute when there is no rule).
     */
    requested_attribute_ids: z.array(z.uuid()).max(50).optional(),
    /** The same for an external credential type, by claim name. */
    requested_claims: z.array(zExternalClaimName).max(EXTERNAL_CLAIMS_MAX).optional(),
  })
  .refine((input) => (input.schema_id === undefined) !== (input.credential === undefined), {
    message: 'Name either schema_id or credential',
    path: ['schema_id'],
  })
  .refine((input) => input.trust_policy !== 'NAMED_ISSUERS' || input.trusted_issuers.length > 0, {
    message: 'Name at least one trusted issuer',
    path: ['trusted_issuers'],
  })
  .refine((input) => !input.credential || !input.format || input.format === input.credential.format, {
    message: 'The format must be the credential type’s',
    path: ['format'],
  });
export type CreateVerificationRequest = z.input<typeof zCreateVerificationRequest>;
export const zUpdateVerificationRequest = zCreateVerificationRequest;
export type UpdateVerificationRequest = CreateVerificationRequest;

export const zVerificationRule = z.object({
  /** The schema attribute; null for a claim of an external credential type. */
  attribute_id: z.uuid().nullable(),
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
  /** The schema asked for; null when the verification asks for another issuer's credential type. */
  schema: z
    .object({
      id: z.uuid(),
      /** As stored: platform schemas are stored in English (the console shows them in the user's language). */
      name: z.string(),
      /** The credential schema's slug (as `CredentialSchema.slug`). Optional: absent from older answers. */
      slug: z.string().optional(),
      /** False for the platform's own schemas (as `CredentialSchema.deleteable`). Optional: absent from older answers. */
      deleteable: z.boolean().optional(),
      attributes: z.array(z.object({ id: z.uuid(), name: z.string(), type: zCredentialSchemaAttributeType })),
    })
    .nullable(),
  /** The credential type of another issuer asked for; null for a schema. */
  credential: zExternalCredential.nullable(),
  /** The format asked for: `dc+sd-jwt` or `mso_mdoc`. Optional: absent from older answers. */
  format: zVerificationFormat.optional(),
  attributes: z.array(zVerificationRule),
  trust_policy: zTrustPolicy,
  trusted_issuers: z.array(z.string()),
  /** How the verifier names itself in requests. Defaulted: absent from older answers. */
  client_id_scheme: zVerifierClientIdScheme.default('x509_hash'),
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
  /** The wallet's answer could be read (encrypted response, vp_token, one SD-JWT VC or one mdoc DeviceResponse). */
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

/**
 * Why a verification's trust policy admitted an issuer (the first four) or refused it. The API answers one of
 * these; `zIssuerTrust.reason` stays a string so that a client meets a reason added later with its `detail`.
 */
export const issuerTrustReasons = [
  'PLATFORM_VERIFIED_ORGANIZATION',
  'NAMED_ISSUER',
  'TRUST_ANCHOR',
  'ANY_ISSUER',
  'NOT_A_PLATFORM_ORGANIZATION',
  'ORGANIZATION_NOT_VERIFIED',
  'NOT_A_NAMED_ISSUER',
  'NO_TRUST_ANCHOR',
  'PLATFORM_ISSUER_NOT_CERTIFIED_BY_PLATFORM',
  'UNKNOWN_PLATFORM_ORGANIZATION',
] as const;
export const zIssuerTrustReason = z.enum(issuerTrustReasons);
export type IssuerTrustReason = z.infer<typeof zIssuerTrustReason>;

export const zIssuerTrust = z.object({
  admitted: z.boolean(),
  /** The rule that decided: one of issuerTrustReasons. */
  reason: z.string(),
  /** "Admitted: …" / "Refused: …", in English. */
  detail: z.string(),
  policy: zTrustPolicy,
  /** Where the issuer's key came from: its certificate chain, its DID document, or its JWT VC Issuer Metadata. */
  key_source: z.enum(['x5c', 'did', 'metadata']),
  certificate: z
    .object({
      subject: z.string(),
      anchor: z
        .object({
          subject: z.string(),
          name: z.string(),
          origin: z.enum(['PLATFORM_CA', 'PLATFORM_LIST', 'ORGANIZATION']),
        })
        .nullable(),
    })
    .nullable(),
  /** The issuer is an organization of this platform. */
  organization: z.object({ id: z.uuid(), name: z.string(), verified: z.boolean() }).nullable(),
});
export type IssuerTrust = z.infer<typeof zIssuerTrust>;

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
  /**
   * Whether the integrator vouched for `customer_id` (an attempt it created with its API key, or a link it
   * signed): only such attempts answer `GET verifications/{id}/individuals/{customer}`. False: a label.
   */
  customer_verified: z.boolean(),
  /** How the issuer's key was established, and why the verification's trust policy admitted or refused it. */
  issuer_trust: zIssuerTrust.nullable(),
  checks: z.array(zVerificationCheck),
  /** The first failed check's code, as the reference product's `validation_error`. */
  validation_error: z.string().nullable(),
});
export type VerificationIndividual = z.infer<typeof zVerificationIndividual>;

export const zVerificationIndividualPage = pageOf(zVerificationIndividual);
export type VerificationIndividualPage = z.infer<typeof zVerificationIndividualPage>;

export const zCreateVerificationIndividualRequest = z
  .strictObject({
    verification_id: z.uuid(),
    customer_id: z.string().trim().regex(CUSTOMER_ID_PATTERN).optional(),
    /** A signed holder link: when it expires (seconds since the epoch)… */
    expires: z.coerce.number().int().positive().max(99_999_999_999).optional(),
    /** …and base64url(HMAC-SHA256(link secret, "<verification_id>.<customer_id>.<expires>")). */
    signature: z
      .string()
      .regex(/^[\w-]{20,100}$/)
      .optional(),
  })
  .refine(
    (input) => input.signature === undefined || (input.customer_id !== undefined && input.expires !== undefined),
    {
      message: 'A signature comes with customer_id and expires',
      path: ['signature'],
    },
  );
export type CreateVerificationIndividualRequest = z.infer<typeof zCreateVerificationIndividualRequest>;

/** POST verifications/{id}/individuals (API key or member): an attempt for the integrator's own customer. */
export const zCreateOwnVerificationIndividualRequest = z.strictObject({
  /** Absent: one is generated (three 4-digit groups). */
  customer_id: z.string().trim().regex(CUSTOMER_ID_PATTERN).optional(),
});
export type CreateOwnVerificationIndividualRequest = z.infer<typeof zCreateOwnVerificationIndividualRequest>;

/** GET/POST verifications/{id}/link-secret: the secret integrators sign holder links with. */
export const zVerificationLinkSecret = z.object({ secret: z.string() });
export type VerificationLinkSecret = z.infer<typeof zVerificationLinkSecret>;

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
  verifier: zHolderOrganization,
  /** Claims the verifier will see, by name. */
  requested_claims: z.array(z.string()),
  /** The same claims with their labels in each language, in the same order. */
  requested_claim_labels: z.array(zClaimLabel),
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

/**
 * `GET verifications/{id}/individuals/export`: every attempt at the verification as CSV (UTF-8 with a byte
 * order mark), newest first, times ISO 8601 in `timezone` (IANA, default UTC).
 */
export const zVerificationHistoryExportQuery = z.object({
  t: z.string().max(32).optional(),
  timezone: zTimeZone.default('UTC'),
});
export type VerificationHistoryExportQuery = z.infer<typeof zVerificationHistoryExportQuery>;

/**
 * The fixed columns of the verification history export; one `claim:<name>` column follows for each claim the
 * verification asked for (empty where the attempt kept no value).
 */
export const VERIFICATION_HISTORY_EXPORT_COLUMNS = [
  'attempt_id',
  'customer_id',
  /** API or SIGNED_LINK: the integrator vouched for the customer id; LABEL or GENERATED: a label only. */
  'customer_id_source',
  'customer_id_vouched',
  'status',
  'created_at',
  'verified_at',
  'failed_at',
  'issuer',
  'issuer_admitted',
  'issuer_trust_reason',
  'issuer_trust_detail',
  /** Codes of the failed checks, space-separated; a failed rule as RULE:<attribute>. */
  'failed_checks',
] as const;
