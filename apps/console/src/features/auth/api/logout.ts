import type { LogoutResponse } from '@cp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api-client.ts';
import { clearIdentity } from '../../../lib/current-identity.ts';
import { beginSignOut, finishSignOut } from '../../../lib/signing-out.ts';
import { clearTokens, getTokens } from '../../../lib/token-store.ts';
import { clearTwoFactorRequired } from '../../../lib/two-factor-required.ts';

/**
 * POST /api/auth/logout (a failure is ignored), then forgets every stored token and the current identity.
 * Answers the identity provider's end-session address, where the browser goes next so that the provider's
 * session ends too (OpenID Connect RP-Initiated Logout); null when there is none.
 */
export async function logout({ leaving = false }: { leaving?: boolean } = {}): Promise<string | null> {
  const { refreshToken } = getTokens();
  let logoutUrl: string | null = null;
  // Requests in flight meet the revoked session from here: their 401 does not navigate (lib/signing-out.ts).
  beginSignOut();
  try {
    const answer = await api.post<LogoutResponse>('/auth/logout', { refresh_token: refreshToken ?? undefined });
    logoutUrl = answer?.logout_url ?? null;
  } catch {
    // Signing out locally must not depend on the server answering.
  } finally {
    // The browser goes to the provider's sign-out next (`leaving`): the page stays as it is until then.
    finishSignOut({ leaving: leaving && logoutUrl !== null && isWebAddress(logoutUrl) });
  }
  clearTokens();
  clearIdentity();
  clearTwoFactorRequired();
  return logoutUrl;
}

/** Only the provider's own addresses (http or https) are followed, never a script URL. */
const isWebAddress = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * Log out: ends the console's session, then the provider's (it returns the browser to /intro), so that "Sign in"
 * asks for the password again. Without an end-session address the console goes to /intro itself.
 */
export const useLogout = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => logout({ leaving: true }),
    onSettled: () => queryClient.clear(),
    onSuccess: (logoutUrl) => {
      if (logoutUrl && isWebAddress(logoutUrl)) window.location.assign(logoutUrl);
      else navigate('/intro', { replace: true });
    },
  });
};
