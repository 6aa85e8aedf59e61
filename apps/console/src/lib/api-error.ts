import { isProblemCode, type Problem, ProblemCode } from '@cp/contracts';

/** A failed call: the HTTP status, the RFC 9457 problem when the server sent one, and the spec §8 message key. */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | null;
  /** i18n key of the error-catalogue message shown to the user (spec §8), set by the call that failed. */
  catalogueKey: string | null;

  constructor(status: number, problem: Problem | null, message?: string) {
    super(message ?? problem?.title ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
    this.catalogueKey = null;
  }

  /** The problem+json `code` when it is one of the shared list (`@cp/contracts`), else null. */
  get code(): ProblemCode | null {
    const code = this.problem?.code;
    return isProblemCode(code) ? code : null;
  }

  /** Whether the API answered this error code: `error.is(ProblemCode.TRUST_ANCHOR_DUPLICATE)`. */
  is(code: ProblemCode): boolean {
    return this.code === code;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Whether a failed load means the record asked for is not there: a 404 (`VERIFICATION_NOT_FOUND` and the other
 * `*_NOT_FOUND` codes; another organization's record answers the same), or a 400 that refuses only the id in the
 * path (an address edited by hand: no record can have that id). Such a failure will not pass on a retry: the page
 * says the thing does not exist and leads back to its list instead of offering "Try again".
 */
export function isNotFound(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.status === 404) return true;
  const fields = error.problem?.errors ?? [];
  return (
    error.status === 400 &&
    error.is(ProblemCode.REQUEST_INVALID) &&
    fields.length > 0 &&
    fields.every((field) => field.path.startsWith('params.'))
  );
}

/** Tags a failure with its error-catalogue key so the UI can show the localized message. */
export async function withCatalogue<T>(key: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const apiError = isApiError(error)
      ? error
      : new ApiError(0, null, error instanceof Error ? error.message : 'error');
    apiError.catalogueKey = key;
    throw apiError;
  }
}
