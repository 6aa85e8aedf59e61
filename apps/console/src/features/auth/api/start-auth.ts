import type { StartAuthResponse } from '@cp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { AUTH_SESSION_KEY } from '../../../lib/token-store.ts';

export const oauthRedirectUrl = (origin: string = window.location.origin) => `${origin}/oauth/socious`;

/**
 * POST /api/auth, then leaves for the identity provider. The session handle waits in sessionStorage. `signup` shows
 * the provider's sign-up form first; `reauthenticate` its sign-in form even when a provider session is open.
 */
export async function startAuth({
  signup = false,
  reauthenticate = false,
}: {
  signup?: boolean;
  reauthenticate?: boolean;
} = {}): Promise<void> {
  const answer = await api.post<StartAuthResponse>('/auth', {
    redirect_url: oauthRedirectUrl(),
    signup,
    ...(reauthenticate ? { reauthenticate } : {}),
  });
  window.sessionStorage.setItem(AUTH_SESSION_KEY, answer.session);
  window.location.assign(answer.auth_url);
}

export const useStartAuth = () => useMutation({ mutationFn: startAuth });
