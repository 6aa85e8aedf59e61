import { describe, expect, it } from 'vitest';
import { ApiError, isNotFound } from './api-error.ts';

const problem = (status: number, code: string, errors?: { path: string; message: string }[]) =>
  new ApiError(status, { type: 'about:blank', title: code, status, code, ...(errors ? { errors } : {}) });

describe('isNotFound', () => {
  it('is true for every 404, whatever its code', () => {
    for (const code of [
      'VERIFICATION_NOT_FOUND',
      'CREDENTIAL_SCHEMA_NOT_FOUND',
      'ORGANIZATION_NOT_FOUND',
      'NOT_FOUND',
    ]) {
      expect(isNotFound(problem(404, code)), code).toBe(true);
    }
    expect(isNotFound(new ApiError(404, null))).toBe(true);
  });

  it('is true for a 400 that refuses only the id in the path (no record can have it)', () => {
    expect(isNotFound(problem(400, 'REQUEST_INVALID', [{ path: 'params.id', message: 'Invalid UUID' }]))).toBe(true);
  });

  it('is false for bad input in the body or the query, and for every other failure', () => {
    expect(isNotFound(problem(400, 'REQUEST_INVALID', [{ path: 'body.name', message: 'Required' }]))).toBe(false);
    expect(
      isNotFound(
        problem(400, 'REQUEST_INVALID', [
          { path: 'params.id', message: 'Invalid UUID' },
          { path: 'query.page', message: 'Too small' },
        ]),
      ),
    ).toBe(false);
    expect(isNotFound(problem(400, 'REQUEST_INVALID'))).toBe(false);
    expect(isNotFound(problem(403, 'ORGANIZATION_ACCESS_DENIED'))).toBe(false);
    expect(isNotFound(problem(500, 'INTERNAL'))).toBe(false);
    expect(isNotFound(new ApiError(0, null, 'Failed to fetch'))).toBe(false);
    expect(isNotFound(new Error('404'))).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });
});
