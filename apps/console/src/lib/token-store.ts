import type { TokenResponse } from '@cp/contracts';

/** Cookie names of the session (spec §7, §9). */
export const ACCESS_TOKEN_COOKIE = 'access_token';
export const REFRESH_TOKEN_COOKIE = 'refresh_token';
export const TOKEN_TYPE_COOKIE = 'token_type';
/** sessionStorage key of the sign-in session handle between POST /api/auth and the provider's return. */
export const AUTH_SESSION_KEY = 'auth_session';

const ACCESS_MAX_AGE = 15 * 60;
const REFRESH_MAX_AGE = 30 * 24 * 60 * 60;

export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
  tokenType: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [rawKey, ...rest] = part.trim().split('=');
    if (rawKey === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function writeCookie(name: string, value: string, maxAge: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari < 18.4; values are encoded here.
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=Strict${secure}`;
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function getTokens(): StoredTokens {
  return {
    accessToken: readCookie(ACCESS_TOKEN_COOKIE),
    refreshToken: readCookie(REFRESH_TOKEN_COOKIE),
    tokenType: readCookie(TOKEN_TYPE_COOKIE) ?? 'Bearer',
  };
}

export function saveTokens(tokens: Pick<TokenResponse, 'access_token' | 'refresh_token' | 'token_type'>): void {
  writeCookie(ACCESS_TOKEN_COOKIE, tokens.access_token, ACCESS_MAX_AGE);
  writeCookie(REFRESH_TOKEN_COOKIE, tokens.refresh_token, REFRESH_MAX_AGE);
  writeCookie(TOKEN_TYPE_COOKIE, tokens.token_type, REFRESH_MAX_AGE);
  notify();
}

export function clearTokens(): void {
  for (const name of [ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE, TOKEN_TYPE_COOKIE]) writeCookie(name, '', 0);
  notify();
}

/** Signed in as far as the browser knows: an access or a refresh token is stored. */
export function hasSession(): boolean {
  const { accessToken, refreshToken } = getTokens();
  return Boolean(accessToken || refreshToken);
}

export function subscribeTokens(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
