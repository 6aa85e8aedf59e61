import type { CompleteAuthRequest, TokenResponse } from '@cp/contracts';
import { api } from '../../../lib/api-client.ts';
import { AUTH_SESSION_KEY, saveTokens } from '../../../lib/token-store.ts';

/** POST /api/auth/session: exchanges the provider's code for the console's tokens and stores them. */
export async function completeAuth(params: Omit<CompleteAuthRequest, 'session'>): Promise<TokenResponse> {
  const session = window.sessionStorage.getItem(AUTH_SESSION_KEY) ?? '';
  const tokens = await api.post<TokenResponse>('/auth/session', { ...params, session });
  window.sessionStorage.removeItem(AUTH_SESSION_KEY);
  saveTokens(tokens);
  return tokens;
}
