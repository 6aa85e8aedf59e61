import { useSyncExternalStore } from 'react';
import { hasSession, subscribeTokens } from './token-store.ts';

/** Re-renders when tokens are saved or cleared. */
export function useHasSession(): boolean {
  return useSyncExternalStore(subscribeTokens, hasSession, hasSession);
}
