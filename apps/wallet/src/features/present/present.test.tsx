import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as core from '../../app/core-api.ts';
import * as protocol from '../../app/protocol-api.ts';
import { planPresentation as realPlanPresentation } from '../../core/present.ts';
import { WalletError } from '../../test/core-api-mock.ts';
import { buildCredential, buildMdocCredential, FakeVault, MDOC_DOC_TYPE } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));
vi.mock('../../app/protocol-api.ts', () => import('../../test/core-api-mock.ts'));

type Request = Awaited<ReturnType<typeof protocol.resolvePresentationRequest>>;

const REQUEST = 'openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fverifier.example%2Fr%2F1';
const EMPLOYEE = 'https://issuer.example/vct/employee';
const DIPLOMA = 'https://issuer.example/vct/university-diploma';
const PASSPORT = 'https://issuer.example/vct/passport';
const employeeQuery = {
  id: 'q1',
  format: 'dc+sd-jwt',
  meta: { vct_values: [EMPLOYEE] },
  claims: [{ path: ['given_name'] }, { path: ['birthdate'] }],
};
const diplomaQuery = {
  id: 'diploma',
  format: 'dc+sd-jwt',
  meta: { vct_values: [DIPLOMA] },
  claims: [{ path: ['degree'] }],
};
const passportQuery = {
  id: 'passport',
  format: 'dc+sd-jwt',
  meta: { vct_values: [PASSPORT] },
  claims: [{ path: ['document_number'] }],
};

function requestWith(dcql: unknown): Request {
  return {
    clientId: 'x509_hash:abc',
    clientIdScheme: 'x509_hash',
    verifier: { name: 'Bank of Examples', certificateSubject: 'CN=verifier.example' },
    dcql,
    nonce: 'n-1',
    responseUri: 'https://verifier.example/response',
    responseMode: 'direct_post.jwt',
  } as core.ResolvedPresentationRequest as Request;
}

const request = requestWith({ credentials: [employeeQuery] });
const credential = buildCredential();
const candidate: core.PresentationCandidate = { queryId: 'q1', credential, disclose: ['given_name', 'birthdate'] };
const diploma = buildCredential({
  id: 'cred-diploma',
  vct: DIPLOMA,
  display: { name: { en: 'University diploma' } },
  claimDisplay: [{ name: 'degree', label: { en: 'Degree' } }],
  claims: { degree: 'Mathematics', grade: 'A' },
});

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(protocol.resolvePresentationRequest).mockResolvedValue(request);
  // The plan is pure: the real one, over the vault's credentials.
  vi.mocked(protocol.planPresentation).mockImplementation(realPlanPresentation);
});

const path = `/present?request=${encodeURIComponent(REQUEST)}`;
const shareButton = () => screen.getByTestId('present-share') as HTMLButtonElement;
const sharedQueries = () =>
  ((vi.mocked(protocol.submitPresentation).mock.calls[0]?.[1] ?? []) as core.PresentationCandidate[]).map((c) => [
    c.queryId,
    c.credential.id,
  ]);

describe('present: one credential asked for', () => {
  it('shows who asks and exactly the claims to be shared, and Share sends them', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(protocol.submitPresentation).mockResolvedValue({ redirectUri: 'https://verifier.example/done?x=1' });
    const { user, router } = renderApp(path, vault);

    expect(await screen.findByTestId('present-verifier')).toHaveProperty('textContent', 'Bank of Examples');
    expect(protocol.resolvePresentationRequest).toHaveBeenCalledWith(REQUEST);
    expect(protocol.planPresentation).toHaveBeenCalledWith(request, [credential]);
    expect(screen.getByTestId('present-scheme').textContent).toBe('Certificate verified');
    // Exactly the disclosed claims, with labels and values; family_name is held but not asked for.
    expect(screen.getAllByTestId('present-claim').map((row) => row.textContent)).toEqual([
      'Given nameAda',
      'Date of birthDecember 10, 1815',
    ]);
    expect(screen.queryByText('Lovelace')).toBeNull();
    expect(screen.getByText('From which credential')).toBeTruthy();
    expect(screen.getByText('Nothing else in the credential is shared.')).toBeTruthy();

    await user.click(shareButton());
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('shared');
    expect(protocol.submitPresentation).toHaveBeenCalledWith(request, [candidate], vault);
    // Offered, never followed automatically.
    const back = screen.getByTestId('present-back-to-verifier');
    expect(back.getAttribute('href')).toBe('https://verifier.example/done?x=1');
    expect(router.state.location.pathname).toBe('/present');
  });

  it('lets the holder choose when several credentials match', async () => {
    const other = buildCredential({ id: 'cred-2', claims: { given_name: 'Grace', birthdate: '1906-12-09' } });
    vi.mocked(protocol.submitPresentation).mockResolvedValue({});
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential, other] });
    const { user } = renderApp(path, vault);

    expect(await screen.findAllByTestId('present-candidate')).toHaveLength(2);
    await user.click(screen.getAllByRole('radio')[1]!);
    expect(screen.getAllByTestId('present-claim')[0]?.textContent).toBe('Given nameGrace');
    await user.click(shareButton());
    await screen.findByTestId('present-outcome');
    expect(sharedQueries()).toEqual([['q1', 'cred-2']]);
    expect(screen.queryByTestId('present-back-to-verifier')).toBeNull();
  });

  it('Decline shares nothing and tells the verifier', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(protocol.declinePresentation).mockResolvedValue({});
    const { user } = renderApp(path, vault);

    await user.click(await screen.findByTestId('present-decline'));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('declined');
    expect(outcome.textContent).toContain('Nothing was shared with Bank of Examples.');
    expect(protocol.declinePresentation).toHaveBeenCalledWith(request, vault, credential);
    expect(protocol.submitPresentation).not.toHaveBeenCalled();
  });

  it('shows a translated error outcome when sending fails, and can try again', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(protocol.submitPresentation).mockRejectedValue(new WalletError('VERIFIER_ERROR'));
    const { user } = renderApp(path, vault);

    await user.click(await screen.findByTestId('present-share'));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('error');
    expect(outcome.textContent).toContain('The verifier refused the answer.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('present-share')).toBeTruthy();
    expect(screen.getAllByTestId('present-claim')).toHaveLength(2);
  });

  it('shows the verifier’s refusal in its own words, not a generic failure', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(protocol.submitPresentation).mockRejectedValue(
      new WalletError('VERIFIER_ERROR', 'The verifier answered 400', 'invalid_request: The state is unknown', {
        error: 'invalid_request',
        description: 'The state is unknown',
      }),
    );
    const { user } = renderApp(path, vault);

    await user.click(await screen.findByTestId('present-share'));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset).toMatchObject({ outcome: 'error', code: 'VERIFIER_ERROR', refusal: 'invalid_request' });
    expect(within(outcome).getByRole('heading').textContent).toBe('Refused by the verifier');
    expect(screen.getByTestId('present-outcome-body').textContent).toBe(
      'The verifier refused the answer: The state is unknown',
    );
    expect(outcome.textContent).not.toContain('Something went wrong');
  });

  it('a refusal without a description shows the verifier’s error code', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    vi.mocked(protocol.submitPresentation).mockRejectedValue(
      new WalletError('VERIFIER_ERROR', 'The verifier answered 400', 'invalid_request', { error: 'invalid_request' }),
    );
    const { user } = renderApp(path, vault);
    await user.click(await screen.findByTestId('present-share'));
    expect((await screen.findByTestId('present-outcome-body')).textContent).toBe(
      'The verifier refused the answer: invalid_request',
    );
  });

  it('shows, for the credential to share, who vouches for its issuer', async () => {
    const certified = buildCredential({
      issuer: {
        ...credential.issuer,
        assurance: { level: 'platform', by: 'platform.example', source: 'x5c', checkedAt: '2026-01-01T00:00:00Z' },
      },
    });
    renderApp(path, new FakeVault({ passcode: 'p', unlocked: true, credentials: [certified] }));
    const line = await screen.findByTestId('assurance-line');
    expect(line.dataset.level).toBe('platform');
    expect(line.textContent).toBe('Certified by platform.example');
  });

  it('shows an untrusted request as an error without asking for consent', async () => {
    vi.mocked(protocol.resolvePresentationRequest).mockRejectedValue(new WalletError('REQUEST_UNTRUSTED'));
    renderApp(path, new FakeVault({ passcode: 'p', unlocked: true }));
    const outcome = await screen.findByTestId('present-outcome');
    expect(outcome.dataset.outcome).toBe('error');
    expect(outcome.dataset.code).toBe('REQUEST_UNTRUSTED');
    expect(screen.queryByTestId('present-share')).toBeNull();
  });

  it('says so when no credential matches, naming what is needed; Share is disabled', async () => {
    renderApp(path, new FakeVault({ passcode: 'p', unlocked: true }));
    const noMatch = await screen.findByTestId('present-no-match');
    expect(noMatch.textContent).toContain('You do not have a credential that matches this request.');
    expect(screen.getAllByTestId('present-missing').map((item) => item.textContent)).toEqual([
      'Employee, with given name, birthdate',
    ]);
    await waitFor(() => expect(shareButton().disabled).toBe(true));
  });
});

describe('present: several credentials asked for', () => {
  it('lists every requested credential with its claims, and Share sends them all', async () => {
    vi.mocked(protocol.resolvePresentationRequest).mockResolvedValue(
      requestWith({ credentials: [employeeQuery, diplomaQuery] }),
    );
    vi.mocked(protocol.submitPresentation).mockResolvedValue({});
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [diploma, credential] });
    const { user } = renderApp(path, vault);

    const cards = await screen.findAllByTestId('present-request');
    expect(cards.map((card) => card.dataset.query)).toEqual(['q1', 'diploma']);
    expect(within(cards[0]!).getByText('Credential 1 of 2')).toBeTruthy();
    expect(within(cards[0]!).getByText('Employee badge')).toBeTruthy();
    expect(within(cards[1]!).getByText('Credential 2 of 2')).toBeTruthy();
    expect(within(cards[1]!).getByText('University diploma')).toBeTruthy();
    expect(
      within(cards[1]!)
        .getAllByTestId('present-claim')
        .map((row) => row.textContent),
    ).toEqual(['DegreeMathematics']);
    // The grade is held, not asked for: never shown as shared.
    expect(screen.queryByText('A')).toBeNull();
    expect(screen.getByText('Nothing else in these 2 credentials is shared.')).toBeTruthy();

    await user.click(shareButton());
    expect((await screen.findByTestId('present-outcome')).dataset.outcome).toBe('shared');
    expect(sharedQueries()).toEqual([
      ['q1', 'cred-1'],
      ['diploma', 'cred-diploma'],
    ]);
  });

  it('a required credential is missing: names it, shows no consent for the rest, Share stays disabled', async () => {
    vi.mocked(protocol.resolvePresentationRequest).mockResolvedValue(
      requestWith({ credentials: [employeeQuery, diplomaQuery] }),
    );
    renderApp(path, new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] }));

    const noMatch = await screen.findByTestId('present-no-match');
    expect(noMatch.textContent).toContain('You do not have every credential this request needs.');
    expect(screen.getAllByTestId('present-missing').map((item) => item.textContent)).toEqual([
      'University diploma, with degree',
    ]);
    expect(screen.queryByTestId('present-request')).toBeNull();
    expect(shareButton().disabled).toBe(true);
  });

  it('credential_sets alternatives: the one held is chosen, the other is offered disabled', async () => {
    vi.mocked(protocol.resolvePresentationRequest).mockResolvedValue(
      requestWith({
        credentials: [passportQuery, employeeQuery, diplomaQuery],
        credential_sets: [{ options: [['passport'], ['q1'], ['diploma']] }],
      }),
    );
    vi.mocked(protocol.submitPresentation).mockResolvedValue({});
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential, diploma] });
    const { user } = renderApp(path, vault);

    const options = await screen.findAllByTestId('present-option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Passport (not in your wallet)',
      'Employee badge',
      'University diploma',
    ]);
    const radios = screen.getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((radio) => [radio.checked, radio.disabled])).toEqual([
      [false, true],
      [true, false],
      [false, false],
    ]);
    expect(screen.getAllByTestId('present-request').map((card) => card.dataset.query)).toEqual(['q1']);

    await user.click(radios[2]!);
    expect(screen.getAllByTestId('present-request').map((card) => card.dataset.query)).toEqual(['diploma']);
    await user.click(shareButton());
    await screen.findByTestId('present-outcome');
    expect(sharedQueries()).toEqual([['diploma', 'cred-diploma']]);
  });

  it('an optional credential is left out until the holder switches it on', async () => {
    vi.mocked(protocol.resolvePresentationRequest).mockResolvedValue(
      requestWith({
        credentials: [employeeQuery, diplomaQuery],
        credential_sets: [{ options: [['q1']] }, { required: false, options: [['diploma']] }],
      }),
    );
    vi.mocked(protocol.submitPresentation).mockResolvedValue({});
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential, diploma] });
    const { user } = renderApp(path, vault);

    const optional = await screen.findByTestId('present-optional');
    expect(optional.textContent).toContain('Also share University diploma');
    const toggle = within(optional).getByRole('switch') as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(screen.getAllByTestId('present-request').map((card) => card.dataset.query)).toEqual(['q1']);
    expect(shareButton().disabled).toBe(false);

    await user.click(toggle);
    expect(toggle.checked).toBe(true);
    expect(screen.getAllByTestId('present-request').map((card) => card.dataset.query)).toEqual(['q1', 'diploma']);
    await user.click(shareButton());
    await screen.findByTestId('present-outcome');
    expect(sharedQueries()).toEqual([
      ['q1', 'cred-1'],
      ['diploma', 'cred-diploma'],
    ]);
  });

  it('an optional credential not held cannot be switched on, and does not stop sharing the rest', async () => {
    vi.mocked(protocol.resolvePresentationRequest).mockResolvedValue(
      requestWith({
        credentials: [employeeQuery, diplomaQuery],
        credential_sets: [{ options: [['q1']] }, { required: false, options: [['diploma']] }],
      }),
    );
    vi.mocked(protocol.submitPresentation).mockResolvedValue({});
    const { user } = renderApp(path, new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] }));

    const optional = await screen.findByTestId('present-optional');
    expect(optional.textContent).toContain('not in your wallet');
    expect((within(optional).getByRole('switch') as HTMLInputElement).disabled).toBe(true);
    await user.click(shareButton());
    await screen.findByTestId('present-outcome');
    expect(sharedQueries()).toEqual([['q1', 'cred-1']]);
  });
});

describe('present: an ISO mdoc asked for (DCQL mso_mdoc)', () => {
  const mdocQuery = {
    id: 'badge',
    format: 'mso_mdoc',
    meta: { doctype_value: MDOC_DOC_TYPE },
    claims: [{ path: [MDOC_DOC_TYPE, 'given_name'] }, { path: [MDOC_DOC_TYPE, 'birthdate'] }],
  };

  it('matches the held mdoc (not the SD-JWT VC of the same badge), shows exactly its elements, shares them', async () => {
    const mdoc = buildMdocCredential();
    const mdocRequest = requestWith({ credentials: [mdocQuery] });
    vi.mocked(protocol.resolvePresentationRequest).mockResolvedValue(mdocRequest);
    vi.mocked(protocol.submitPresentation).mockResolvedValue({});
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential, mdoc] });
    const { user } = renderApp(path, vault);

    expect(await screen.findByTestId('present-verifier')).toHaveProperty('textContent', 'Bank of Examples');
    expect(screen.getAllByTestId('present-claim').map((row) => row.textContent)).toEqual([
      'Given nameAda',
      'Date of birthDecember 10, 1815',
    ]);
    expect(screen.queryByText('Lovelace')).toBeNull();
    expect(screen.queryByTestId('present-candidate')).toBeNull();
    expect(screen.getByTestId('present-candidate-format').textContent).toBe(' · ISO mdoc (mDL-style)');

    await user.click(shareButton());
    expect((await screen.findByTestId('present-outcome')).dataset.outcome).toBe('shared');
    expect(protocol.submitPresentation).toHaveBeenCalledWith(
      mdocRequest,
      [
        {
          queryId: 'badge',
          credential: mdoc,
          disclose: ['given_name', 'birthdate'],
          paths: [
            [MDOC_DOC_TYPE, 'given_name'],
            [MDOC_DOC_TYPE, 'birthdate'],
          ],
        },
      ],
      vault,
    );
  });
});
