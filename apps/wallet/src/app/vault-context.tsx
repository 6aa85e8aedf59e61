import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { LockAfterMinutes, WalletVault } from './core-api.ts';

/** The core (crypto, SD-JWT, X.509) is its own chunk, fetched while the shell renders. */
const openVault = (dbName?: string) => import('./core-api.ts').then((core) => core.openVault(dbName));

/** `new`: first use (onboarding); `locked`: passcode needed; `failed`: the browser cannot store a wallet. */
export type VaultState = 'loading' | 'new' | 'locked' | 'unlocked' | 'failed';

/** How often an open tab looks whether the session expired or another tab locked the wallet. */
export const SESSION_CHECK_MS = 5_000;
/** What the user does that counts as activity (renews the session). */
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

type SessionMessage = { type: 'locked' } | { type: 'unlocked' } | { type: 'lock-after' };

interface VaultContextValue {
  state: VaultState;
  /** The opened vault; set whenever the state is not `loading` or `failed`. */
  vault: WalletVault | null;
  create(passcode: string): Promise<void>;
  unlock(passcode: string): Promise<boolean>;
  /** Locks now, in every tab of this browser. */
  lock(): void;
  /** Deletes everything and starts again at onboarding. */
  reset(): Promise<void>;
  /** Minutes without activity before the wallet locks (0: whenever it is left); null until read. */
  lockAfter: LockAfterMinutes | null;
  setLockAfter(minutes: LockAfterMinutes): Promise<void>;
}

const VaultContext = createContext<VaultContextValue | null>(null);

/** Tabs of the wallet tell each other about locks, unlocks and the lock setting (same-origin only). */
function useSessionChannel(dbName: string | undefined, onMessage: (message: SessionMessage) => void) {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const channel = useRef<BroadcastChannel | null>(null);
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const opened = new BroadcastChannel(`cp-wallet-session:${dbName ?? 'cp-wallet'}`);
    opened.onmessage = (event: MessageEvent<SessionMessage>) => handler.current(event.data);
    channel.current = opened;
    return () => {
      opened.close();
      channel.current = null;
    };
  }, [dbName]);
  return useCallback((message: SessionMessage) => channel.current?.postMessage(message), []);
}

export function VaultProvider({ children, dbName }: { children: ReactNode; dbName?: string }) {
  const [state, setState] = useState<VaultState>('loading');
  const [vault, setVault] = useState<WalletVault | null>(null);
  const [lockAfter, setLockAfterState] = useState<LockAfterMinutes | null>(null);
  const opening = useRef<Promise<WalletVault> | null>(null);

  useEffect(() => {
    // One vault per page, even when StrictMode runs the effect twice.
    opening.current ??= openVault(dbName);
    let active = true;
    opening.current
      .then(async (opened) => {
        const initialized = await opened.isInitialized();
        // A reload, or another tab, within the idle time of the last activity: no passcode.
        const open = initialized && (opened.isUnlocked() || (await opened.resume().catch(() => false)));
        const minutes = await opened.getLockAfter();
        if (!active) return;
        setVault(opened);
        setLockAfterState(minutes);
        setState(!initialized ? 'new' : open ? 'unlocked' : 'locked');
      })
      .catch((error: unknown) => {
        console.error('The wallet could not be opened', error);
        if (active) setState('failed');
      });
    return () => {
      active = false;
    };
  }, [dbName]);

  const post = useSessionChannel(dbName, (message) => {
    if (!vault) return;
    if (message.type === 'locked' && state === 'unlocked') {
      void vault.lock('here');
      setState('locked');
      // A reset in the other tab: onboarding here too.
      void vault.isInitialized().then((initialized) => !initialized && setState('new'));
    } else if (message.type === 'unlocked' && (state === 'locked' || state === 'new')) {
      void vault.resume().then((open) => open && setState('unlocked'));
    } else if (message.type === 'lock-after') {
      void vault.getLockAfter().then(setLockAfterState);
    }
  });

  // While open: input renews the session; a periodic check locks this tab once the idle time has passed or
  // another tab locked; "immediately" locks as soon as the page is hidden (another app, another tab, closing).
  useEffect(() => {
    if (state !== 'unlocked' || !vault) return;
    let active = true;
    const lockHere = (open: boolean) => {
      if (!open && active) setState('locked');
    };
    const activity = () => void vault.recordActivity().then(lockHere);
    const check = () => void vault.checkSession().then(lockHere);
    const visibility = () => {
      if (document.visibilityState === 'visible') return check();
      void vault.getLockAfter().then(async (minutes) => {
        if (minutes !== 0) return;
        await vault.lock();
        lockHere(false);
      });
    };
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, activity, { capture: true, passive: true });
    document.addEventListener('visibilitychange', visibility);
    const timer = window.setInterval(check, SESSION_CHECK_MS);
    return () => {
      active = false;
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, activity, { capture: true });
      document.removeEventListener('visibilitychange', visibility);
      window.clearInterval(timer);
    };
  }, [state, vault]);

  const create = useCallback(
    async (passcode: string) => {
      if (!vault) throw new Error('The vault is not open');
      await vault.create(passcode);
      setState('unlocked');
      post({ type: 'unlocked' });
    },
    [vault, post],
  );

  const unlock = useCallback(
    async (passcode: string) => {
      if (!vault) return false;
      const ok = await vault.unlock(passcode);
      if (ok) {
        setState('unlocked');
        post({ type: 'unlocked' });
      }
      return ok;
    },
    [vault, post],
  );

  const lock = useCallback(() => {
    void vault?.lock();
    setState('locked');
    post({ type: 'locked' });
  }, [vault, post]);

  const setLockAfter = useCallback(
    async (minutes: LockAfterMinutes) => {
      if (!vault) return;
      await vault.setLockAfter(minutes);
      setLockAfterState(minutes);
      post({ type: 'lock-after' });
    },
    [vault, post],
  );

  const reset = useCallback(async () => {
    if (!vault) return;
    await vault.destroy();
    post({ type: 'locked' });
    const fresh = await openVault(dbName);
    opening.current = Promise.resolve(fresh);
    setVault(fresh);
    setLockAfterState(await fresh.getLockAfter());
    setState('new');
  }, [vault, dbName, post]);

  const value = useMemo(
    () => ({ state, vault, create, unlock, lock, reset, lockAfter, setLockAfter }),
    [state, vault, create, unlock, lock, reset, lockAfter, setLockAfter],
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
