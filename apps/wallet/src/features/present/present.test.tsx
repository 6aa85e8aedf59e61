import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../../app/core-api.ts';
import { WalletError } from '../../test/core-api-mock.ts';
import { buildCredential, FakeVault } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));

const REQUEST = 'openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fverifier.example%2Fr%2F1';
const request = {
  clientId: 'x509_hash:abc',
  clientIdScheme: 'x509_hash',
  verifier: { name: 'Bank of Examples', certificateSubject: 'CN=verifier.example' },
  dcql: { credentials: [{ id: 'q1', format: 'dc+sd-jwt', claims: [{ path: ['given_name'] }] }] },
  nonce: 'n-1',
  responseUri: 'https://verifier.example/response',
  responseMode: 'direct_post.jwt',
} as core.ResolvedPresentationRequest as Awaited<ReturnType<typeof core.resolvePresentationRequest>>;
const credential = buildCredential();
const candidate: core.PresentationCandidate = { queryId: 'q1', credential, disclose: ['given_name', 'birthdate'] };

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(core.resolvePresentationRequest).mockResolvedValue(request);
  vi.mocked(core.findCandidates).mockReturnValue([candidate]);
});

const path = `/present?request=${encodeURIComponent(REQUEST)}`;

describe('present', () => {
  it('shows who asks and exactly the claims to be shared, and Share sends them', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(core.submitPresentation).mockResolvedValue({ redirectUri: 'https://verifier.example/done?x=1' });
    const { user, router } = renderApp(path, vault);

    expect(await screen.findByTestId('present-verifier')).toHaveProperty('textContent', 'Bank of Examples');
    expect(core.resolvePresentationRequest).toHaveBeenCalledWith(REQUEST);
    expect(core.findCandidates).toHaveBeenCalledWith(request, [credential]);
    expect(screen.getByTestId('present-scheme').textContent).toBe('Certificate verified');
    // Exactly the disclosed claims, with labels and values; family_name is held but not asked for.
    expect(screen.getAllByTestId('present-claim').map((row) => row.textContent)).toEqual([
      'Given nameAda',
      'Date of birthDecember 10, 1815',
    ]);
    expect(screen.queryByText('Lovelace')).toBeNull();

    await user.click(screen.getByTestId('present-share'));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('shared');
    expect(core.submitPresentation).toHaveBeenCalledWith(request, candidate, vault);
    // Offered, never followed automatically.
    const back = screen.getByTestId('present-back-to-verifier');
    expect(back.getAttribute('href')).toBe('https://verifier.example/done?x=1');
    expect(router.state.location.pathname).toBe('/present');
  });

  it('lets the holder choose when several credentials match', async () => {
    const other = buildCredential({ id: 'cred-2', claims: { given_name: 'Grace', birthdate: '1906-12-09' } });
    vi.mocked(core.findCandidates).mockReturnValue([candidate, { ...candidate, credential: other }]);
    vi.mocked(core.submitPresentation).mockResolvedValue({});
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential, other] });
    const { user } = renderApp(path, vault);

    expect(await screen.findAllByTestId('present-candidate')).toHaveLength(2);
    await user.click(screen.getAllByRole('radio')[1]!);
    expect(screen.getAllByTestId('present-claim')[0]?.textContent).toBe('Given nameGrace');
    await user.click(screen.getByTestId('present-share'));
    await screen.findByTestId('present-outcome');
    expect(vi.mocked(core.submitPresentation).mock.calls[0]?.[1].credential.id).toBe('cred-2');
    expect(screen.queryByTestId('present-back-to-verifier')).toBeNull();
  });

  it('Decline shares nothing and tells the verifier', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(core.declinePresentation).mockResolvedValue({});
    const { user } = renderApp(path, vault);

    await user.click(await screen.findByTestId('present-decline'));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('declined');
    expect(outcome.textContent).toContain('Nothing was shared with Bank of Examples.');
    expect(core.declinePresentation).toHaveBeenCalledWith(request, vault, credential);
    expect(core.submitPresentation).not.toHaveBeenCalled();
  });

  it('shows a translated error outcome when sending fails, and can try again', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(core.submitPresentation).mockRejectedValue(new WalletError('VERIFIER_ERROR'));
    const { user } = renderApp(path, vault);

    await user.click(await screen.findByTestId('present-share'));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('error');
    expect(outcome.textContent).toContain('The verifier refused the answer.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('present-share')).toBeTruthy();
  });

  it('shows an untrusted request as an error without asking for consent', async () => {
    vi.mocked(core.resolvePresentationRequest).mockRejectedValue(new WalletError('REQUEST_UNTRUSTED'));
    renderApp(path, new FakeVault({ passcode: 'p', unlocked: true }));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('error');
    expect(outcome.dataset.code).toBe('REQUEST_UNTRUSTED');
    expect(screen.queryByTestId('present-share')).toBeNull();
  });

  it('says so when no credential matches; Share is disabled', async () => {
    vi.mocked(core.findCandidates).mockReturnValue([]);
    renderApp(path, new FakeVault({ passcode: 'p', unlocked: true }));
    expect(await screen.findByTestId('present-no-match')).toBeTruthy();
    await waitFor(() => expect((screen.getByTestId('present-share') as HTMLButtonElement).disabled).toBe(true));
  });
});
