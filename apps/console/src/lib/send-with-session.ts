import type { Problem } from '@cp/contracts';
import { refreshSession } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { getStoredIdentity } from './current-identity.ts';
import { loadingStore } from './loading.ts';
import { getTokens } from './token-store.ts';

/**
 * A call the JSON client cannot make (multipart bodies, file downloads), with the same session rules:
 * Authorization, CurrentIdentity, the loading indicator and one retry after renewing the session on a 401.
 */
export async function sendWithSession(path: string, init: RequestInit, identity?: string): Promise<Response> {
  const attempt = () => {
    const headers = new Headers(init.headers);
    const { accessToken, tokenType } = getTokens();
    if (accessToken) headers.set('Authorization', `${tokenType} ${accessToken}`);
    const current = identity ?? getStoredIdentity();
    if (current) headers.set('CurrentIdentity', current);
    return fetch(path, { ...init, headers, credentials: 'same-origin' });
  };
  loadingStore.start();
  try {
    let response = await attempt();
    if (response.status === 401 && (await refreshSession())) response = await attempt();
    if (!response.ok) {
      const problem = (await response.json().catch(() => null)) as Problem | null;
      throw new ApiError(response.status, problem && typeof problem === 'object' ? problem : null);
    }
    return response;
  } finally {
    loadingStore.stop();
  }
}
