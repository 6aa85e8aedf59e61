/**
 * The error vocabulary shared by the API and its clients.
 *
 * `problemStatus` lists every `code` the API puts in an RFC 9457 problem+json body, with its HTTP status;
 * `oauthErrorCodes` every `error` of the OAuth-style bodies (`{error, error_description}`) that the OpenID4VCI
 * issuer and the OpenID4VP verifier answer. The API can only raise listed codes (its `AppError` takes a
 * `ProblemCode`), and the console and the wallet compare against these constants rather than strings
 * (`error.is(ProblemCode.ORGANIZATION_LAST_ADMIN)`).
 */
export const problemStatus = {
  REQUEST_INVALID: 400,
  REQUEST_METHOD_NOT_ALLOWED: 405,
  REQUEST_BODY_TOO_LARGE: 413,
  REQUEST_UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INTERNAL: 500,
  SHUTTING_DOWN: 503,
  MIGRATIONS_PENDING: 503,
  // The database refused or could not answer (mapped from PostgreSQL's SQLSTATE by the API's error handler).
  DATABASE_UNAVAILABLE: 503,
  DATABASE_UNIQUE_VIOLATION: 409,
  DATABASE_REFERENCE_VIOLATION: 409,
  DATABASE_TRANSACTION_CONFLICT: 409,
  DATABASE_CHECK_VIOLATION: 400,
  DATABASE_VALUE_TOO_LONG: 400,
  DATABASE_VALUE_INVALID: 400,
  AUTH_REQUIRED: 401,
  AUTH_TOKEN_INVALID: 401,
  AUTH_REFRESH_TOKEN_INVALID: 401,
  AUTH_SESSION_INVALID: 400,
  AUTH_REDIRECT_NOT_ALLOWED: 400,
  AUTH_LOGOUT_TOKEN_INVALID: 400,
  AUTH_PROVIDER_ERROR: 502,
  AUTH_PROVIDER_UNAVAILABLE: 503,
  USER_NOT_FOUND: 404,
  ORGANIZATION_NOT_FOUND: 404,
  ORGANIZATION_IDENTITY_REQUIRED: 400,
  ORGANIZATION_ACCESS_DENIED: 403,
  ORGANIZATION_TWO_FACTOR_REQUIRED: 403,
  ORGANIZATION_TWO_FACTOR_SESSION_REQUIRED: 409,
  ORGANIZATION_ROLE_FORBIDDEN: 403,
  ORGANIZATION_LAST_ADMIN: 409,
  ORGANIZATION_ALREADY_MEMBER: 409,
  ORGANIZATION_NOT_VERIFIED: 403,
  MEMBER_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  INVITATION_EXPIRED: 410,
  INVITATION_ALREADY_USED: 410,
  INVITATION_REVOKED: 410,
  INVITATION_EMAIL_MISMATCH: 403,
  ADMIN_FORBIDDEN: 403,
  ACCOUNT_USERNAME_TAKEN: 409,
  ACCOUNT_EMAIL_TAKEN: 409,
  ACCOUNT_PASSWORD_WEAK: 400,
  ACCOUNT_INVALID_INPUT: 400,
  ACCOUNT_NOT_FOUND: 404,
  CREDENTIAL_SCHEMA_NOT_FOUND: 404,
  CREDENTIAL_SCHEMA_NOT_DELETEABLE: 409,
  CREDENTIAL_SCHEMA_ISSUE_DISABLED: 409,
  CREDENTIAL_NOT_FOUND: 404,
  CREDENTIAL_CLAIMS_INVALID: 400,
  CREDENTIAL_STATUS_LIST_NOT_FOUND: 404,
  CREDENTIAL_ALREADY_CLAIMED: 409,
  CREDENTIAL_ALREADY_REVOKED: 409,
  CREDENTIAL_RESEND_TOO_SOON: 429,
  CREDENTIAL_IMPORT_NOT_FOUND: 404,
  CREDENTIAL_IMPORT_FILE_REQUIRED: 400,
  CREDENTIAL_IMPORT_INVALID_FILE: 400,
  CREDENTIAL_IMPORT_HEADER_INVALID: 400,
  CREDENTIAL_IMPORT_EMPTY: 400,
  CREDENTIAL_IMPORT_TOO_LARGE: 413,
  CREDENTIAL_IMPORT_TOO_MANY_ROWS: 413,
  MEDIA_NOT_FOUND: 404,
  MEDIA_FILE_REQUIRED: 400,
  MEDIA_TOO_LARGE: 413,
  MEDIA_TOO_MANY_FILES: 413,
  MEDIA_TYPE_NOT_ALLOWED: 415,
  MEDIA_NOT_AN_IMAGE: 400,
  KYB_APPLICATION_NOT_FOUND: 404,
  KYB_DOCUMENT_INVALID: 400,
  KYB_ALREADY_PENDING: 409,
  KYB_ALREADY_APPROVED: 409,
  KYB_APPLICATION_ALREADY_REVIEWED: 409,
  KYB_REVIEW_FORBIDDEN: 403,
  API_KEY_NOT_FOUND: 404,
  VERIFICATION_NOT_FOUND: 404,
  VERIFICATION_RULES_INVALID: 422,
  VERIFICATION_ALREADY_USED: 409,
  VERIFICATION_INDIVIDUAL_NOT_FOUND: 404,
  VERIFICATION_LINK_SIGNATURE_INVALID: 403,
  VERIFICATION_LINK_EXPIRED: 410,
  TRUST_ANCHOR_NOT_FOUND: 404,
  TRUST_ANCHOR_INVALID: 422,
  TRUST_ANCHOR_DUPLICATE: 409,
  TRUST_ANCHOR_LIMIT_REACHED: 409,
  WALLET_PROVIDER_NOT_FOUND: 404,
  WALLET_PROVIDER_INVALID: 422,
  WALLET_PROVIDER_DUPLICATE: 409,
  WALLET_PROVIDER_LIMIT_REACHED: 409,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_LIMIT_REACHED: 409,
  WEBHOOK_DISABLED: 409,
} as const satisfies Record<string, number>;

/** A `code` of a problem+json body the API answers. */
export type ProblemCode = keyof typeof problemStatus;

const asConstants = <K extends string>(keys: readonly K[]) =>
  Object.freeze(Object.fromEntries(keys.map((key) => [key, key]))) as { readonly [P in K]: P };

/** The problem codes by name, to compare against: `error.is(ProblemCode.WEBHOOK_LIMIT_REACHED)`. */
export const ProblemCode = asConstants(Object.keys(problemStatus) as ProblemCode[]);

export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && Object.hasOwn(problemStatus, value);
}

/**
 * The `error` values of the OAuth-style error responses of the protocol endpoints: RFC 6749 §5.2 (token
 * endpoint), RFC 6750 §3.1 (bearer token), OpenID4VCI 1.0 §8.3.1.2 (credential endpoint), and OpenID4VP 1.0
 * §8.5 / RFC 9101 §6.2 (request object by reference, response endpoint).
 */
export const oauthErrorCodes = [
  'invalid_request',
  'invalid_grant',
  'unsupported_grant_type',
  'invalid_token',
  'invalid_proof',
  'invalid_nonce',
  'invalid_credential_request',
  'unknown_credential_configuration',
  'unknown_credential_identifier',
  'unsupported_credential_format',
  'invalid_encryption_parameters',
  'credential_request_denied',
  'invalid_request_uri',
  'invalid_response',
  // RFC 9449 (DPoP) and RFC 6749's client errors, which the @openid4vc/oauth2 parsers answer with.
  'invalid_dpop_proof',
  'use_dpop_nonce',
  'invalid_client',
  'unauthorized_client',
  // OAuth 2.0 Attestation-Based Client Authentication §Errors: the PoP lacks the server's challenge.
  'use_attestation_challenge',
  // The authorization code flow's pushed authorization request (RFC 9126 §2.3, RFC 6749 §4.1.2.1, RFC 9396 §5).
  'invalid_scope',
  'unsupported_response_type',
  'invalid_authorization_details',
] as const;

/** An `error` of an OAuth-style error body the API answers. */
export type OAuthErrorCode = (typeof oauthErrorCodes)[number];

/** The OAuth-style codes by name: `body.error === OAuthErrorCode.invalid_nonce`. */
export const OAuthErrorCode = asConstants(oauthErrorCodes);

export function isOAuthErrorCode(value: unknown): value is OAuthErrorCode {
  return typeof value === 'string' && (oauthErrorCodes as readonly string[]).includes(value);
}
