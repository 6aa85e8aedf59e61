import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as core from '../../app/core-api.ts';
import * as protocol from '../../app/protocol-api.ts';
import { buildCredential, FakeVault } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));
vi.mock('../../app/protocol-api.ts', () => import('../../test/core-api-mock.ts'));

describe('onboarding', () => {
  it('asks for a passcode of at least 6 characters twice, then creates the vault', async () => {
    vi.mocked(core.refreshStatuses).mockResolvedValue();
    const vault = new FakeVault();
    const { user } = renderApp('/', vault);

    expect(await screen.findByTestId('wallet-onboarding')).toBeTruthy();
    await user.type(screen.getByTestId('wallet-passcode'), '12345');
    await user.type(screen.getByTestId('wallet-passcode-confirm'), '12345');
    await user.click(screen.getByTestId('wallet-create'));
    expect(screen.getByText('The passcode needs at least 6 characters.')).toBeTruthy();
    expect(vault.passcode).toBeNull();

    await user.clear(screen.getByTestId('wallet-passcode'));
    await user.type(screen.getByTestId('wallet-passcode'), 'secret-1');
    await user.clear(screen.getByTestId('wallet-passcode-confirm'));
    await user.type(screen.getByTestId('wallet-passcode-confirm'), 'secret-2');
    await user.click(screen.getByTestId('wallet-create'));
    expect(screen.getByText('The two passcodes are different.')).toBeTruthy();
    expect(vault.passcode).toBeNull();

    await user.clear(screen.getByTestId('wallet-passcode-confirm'));
    await user.type(screen.getByTestId('wallet-passcode-confirm'), 'secret-1');
    await user.click(screen.getByTestId('wallet-create'));

    expect(await screen.findByRole('heading', { name: 'My credentials' })).toBeTruthy();
    expect(vault.passcode).toBe('secret-1');
    expect(screen.queryByTestId('wallet-onboarding')).toBeNull();
  });
});

describe('unlock', () => {
  it('refuses a wrong passcode, then opens the deep link that was asked for', async () => {
    vi.mocked(protocol.resolveOffer).mockReturnValue(new Promise(() => {}));
    const vault = new FakeVault({ passcode: 'secret-1', credentials: [buildCredential()] });
    const offer = 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.example%2Foffer%2F1';
    const { user, router } = renderApp(`/receive?offer=${encodeURIComponent(offer)}`, vault);

    await user.type(await screen.findByTestId('wallet-passcode'), 'wrong-pass');
    await user.click(screen.getByTestId('wallet-unlock'));
    expect(await screen.findByText('Wrong passcode. Please try again.')).toBeTruthy();
    expect(vault.isUnlocked()).toBe(false);
    expect(protocol.resolveOffer).not.toHaveBeenCalled();

    await user.clear(screen.getByTestId('wallet-passcode'));
    await user.type(screen.getByTestId('wallet-passcode'), 'secret-1');
    await user.click(screen.getByTestId('wallet-unlock'));

    expect(await screen.findByText('Reading the offer…')).toBeTruthy();
    expect(protocol.resolveOffer).toHaveBeenCalledWith(offer, 'en');
    expect(router.state.location.pathname).toBe('/receive');
  });
});
