import { type ProblemCode, problemStatus } from '@cp/contracts';

/**
 * Every error code the API answers, with its HTTP status: the shared list in `@cp/contracts`, so the console
 * and the wallet compare against the same constants.
 */
export const errorStatus = problemStatus;

export type ErrorCode = ProblemCode;

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
  405: 'Method Not Allowed',
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

/** RFC 9457 problem details body; `status` defaults to the code's own. */
export function problemBody(
  code: ErrorCode,
  detail?: string,
  errors?: FieldError[],
  status: number = errorStatus[code],
) {
  return {
    type: `https://errors.credential-platform.dev/${code.toLowerCase().replaceAll('_', '-')}`,
    title: titles[status] ?? 'Error',
    status,
    code,
    ...(detail ? { detail } : {}),
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}
