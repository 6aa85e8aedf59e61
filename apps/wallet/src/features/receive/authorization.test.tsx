import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../../app/core-api.ts';
import * as protocol from '../../app/protocol-api.ts';
import { changeLanguage } from '../../i18n/index.ts';
import { WalletError } from '../../test/core-api-mock.ts';
import { buildCredential, FakeVault } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';
import { goToIssuer } from './go-to-issuer.ts';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));
vi.mock('../../app/protocol-api.ts', () => import('../../test/core-api-mock.ts'));
// jsdom does not navigate: the tab's trip to the issuer is observed, not taken.
vi.mock('./go-to-issuer.ts', () => ({ goToIssuer: vi.fn() }));

const ISSUER = 'https://issuer.example/orgs/1';
const AUTHORIZE = `${ISSUER}/authorize?client_id=cp-holder&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Aabc`;
const issuerInfo = { id: ISSUER, name: { en: 'Acme Corp', ja: 'アクメ社' }, verifiedOrganization: true };
const resolvedIssuer = {
  credentialIssuer: ISSUER,
  issuer: issuerInfo,
  configurations: [
    {
      id: 'employee',
      format: 'dc+sd-jwt' as const,
      display: { name: { en: 'Employee badge', ja: '社員証' }, description: { en: 'Proof of employment' } },
      claimDisplay: [{ name: 'given_name', label: { en: 'Given name', ja: '名' } }],
    },
    { id: 'visitor', format: 'dc+sd-jwt' as const, display: { name: { en: 'Visitor pass' } }, claimDisplay: [] },
  ],
} as Awaited<ReturnType<typeof protocol.resolveIssuer>>;
const offerOnlyAuthorizationCode = {
  credentialIssuer: ISSUER,
  issuer: issuerInfo,
  configurationId: 'employee',
  display: { name: { en: 'Employee badge' } },
  claimDisplay: [],
  authorizationCode: 'required',
} as core.ResolvedOffer as Awaited<ReturnType<typeof protocol.resolveOffer>>;

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(core.refreshStatuses).mockResolvedValue();
  vi.mocked(core.recheckCredential).mockImplementation(async (credential) => ({ credential, answered: true }));
  vi.mocked(protocol.loadPlatformTrust).mockResolvedValue(null);
});

describe('the callback from the issuer', () => {
  it('redeems the code with the callback URL and opens the new credential', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.completeAuthorizedReceive).mockImplementation(async (_callback, v) => {
      const stored = buildCredential({ id: 'via-code' });
      await v.saveCredential(stored);
      return stored;
    });
    const { router } = renderApp('/receive/callback?code=c-1&state=s-1&iss=x', vault);

    await waitFor(() => expect(router.state.location.pathname).toBe('/credentials/via-code'));
    expect(await screen.findByTestId('credential-received')).toBeTruthy();
    const [callback, usedVault] = vi.mocked(protocol.completeAuthorizedReceive).mock.calls[0]!;
    expect(new URL(callback).pathname).toBe('/receive/callback');
    expect(new URL(callback).searchParams.get('code')).toBe('c-1');
    expect(new URL(callback).searchParams.get('state')).toBe('s-1');
    expect(usedVault).toBe(vault);
    expect(protocol.completeAuthorizedReceive).toHaveBeenCalledTimes(1);
  });

  it('refuses an answer of another request (state): says so, stores nothing', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.completeAuthorizedReceive).mockRejectedValue(new WalletError('AUTHORIZATION_STATE_MISMATCH'));
    renderApp('/receive/callback?code=c-2&state=forged', vault);

    const screenError = await screen.findByTestId('callback-error');
    expect(screenError.dataset.code).toBe('AUTHORIZATION_STATE_MISMATCH');
    expect(screenError.textContent).toContain('Nothing was received');
    expect(screenError.textContent).toContain('This answer is not for a request this wallet made');
    expect(await vault.listCredentials()).toEqual([]);
    expect(screen.getByRole('link', { name: 'Start again' }).getAttribute('href')).toBe('/receive/issuer');
  });

  it('refuses an expired pending request in the holder’s language (ja)', async () => {
    await changeLanguage('ja');
    try {
      const vault = new FakeVault({ passcode: 'p', unlocked: true });
      vi.mocked(protocol.completeAuthorizedReceive).mockRejectedValue(new WalletError('AUTHORIZATION_EXPIRED'));
      renderApp('/receive/callback?code=c-3&state=s-3', vault);

      const screenError = await screen.findByTestId('callback-error');
      expect(screenError.dataset.code).toBe('AUTHORIZATION_EXPIRED');
      expect(screenError.textContent).toContain('受け取れませんでした');
      expect(screenError.textContent).toContain('ウォレットからやり直してください');
      expect(await vault.listCredentials()).toEqual([]);
    } finally {
      await changeLanguage('en');
    }
  });

  it('says the request was declined when the issuer answers access_denied', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.completeAuthorizedReceive).mockRejectedValue(new WalletError('AUTHORIZATION_DENIED'));
    renderApp('/receive/callback?error=access_denied&state=s-4', vault);

    const screenError = await screen.findByTestId('callback-error');
    expect(screenError.dataset.code).toBe('AUTHORIZATION_DENIED');
    expect(screenError.textContent).toContain('Not received');
    expect(screenError.textContent).toContain('The request was declined at the issuer’s page.');
  });
});

describe('getting credentials from an issuer (wallet-initiated)', () => {
  it('reads the issuer, lets the holder choose a credential, and sends the tab to the issuer’s page', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.resolveIssuer).mockResolvedValue(resolvedIssuer);
    const chosen = { ...offerOnlyAuthorizationCode } as Awaited<ReturnType<typeof protocol.resolveIssuerConfiguration>>;
    vi.mocked(protocol.resolveIssuerConfiguration).mockResolvedValue(chosen);
    vi.mocked(protocol.startAuthorizedReceive).mockResolvedValue(AUTHORIZE);
    const { user } = renderApp('/', vault);

    await user.click(await screen.findByTestId('from-issuer'));
    await user.type(await screen.findByTestId('issuer-address'), ISSUER);
    await user.click(screen.getByTestId('issuer-continue'));

    expect(await screen.findByText('Choose a credential')).toBeTruthy();
    expect(protocol.resolveIssuer).toHaveBeenCalledWith(ISSUER, 'en');
    expect(screen.getByText('Acme Corp')).toBeTruthy();
    expect(screen.getByText('Proof of employment')).toBeTruthy();
    expect(screen.getByText('Contains: Given name')).toBeTruthy();
    const options = screen.getAllByTestId('issuer-configuration');
    expect(options.map((option) => option.dataset.configuration)).toEqual(['employee', 'visitor']);

    await user.click(options[0]!);
    await waitFor(() => expect(goToIssuer).toHaveBeenCalledWith(AUTHORIZE));
    expect(protocol.resolveIssuerConfiguration).toHaveBeenCalledWith(resolvedIssuer, 'employee');
    expect(protocol.startAuthorizedReceive).toHaveBeenCalledWith(chosen);
  });

  it('offers the issuers the holder already has credentials from, named in their language', async () => {
    await changeLanguage('ja');
    try {
      const vault = new FakeVault({ passcode: 'p', unlocked: true });
      await vault.saveCredential(buildCredential({ id: 'held', issuer: issuerInfo }));
      vi.mocked(protocol.resolveIssuer).mockResolvedValue(resolvedIssuer);
      const { user } = renderApp('/receive/issuer', vault);

      await user.click(await screen.findByText('アクメ社'));
      expect(await screen.findByText('社員証')).toBeTruthy();
      expect(protocol.resolveIssuer).toHaveBeenCalledWith(ISSUER, 'ja');
    } finally {
      await changeLanguage('en');
    }
  });

  it('shows why the issuer cannot be read and keeps the address', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.resolveIssuer).mockRejectedValue(new WalletError('ISSUER_UNREACHABLE'));
    const { user } = renderApp(`/receive/issuer?issuer=${encodeURIComponent(ISSUER)}`, vault);

    expect(((await screen.findByTestId('issuer-address')) as HTMLInputElement).value).toBe(ISSUER);
    await user.click(screen.getByTestId('issuer-continue'));
    const error = await screen.findByTestId('issuer-error');
    expect(error.dataset.code).toBe('ISSUER_UNREACHABLE');
    expect((screen.getByTestId('issuer-address') as HTMLInputElement).value).toBe(ISSUER);
  });
});

describe('an offer with only the authorization code grant', () => {
  it('asks for no PIN and continues at the issuer’s page', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true });
    vi.mocked(protocol.resolveOffer).mockResolvedValue(offerOnlyAuthorizationCode);
    vi.mocked(protocol.startAuthorizedReceive).mockResolvedValue(AUTHORIZE);
    const { user } = renderApp('/receive?offer=openid-credential-offer%3A%2F%2F%3Fcredential_offer_uri%3Dx', vault);

    expect(await screen.findByTestId('offer-at-issuer')).toBeTruthy();
    expect(screen.queryByTestId('offer-pin')).toBeNull();
    expect(screen.queryByTestId('offer-accept')).toBeNull();
    await user.click(screen.getByTestId('offer-continue-at-issuer'));
    await waitFor(() => expect(goToIssuer).toHaveBeenCalledWith(AUTHORIZE));
    expect(protocol.startAuthorizedReceive).toHaveBeenCalledWith(offerOnlyAuthorizationCode, { format: 'dc+sd-jwt' });
    expect(protocol.acceptOffer).not.toHaveBeenCalled();
  });
});
