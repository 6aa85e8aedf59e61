import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../../app/core-api.ts';
import { buildCredential, FakeVault } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));

beforeEach(() => vi.resetAllMocks());

describe('credentials list', () => {
  it('shows a card per credential with its status, refreshed against the status lists on open', async () => {
    const vault = new FakeVault({
      passcode: 'secret-1',
      unlocked: true,
      credentials: [
        buildCredential({ id: 'a', receivedAt: '2026-01-01T00:00:00Z' }),
        buildCredential({
          id: 'b',
          receivedAt: '2026-02-01T00:00:00Z',
          display: { name: { en: 'Diploma' } },
          lastStatus: 'EXPIRED',
        }),
      ],
    });
    vi.mocked(core.refreshStatuses).mockImplementation(async (v) => {
      const a = await v.getCredential('a');
      await v.saveCredential({ ...a!, lastStatus: 'REVOKED' });
    });
    renderApp('/', vault);

    await waitFor(() => expect(screen.getAllByTestId('credential-card')[1]?.dataset.status).toBe('revoked'));
    const cards = screen.getAllByTestId('credential-card');
    expect(cards).toHaveLength(2);
    // Newest first.
    expect(within(cards[0]!).getByText('Diploma')).toBeTruthy();
    expect(cards[0]!.dataset.status).toBe('expired');
    expect(within(cards[0]!).getByText('Expired')).toBeTruthy();
    expect(within(cards[1]!).getByText('Employee badge')).toBeTruthy();
    expect(within(cards[1]!).getByText('Issued by Acme Corp')).toBeTruthy();
    expect(within(cards[1]!).getByText('Revoked')).toBeTruthy();
    expect(core.refreshStatuses).toHaveBeenCalledWith(vault);
  });

  it('still shows the cards when the status check fails', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    vi.mocked(core.refreshStatuses).mockRejectedValue(new TypeError('Failed to fetch'));
    renderApp('/', vault);
    expect(await screen.findByTestId('credential-card')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Checking statuses…')).toBeNull());
  });
});

describe('credential detail', () => {
  it('shows the claims with labels and formatted values, re-checks the status and deletes after confirmation', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    vi.mocked(core.refreshStatuses).mockResolvedValue();
    vi.mocked(core.checkStatus).mockResolvedValue('SUSPENDED');
    const { user, router } = renderApp('/credentials/cred-1', vault);

    const rows = await screen.findAllByTestId('claim-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Given nameAda',
      'Family nameLovelace',
      'Date of birthDecember 10, 1815',
    ]);
    expect(screen.getByText('Verified organization')).toBeTruthy();

    await user.click(screen.getByTestId('credential-recheck'));
    await waitFor(() => expect(screen.getByTestId('credential-detail').dataset.status).toBe('suspended'));
    expect((await vault.getCredential('cred-1'))?.lastStatus).toBe('SUSPENDED');

    await user.click(screen.getByTestId('credential-delete'));
    expect(vault.credentials.has('cred-1')).toBe(true);
    await user.click(await screen.findByTestId('credential-delete-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(vault.credentials.has('cred-1')).toBe(false);
  });
});
