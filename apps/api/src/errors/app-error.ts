/** Every error code the API answers, with its HTTP status. Codes are UPPER_SNAKE with a domain prefix. */
export const errorStatus = {
  REQUEST_INVALID: 400,
  REQUEST_BODY_TOO_LARGE: 413,
  REQUEST_UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  NOT_FOUND: 404,
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
  CONFLICT: 409,
  CREDENTIAL_NOT_FOUND: 404,
  CREDENTIAL_CLAIMS_INVALID: 400,
  CREDENTIAL_SCHEMA_ISSUE_DISABLED: 409,
  CREDENTIAL_STATUS_LIST_FULL: 409,
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
  ORGANIZATION_NOT_VERIFIED: 403,
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
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_LIMIT_REACHED: 409,
  WEBHOOK_DISABLED: 409,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: FieldError[] | undefined;

  constructor(code: ErrorCode, options: { detail?: string; cause?: unknown; errors?: FieldError[] } = {}) {
    super(options.detail ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    this.detail = options.detail;
    this.errors = options.errors;
  }
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** RFC 9457 problem details body. */
export function problemBody(status: number, code: string, detail?: string, errors?: FieldError[]) {
  return {
    type: `https://errors.credential-platform.dev/${code.toLowerCase().replaceAll('_', '-')}`,
    title: titles[status] ?? 'Error',
    status,
    code,
    ...(detail ? { detail } : {}),
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}
