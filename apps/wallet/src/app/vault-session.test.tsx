import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { buildCredential, FakeVault } from '../test/fake-vault.ts';
import { renderApp } from '../test/render-app.tsx';
import * as core from './core-api.ts';
import { SESSION_CHECK_MS } from './vault-context.tsx';

vi.mock('./core-api.ts', () => import('../test/core-api-mock.ts'));

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(core.refreshStatuses).mockResolvedValue();
});
afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});

const credentialsHeading = () => screen.findByRole('heading', { name: 'My credentials' });

describe('staying unlocked between page loads', () => {
  it('opens without the passcode when a reload or another tab finds a live session', async () => {
    const vault = new FakeVault({ passcode: 'secret-1', session: true, credentials: [buildCredential()] });
    renderApp('/', vault);
    expect(await credentialsHeading()).toBeTruthy();
    expect(screen.queryByTestId('wallet-unlock-screen')).toBeNull();
    expect(vault.isUnlocked()).toBe(true);
  });

  it('asks for the passcode when there is no session (expired, locked, or "immediately")', async () => {
    const vault = new FakeVault({ passcode: 'secret-1', session: false });
    renderApp('/', vault);
    expect(await screen.findByTestId('wallet-unlock-screen')).toBeTruthy();
  });

  it('locks now from the top bar, on any page, and asks for the passcode again', async () => {
    const vault = new FakeVault({ passcode: 'secret-1', session: true });
    const { user } = renderApp('/history', vault);
    await user.click(await screen.findByTestId('lock-now'));
    expect(await screen.findByTestId('wallet-unlock-screen')).toBeTruthy();
    expect(vault.isUnlocked()).toBe(false);
    expect(vault.session).toBe(false);
  });

  it('locks an open page once the session has expired or another tab locked', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const vault = new FakeVault({ passcode: 'secret-1', session: true });
    renderApp('/', vault);
    expect(await credentialsHeading()).toBeTruthy();
    vault.session = false;
    await act(() => vi.advanceTimersByTimeAsync(SESSION_CHECK_MS + 10));
    expect(await screen.findByTestId('wallet-unlock-screen')).toBeTruthy();
  });

  it('renews the session on activity', async () => {
    const vault = new FakeVault({ passcode: 'secret-1', session: true });
    renderApp('/', vault);
    expect(await credentialsHeading()).toBeTruthy();
    const before = vault.activity;
    fireEvent.keyDown(document.body, { key: 'Tab' });
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(vault.activity).toBeGreaterThan(before));
  });

  it('locks as soon as the page is hidden when set to lock immediately', async () => {
    const vault = new FakeVault({ passcode: 'secret-1', session: true });
    vault.lockAfter = 0;
    renderApp('/', vault);
    expect(await credentialsHeading()).toBeTruthy();
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    // The lock follows asynchronously: an async act lets it land inside the act scope.
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await screen.findByTestId('wallet-unlock-screen')).toBeTruthy();
  });

  it('follows a lock from another tab of the wallet at once', async () => {
    const vault = new FakeVault({ passcode: 'secret-1', session: true });
    renderApp('/', vault);
    expect(await credentialsHeading()).toBeTruthy();
    const otherTab = new BroadcastChannel('cp-wallet-session:cp-wallet');
    try {
      otherTab.postMessage({ type: 'locked' });
      expect(await screen.findByTestId('wallet-unlock-screen')).toBeTruthy();
    } finally {
      otherTab.close();
    }
  });
});

describe('the lock setting', () => {
  it('offers immediately, 1, 5 and 15 minutes (5 by default) and stores the choice', async () => {
    const vault = new FakeVault({ passcode: 'secret-1', session: true });
    const { user } = renderApp('/settings', vault);
    const select = (await screen.findByRole('combobox', { name: 'Lock automatically' })) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('5'));
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Immediately (the passcode on every visit)',
      'After 1 minute',
      'After 5 minutes',
      'After 15 minutes',
    ]);
    await user.selectOptions(select, '0');
    await waitFor(() => expect(vault.lockAfter).toBe(0));
    expect(vault.session).toBe(false);
    expect(vault.isUnlocked()).toBe(true);
    await user.selectOptions(select, '15');
    await waitFor(() => expect(vault.lockAfter).toBe(15));
    expect(vault.session).toBe(true);
  });

  it('speaks Japanese', async () => {
    await changeLanguage('ja');
    try {
      const vault = new FakeVault({ passcode: 'secret-1', session: true });
      renderApp('/settings', vault);
      const select = (await screen.findByRole('combobox', { name: '自動ロック' })) as HTMLSelectElement;
      await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe('5分後'));
    } finally {
      await changeLanguage('en');
    }
  });
});
