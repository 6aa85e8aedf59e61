import type { Problem } from '@cp/contracts';

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

  /** Whether the API answered this error code (problem+json `code`): `error.is('TRUST_ANCHOR_DUPLICATE')`. */
  is(code: string): boolean {
    return this.problem?.code === code;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
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
