import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../../app/core-api.ts';
import * as protocol from '../../app/protocol-api.ts';
import { WalletError } from '../../test/core-api-mock.ts';
import { buildCredential, buildMdocCredential, FakeVault } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));
vi.mock('../../app/protocol-api.ts', () => import('../../test/core-api-mock.ts'));

const OFFER = 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.example%2Foffer%2F1';
/** As the core resolves it (its session stays opaque to the screens). */
const resolved = {
  credentialIssuer: 'https://issuer.example/orgs/1',
  issuer: { id: 'https://issuer.example/orgs/1', name: { en: 'Acme Corp' }, verifiedOrganization: true },
  configurationId: 'employee',
  display: { name: { en: 'Employee badge' } },
  claimDisplay: [
    { name: 'given_name', label: { en: 'Given name' } },
    { name: 'family_name', label: { en: 'Family name' } },
  ],
  txCode: { length: 6, inputMode: 'numeric' },
} as core.ResolvedOffer as Awaited<ReturnType<typeof protocol.resolveOffer>>;

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(core.refreshStatuses).mockResolvedValue();
  vi.mocked(core.recheckCredential).mockImplementation(async (credential) => ({ credential, answered: true }));
});

describe('receive', () => {
  it('reviews the offer, asks for the PIN, accepts and opens the new credential', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.resolveOffer).mockResolvedValue(resolved);
    vi.mocked(protocol.acceptOffer)
      .mockRejectedValueOnce(new WalletError('PIN_WRONG'))
      .mockImplementationOnce(async (_offer, v) => {
        const stored = buildCredential({ id: 'new-1' });
        await v.saveCredential(stored);
        return stored;
      });
    const { user, router } = renderApp(`/receive?offer=${encodeURIComponent(OFFER)}`, vault);

    expect(await screen.findByText('New credential offered')).toBeTruthy();
    expect(protocol.resolveOffer).toHaveBeenCalledWith(OFFER, 'en');
    expect(screen.getByText('Acme Corp')).toBeTruthy();
    expect(screen.getByText('Verified organization')).toBeTruthy();
    // The issuer publishes no certificate: decided on the credential itself, when it arrives.
    expect(screen.getByTestId('issuer-assurance').dataset.level).toBe('offer');
    expect(screen.getByTestId('issuer-assurance-headline').textContent).toBe('Checked when the credential arrives');
    expect(screen.getAllByTestId('offer-claim').map((li) => li.textContent)).toEqual(['Given name', 'Family name']);

    const pin = screen.getByTestId('offer-pin') as HTMLInputElement;
    expect(pin.inputMode).toBe('numeric');
    expect(pin.maxLength).toBe(6);
    expect((screen.getByTestId('offer-accept') as HTMLButtonElement).disabled).toBe(true);

    await user.type(pin, '12a34 56');
    expect(pin.value).toBe('123456');
    await user.click(screen.getByTestId('offer-accept'));
    expect(await screen.findByText('The PIN is wrong. Check it and try again.')).toBeTruthy();
    expect((screen.getByTestId('offer-pin') as HTMLInputElement).value).toBe('123456');

    await user.clear(screen.getByTestId('offer-pin'));
    await user.type(screen.getByTestId('offer-pin'), '654321');
    await user.click(screen.getByTestId('offer-accept'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/credentials/new-1'));
    expect(await screen.findByTestId('credential-received')).toBeTruthy();
    expect(protocol.acceptOffer).toHaveBeenLastCalledWith(resolved, vault, { format: 'dc+sd-jwt', txCode: '654321' });
    // One format offered: nothing to choose.
    expect(screen.queryByTestId('offer-format')).toBeNull();
  });

  it('lets the holder choose the format when the issuer also offers an ISO mdoc: SD-JWT VC unless changed', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    const both = { ...resolved, txCode: undefined, formats: ['dc+sd-jwt', 'mso_mdoc'] } as typeof resolved;
    vi.mocked(protocol.resolveOffer).mockResolvedValue(both);
    vi.mocked(protocol.acceptOffer).mockImplementation(async (_offer, v, options) => {
      const stored =
        options?.format === 'mso_mdoc' ? buildMdocCredential({ id: 'new-mdoc' }) : buildCredential({ id: 'new-sd' });
      await v.saveCredential(stored);
      return stored;
    });
    const { user, router } = renderApp(`/receive?offer=${encodeURIComponent(OFFER)}`, vault);

    const group = await screen.findByTestId('offer-format');
    expect(within(group).getByText('Format')).toBeTruthy();
    const [sdJwt, mdoc] = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(within(group).getByLabelText('SD-JWT VC')).toBe(sdJwt);
    expect(within(group).getByLabelText('ISO mdoc (mDL-style)')).toBe(mdoc);
    expect([sdJwt!.checked, mdoc!.checked]).toEqual([true, false]);
    expect(group.textContent).toContain('Both hold the same information.');

    await user.click(mdoc!);
    await user.click(screen.getByTestId('offer-accept'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/credentials/new-mdoc'));
    expect(protocol.acceptOffer).toHaveBeenCalledWith(both, vault, { format: 'mso_mdoc' });
    // The new credential's page says what it is.
    expect((await screen.findByTestId('credential-format-detail')).dataset.format).toBe('mso_mdoc');
  });

  it('shows a translated error and keeps the link when the offer cannot be resolved', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.resolveOffer)
      .mockRejectedValueOnce(new WalletError('OFFER_EXPIRED'))
      .mockResolvedValueOnce(resolved);
    const { user } = renderApp(`/receive?offer=${encodeURIComponent(OFFER)}`, vault);

    const error = await screen.findByTestId('offer-error');
    expect(error.dataset.code).toBe('OFFER_EXPIRED');
    expect(error.textContent).toContain('This offer was already used or has expired.');
    expect((screen.getByLabelText('Offer link') as HTMLTextAreaElement).value).toBe(OFFER);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('New credential offered')).toBeTruthy();
    expect(protocol.resolveOffer).toHaveBeenCalledTimes(2);
  });

  it('routes a pasted presentation request to /present and keeps an unknown text with a message', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.resolvePresentationRequest).mockReturnValue(new Promise(() => {}));
    const { user, router } = renderApp('/scan', vault);

    await user.click(await screen.findByTestId('scan-tab-paste'));
    await user.type(screen.getByTestId('scan-link'), 'hello');
    await user.click(screen.getByTestId('scan-continue'));
    expect(screen.getByText('This is not a credential offer or a presentation request.')).toBeTruthy();
    expect((screen.getByTestId('scan-link') as HTMLTextAreaElement).value).toBe('hello');

    const request = 'openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fverifier.example%2Fr%2F1';
    await user.clear(screen.getByTestId('scan-link'));
    await user.click(screen.getByTestId('scan-link'));
    await user.paste(request);
    await user.click(screen.getByTestId('scan-continue'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/present'));
    expect(router.state.location.search).toBe(`?request=${encodeURIComponent(request)}`);
    await waitFor(() => expect(protocol.resolvePresentationRequest).toHaveBeenCalledWith(request));
  });

  it('before accepting, says who vouches for the issuer when its published certificate tells', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.resolveOffer).mockResolvedValue({
      ...resolved,
      issuer: {
        ...resolved.issuer,
        assurance: { level: 'platform', by: 'platform.example', source: 'x5c', checkedAt: '2026-01-01T00:00:00Z' },
      },
    });
    renderApp(`/receive?offer=${encodeURIComponent(OFFER)}`, vault);

    const note = await screen.findByTestId('issuer-assurance');
    expect(note.dataset.level).toBe('platform');
    expect(screen.getByTestId('issuer-assurance-headline').textContent).toBe('Certified by platform.example');
    expect(note.textContent).toContain('Checked again on the credential itself when it arrives.');
    expect(screen.getByTestId('offer-accept')).toBeTruthy();
  });
});
