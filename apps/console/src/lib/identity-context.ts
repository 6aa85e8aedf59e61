import type { Organization } from '@cp/contracts';
import { createContext, useContext } from 'react';

/** Identity list status of spec §3/§4. */
export type IdentityStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface IdentityState {
  status: IdentityStatus;
  organizations: Organization[];
  current: Organization | null;
  /** Stores the choice, reloads the list; the caller navigates. */
  selectOrganization: (id: string) => Promise<void>;
  refresh: () => Promise<void>;
}

export const IdentityContext = createContext<IdentityState | null>(null);

export function useIdentity(): IdentityState {
  const value = useContext(IdentityContext);
  if (!value) throw new Error('useIdentity must be used inside IdentityProvider');
  return value;
}
