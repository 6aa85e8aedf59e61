import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { clearIdentity } from '../../../lib/current-identity.ts';
import { clearTokens, getTokens } from '../../../lib/token-store.ts';

/** POST /api/auth/logout (a failure is ignored), then forgets every stored token and the current identity. */
export async function logout(): Promise<void> {
  const { refreshToken } = getTokens();
  try {
    await api.post<void>('/auth/logout', { refresh_token: refreshToken ?? undefined });
  } catch {
    // Signing out locally must not depend on the server answering.
  }
  clearTokens();
  clearIdentity();
}

export const useLogout = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => queryClient.clear(),
  });
};
