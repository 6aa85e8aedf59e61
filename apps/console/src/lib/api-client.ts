import type { Problem, TokenResponse } from '@cp/contracts';
import { ProblemCode } from '@cp/contracts';
import { ApiError } from './api-error.ts';
import { clearIdentity, getStoredIdentity } from './current-identity.ts';
import { dropEmpty } from './drop-empty.ts';
import { loadingStore } from './loading.ts';
import { isSigningOut } from './signing-out.ts';
import { clearTokens, getTokens, saveTokens } from './token-store.ts';
import { markTwoFactorRequired } from './two-factor-required.ts';

/** Relative base: the API serves the console from the same origin (spec §7). */
export const API_BASE = '/api';
/** Spec §9: the product's own calls time out after 1,000,000 ms. */
export const REQUEST_TIMEOUT_MS = 1_000_000;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** List filters, sent as `filter.{name}` (spec §7). */
  filters?: Record<string, QueryValue>;
  body?: unknown;
  /**
   * Overrides the CurrentIdentity header (e.g. the organization being edited); `null` sends none (the user's own
   * calls, which must work even when the stored organization is one the user has just left or been removed from).
   */
  identity?: string | null;
}

let sessionExpiredHandler: () => void = () => {};

/** Called when the session cannot be renewed: the app sends the user to /intro. */
export function setSessionExpiredHandler(handler: () => void): void {
  sessionExpiredHandler = handler;
}

export function buildUrl(method: Method, path: string, options: RequestOptions = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  for (const [key, value] of Object.entries(options.filters ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(`filter.${key}`, String(value));
  }
  // Cache-busting timestamp on GET and DELETE (spec §7).
  if (method === 'GET' || method === 'DELETE') params.set('t', String(Date.now()));
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

function buildHeaders(options: RequestOptions, hasBody: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json, application/problem+json' });
  if (hasBody) headers.set('Content-Type', 'application/json');
  const { accessToken, tokenType } = getTokens();
  if (accessToken) headers.set('Authorization', `${tokenType} ${accessToken}`);
  const identity = options.identity === null ? null : (options.identity ?? getStoredIdentity());
  if (identity) headers.set('CurrentIdentity', identity);
  return headers;
}

async function send(method: Method, path: string, options: RequestOptions): Promise<Response> {
  const hasBody = options.body !== undefined;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    return await fetch(buildUrl(method, path, options), {
      method,
      headers: buildHeaders(options, hasBody),
      body: hasBody ? JSON.stringify(dropEmpty(options.body)) : undefined,
      signal: controller.signal,
      credentials: 'same-origin',
    });
  } finally {
    clearTimeout(timer);
  }
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function toError(response: Response): Promise<ApiError> {
  const body = await parseBody(response).catch(() => undefined);
  const problem = body && typeof body === 'object' && 'status' in body ? (body as Problem) : null;
  return new ApiError(response.status, problem);
}

let refreshing: Promise<boolean> | null = null;

/** One refresh shared by every request that got a 401 at the same time. */
export function refreshSession(): Promise<boolean> {
  if (!refreshing) {
    refreshing = (async () => {
      const { refreshToken } = getTokens();
      // Never renew a session this tab is signing out of.
      if (!refreshToken || isSigningOut()) return false;
      try {
        const response = await send('POST', '/auth/refresh', { body: { refresh_token: refreshToken } });
        if (!response.ok) return false;
        const tokens = (await response.json()) as TokenResponse;
        // Signed out (or signed in again) meanwhile: the answer must not bring the old session back.
        if (isSigningOut() || getTokens().refreshToken !== refreshToken) return false;
        saveTokens(tokens);
        return true;
      } catch {
        return false;
      }
    })().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

function endSession(): void {
  // A sign-out in this tab revoked the session: it clears it and navigates itself.
  if (isSigningOut()) return;
  clearTokens();
  clearIdentity();
  sessionExpiredHandler();
}

const isAuthCall = (path: string) => path === '/auth' || path.startsWith('/auth/');

/** Calls the API. Throws ApiError on a non-2xx answer; retries once after renewing the session on a 401. */
export async function apiRequest<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  loadingStore.start();
  try {
    let response = await send(method, path, options);
    if (response.status === 401 && !isAuthCall(path)) {
      const renewed = await refreshSession();
      if (!renewed) {
        endSession();
        throw await toError(response);
      }
      response = await send(method, path, options);
    }
    if (!response.ok) {
      const error = await toError(response);
      // The organization requires two-step sign-in and this session has one step: the shell says so.
      if (error.is(ProblemCode.ORGANIZATION_TWO_FACTOR_REQUIRED)) {
        const identity = options.identity ?? getStoredIdentity();
        if (identity) markTwoFactorRequired(identity);
      }
      throw error;
    }
    return (await parseBody(response)) as T;
  } finally {
    loadingStore.stop();
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
