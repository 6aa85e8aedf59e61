import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../../app/core-api.ts';
import { FakeVault } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';
import { backupFileName, downloadFile } from './download-file.ts';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));
vi.mock('./download-file.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./download-file.ts')>()),
  downloadFile: vi.fn(),
}));

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(core.refreshStatuses).mockResolvedValue();
});

describe('settings', () => {
  it('exports a backup only after the passphrase was typed twice the same', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    const { user } = renderApp('/settings', vault);

    await user.click(await screen.findByTestId('settings-export'));
    await user.type(screen.getByTestId('export-passphrase'), 'long passphrase');
    await user.type(screen.getByTestId('export-passphrase-confirm'), 'long passphrasf');
    await user.click(screen.getByTestId('export-download'));
    expect(screen.getByText('The two passphrases are different.')).toBeTruthy();
    expect(vault.backups).toHaveLength(0);

    await user.clear(screen.getByTestId('export-passphrase-confirm'));
    await user.type(screen.getByTestId('export-passphrase-confirm'), 'long passphrase');
    await user.click(screen.getByTestId('export-download'));

    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vault.backups).toEqual([{ passphrase: 'long passphrase', file: expect.any(String) }]);
    expect(vi.mocked(downloadFile).mock.calls[0]).toEqual([
      expect.stringMatching(/^wallet-backup-\d{4}-\d{2}-\d{2}\.json$/),
      vault.backups[0]?.file,
    ]);
  });

  it('imports a backup after the replace warning; a wrong passphrase says so', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    const importBackup = vi.spyOn(vault, 'importBackup');
    const { user } = renderApp('/settings', vault);

    await user.click(await screen.findByTestId('settings-import'));
    expect(screen.getByText(/Importing replaces every credential/)).toBeTruthy();
    await user.upload(screen.getByTestId('import-file'), new File(['{"backup":1}'], 'wallet-backup.json'));
    await user.type(screen.getByTestId('import-passphrase'), 'nope');
    await user.click(screen.getByTestId('import-confirm'));
    expect(await screen.findByText('Wrong passphrase, or the file is not a wallet backup.')).toBeTruthy();

    await user.clear(screen.getByTestId('import-passphrase'));
    await user.type(screen.getByTestId('import-passphrase'), 'correct horse');
    await user.click(screen.getByTestId('import-confirm'));
    expect(await screen.findByText('The backup was imported.')).toBeTruthy();
    expect(importBackup).toHaveBeenLastCalledWith('{"backup":1}', 'correct horse');
  });

  it('locks the wallet and resets it behind a confirmation', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    const { user } = renderApp('/settings', vault);

    await user.click(await screen.findByTestId('settings-reset'));
    expect(vault.destroyed).toBe(false);
    await user.click(screen.getByTestId('reset-confirm'));
    expect(await screen.findByTestId('wallet-onboarding')).toBeTruthy();
    expect(vault.destroyed).toBe(true);
  });

  it('locks now', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    const { user } = renderApp('/settings', vault);
    await user.click(await screen.findByTestId('settings-lock'));
    expect(await screen.findByTestId('wallet-unlock')).toBeTruthy();
    expect(vault.isUnlocked()).toBe(false);
  });

  it('names the backup file by date', () => {
    expect(backupFileName(new Date(2026, 0, 5))).toBe('wallet-backup-2026-01-05.json');
  });
});
