import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { WalletVault } from './core-api.ts';

/** The core (crypto, SD-JWT, X.509) is its own chunk, fetched while the shell renders. */
const openVault = (dbName?: string) => import('./core-api.ts').then((core) => core.openVault(dbName));

/** `new`: first use (onboarding); `locked`: passcode needed; `failed`: the browser cannot store a wallet. */
export type VaultState = 'loading' | 'new' | 'locked' | 'unlocked' | 'failed';

interface VaultContextValue {
  state: VaultState;
  /** The opened vault; set whenever the state is not `loading` or `failed`. */
  vault: WalletVault | null;
  create(passcode: string): Promise<void>;
  unlock(passcode: string): Promise<boolean>;
  lock(): void;
  /** Deletes everything and starts again at onboarding. */
  reset(): Promise<void>;
}

const VaultContext = createContext<VaultContextValue | null>(null);

export function VaultProvider({ children, dbName }: { children: ReactNode; dbName?: string }) {
  const [state, setState] = useState<VaultState>('loading');
  const [vault, setVault] = useState<WalletVault | null>(null);
  const opening = useRef<Promise<WalletVault> | null>(null);

  useEffect(() => {
    // One vault per page, even when StrictMode runs the effect twice.
    opening.current ??= openVault(dbName);
    let active = true;
    opening.current
      .then(async (opened) => {
        const initialized = await opened.isInitialized();
        if (!active) return;
        setVault(opened);
        setState(!initialized ? 'new' : opened.isUnlocked() ? 'unlocked' : 'locked');
      })
      .catch((error: unknown) => {
        console.error('The wallet could not be opened', error);
        if (active) setState('failed');
      });
    return () => {
      active = false;
    };
  }, [dbName]);

  const create = useCallback(
    async (passcode: string) => {
      if (!vault) throw new Error('The vault is not open');
      await vault.create(passcode);
      setState('unlocked');
    },
    [vault],
  );

  const unlock = useCallback(
    async (passcode: string) => {
      if (!vault) return false;
      const ok = await vault.unlock(passcode);
      if (ok) setState('unlocked');
      return ok;
    },
    [vault],
  );

  const lock = useCallback(() => {
    vault?.lock();
    setState('locked');
  }, [vault]);

  const reset = useCallback(async () => {
    if (!vault) return;
    await vault.destroy();
    const fresh = await openVault(dbName);
    opening.current = Promise.resolve(fresh);
    setVault(fresh);
    setState('new');
  }, [vault, dbName]);

  const value = useMemo(
    () => ({ state, vault, create, unlock, lock, reset }),
    [state, vault, create, unlock, lock, reset],
  );
  return <VaultContext.Provider value={value}>{children}</VaultContext.Provider>;
}

export function useVaultState(): VaultContextValue {
  const context = useContext(VaultContext);
  if (!context) throw new Error('useVaultState must be used inside <VaultProvider>');
  return context;
}

/** The unlocked vault: screens under the gate only render once it is open. */
export function useVault(): WalletVault {
  const { vault } = useVaultState();
  if (!vault) throw new Error('The vault is not open');
  return vault;
}
