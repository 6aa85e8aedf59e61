import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { organizationsKey, organizationsQuery } from '../../features/organizations/api/find-organizations.ts';
import { clearIdentity, getStoredIdentity, pickCurrentIdentity, storeIdentity } from '../../lib/current-identity.ts';
import { IdentityContext, type IdentityState, type IdentityStatus } from '../../lib/identity-context.ts';
import { useHasSession } from '../../lib/use-session.ts';

/** Loads the organization list once signed in and derives the current organization (spec §3, §4). */
export function IdentityProvider({ children }: { children: ReactNode }) {
  const signedIn = useHasSession();
  const queryClient = useQueryClient();
  const query = useQuery({ ...organizationsQuery(), enabled: signedIn });
  const [storedId, setStoredId] = useState(getStoredIdentity);

  const status: IdentityStatus = !signedIn
    ? 'idle'
    : query.isSuccess
      ? 'succeeded'
      : query.isError
        ? 'failed'
        : 'loading';
  const organizations = useMemo(() => query.data ?? [], [query.data]);
  const current = pickCurrentIdentity(organizations, storedId ?? getStoredIdentity());

  // The header follows the current organization even when the stored one vanished from the list (left, removed);
  // with no organization left, no organization is named at all.
  useEffect(() => {
    if (current && getStoredIdentity() !== current.id) storeIdentity(current.id);
    if (!current && query.isSuccess && getStoredIdentity()) clearIdentity();
  }, [current, query.isSuccess]);

  const selectOrganization = useCallback(
    async (id: string) => {
      storeIdentity(id);
      setStoredId(id);
      // Everything cached belongs to the previous organization.
      await queryClient.invalidateQueries();
    },
    [queryClient],
  );
  const refresh = useCallback(async () => {
    setStoredId(getStoredIdentity());
    await queryClient.invalidateQueries({ queryKey: organizationsKey });
  }, [queryClient]);

  const value = useMemo<IdentityState>(
    () => ({ status, organizations, current, selectOrganization, refresh }),
    [status, organizations, current, selectOrganization, refresh],
  );
  return <IdentityContext.Provider value={value}>{children}</IdentityContext.Provider>;
}
