import { expect } from 'vitest';

/** What an injected or fetched response offers to the assertion below. */
export interface InjectedResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  json: () => unknown;
  body: string;
}

/**
 * Asserts an OAuth-style refusal of a protocol endpoint: the status, `{error, error_description}` as JSON, not
 * cached, readable by a wallet on another origin. Answers the body.
 */
export function expectOAuthError(response: InjectedResponse, status: number, error: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  const body = response.json() as { error: string; error_description: string };
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  return body;
}
