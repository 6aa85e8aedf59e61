import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../../app/core-api.ts';
import { formatDate } from '../../components/format.ts';
import { changeLanguage } from '../../i18n/index.ts';
import { buildCredential, buildMdocCredential, FakeVault, MDOC_DOC_TYPE } from '../../test/fake-vault.ts';
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
    // Neither has an assurance yet (stored by an older wallet): no badge rather than a guess.
    expect(screen.queryByTestId('assurance-badge')).toBeNull();
  });

  it('still shows the cards when the status check fails', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    vi.mocked(core.refreshStatuses).mockRejectedValue(new TypeError('Failed to fetch'));
    renderApp('/', vault);
    expect(await screen.findByTestId('credential-card')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Checking statuses…')).toBeNull());
  });
});

const ASSURANCES = {
  platform: { level: 'platform', by: 'platform.example', source: 'x5c', checkedAt: '2026-01-05T10:00:01Z' },
  anchor: { level: 'anchor', by: 'Example Trust Services Root', source: 'x5c', checkedAt: '2026-01-05T10:00:01Z' },
  self: { level: 'self', by: 'issuer.example', source: 'metadata', checkedAt: '2026-01-05T10:00:01Z' },
} as const;

/** recheckCredential as the core answers it: the credential with `changes`, answered or not. */
const answers = (changes: Partial<core.StoredCredential>, answered = true) =>
  vi.mocked(core.recheckCredential).mockImplementation(async (credential) => ({
    credential: { ...credential, ...changes },
    answered,
  }));

describe('credential detail', () => {
  it('shows the claims with labels and formatted values, re-checks the status and deletes after confirmation', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    vi.mocked(core.refreshStatuses).mockResolvedValue();
    answers({ lastStatus: 'VALID', lastCheckedAt: '2026-03-01T09:00:00Z' });
    const { user, router } = renderApp('/credentials/cred-1', vault);

    const rows = await screen.findAllByTestId('claim-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Given nameAda',
      'Family nameLovelace',
      'Date of birthDecember 10, 1815',
    ]);
    expect(screen.getByText('Verified organization')).toBeTruthy();

    answers({ lastStatus: 'SUSPENDED', lastCheckedAt: '2026-03-02T09:00:00Z' });
    await user.click(await screen.findByTestId('credential-recheck'));
    await waitFor(() => expect(screen.getByTestId('credential-detail').dataset.status).toBe('suspended'));
    expect((await vault.getCredential('cred-1'))?.lastStatus).toBe('SUSPENDED');

    await user.click(screen.getByTestId('credential-delete'));
    expect(vault.credentials.has('cred-1')).toBe(true);
    await user.click(await screen.findByTestId('credential-delete-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(vault.credentials.has('cred-1')).toBe(false);
  });

  it('re-checks the status as soon as it is opened and shows the answer with when it was checked', async () => {
    const vault = new FakeVault({
      passcode: 'p',
      unlocked: true,
      credentials: [buildCredential({ lastStatus: 'VALID', lastCheckedAt: '2026-01-05T10:00:01Z' })],
    });
    answers({ lastStatus: 'REVOKED', lastCheckedAt: '2026-03-01T09:30:00Z' });
    renderApp('/credentials/cred-1', vault);

    await waitFor(() => expect(screen.getByTestId('credential-detail').dataset.status).toBe('revoked'));
    expect(core.recheckCredential).toHaveBeenCalledTimes(1);
    expect(vi.mocked(core.recheckCredential).mock.calls[0]?.[0]).toMatchObject({ id: 'cred-1', lastStatus: 'VALID' });
    const status = screen.getByTestId('credential-status');
    expect(status.dataset.check).toBe('answered');
    expect(within(status).getByText('Revoked')).toBeTruthy();
    expect(screen.getByTestId('credential-last-checked').textContent).toBe(
      `Last checked ${formatDate('2026-03-01T09:30:00Z', 'en', true)}`,
    );
    expect(await vault.getCredential('cred-1')).toMatchObject({
      lastStatus: 'REVOKED',
      lastCheckedAt: '2026-03-01T09:30:00Z',
    });
  });

  it('says when the status could not be checked, and keeps showing the last known one with its time', async () => {
    const vault = new FakeVault({
      passcode: 'p',
      unlocked: true,
      credentials: [buildCredential({ lastStatus: 'VALID', lastCheckedAt: '2026-02-01T08:00:00Z' })],
    });
    answers({}, false);
    renderApp('/credentials/cred-1', vault);

    const failed = await screen.findByTestId('credential-check-failed');
    expect(failed.textContent).toContain('The status could not be checked right now.');
    expect(failed.textContent).toContain('The last known status is shown.');
    expect(screen.getByTestId('credential-status').dataset.check).toBe('failed');
    expect(within(screen.getByTestId('credential-status')).getByText('Valid')).toBeTruthy();
    expect(screen.getByTestId('credential-last-checked').textContent).toBe(
      `Last checked ${formatDate('2026-02-01T08:00:00Z', 'en', true)}`,
    );
  });

  it.each([
    ['platform', 'Certified by platform.example', 'Certified'],
    ['anchor', 'Certified by a trusted authority: Example Trust Services Root', 'Certified'],
    ['self', 'Self-asserted by issuer.example', 'Self-asserted'],
  ] as const)('shows how sure the wallet is of the issuer: %s', async (level, headline, badge) => {
    const credential = buildCredential({ issuer: { ...buildCredential().issuer, assurance: ASSURANCES[level] } });
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] });
    answers({});
    renderApp('/credentials/cred-1', vault);

    const note = await screen.findByTestId('issuer-assurance');
    expect(note.dataset.level).toBe(level);
    expect(screen.getByTestId('issuer-assurance-headline').textContent).toBe(headline);
    const pill = screen.getByTestId('assurance-badge');
    expect(pill.textContent).toBe(badge);
    expect(pill.getAttribute('aria-label')).toBe(headline);
  });

  it('decided without the platform’s anchors (offline): self-asserted, and says it could not check more', async () => {
    const assurance = { ...ASSURANCES.self, source: 'x5c', by: 'platform.example', provisional: true } as const;
    const credential = buildCredential({ issuer: { ...buildCredential().issuer, assurance } });
    answers({}, false);
    renderApp('/credentials/cred-1', new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] }));

    const note = await screen.findByTestId('issuer-assurance');
    expect(screen.getByTestId('issuer-assurance-headline').textContent).toBe('Self-asserted by platform.example');
    expect(note.textContent).toContain('could not be read just now');
    expect(note.textContent).not.toContain('only the issuer says who it is');
    expect(screen.queryByText(/^Certified/)).toBeNull();
  });

  it('a credential stored without an assurance: decided when opened, shown once known', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    let finish: (value: Awaited<ReturnType<typeof core.recheckCredential>>) => void = () => {};
    vi.mocked(core.recheckCredential).mockReturnValue(
      new Promise((resolve) => {
        finish = resolve;
      }),
    );
    renderApp('/credentials/cred-1', vault);

    expect((await screen.findByTestId('issuer-assurance')).dataset.level).toBe('checking');
    expect(screen.queryByTestId('assurance-badge')).toBeNull();
    finish({
      credential: buildCredential({ issuer: { ...buildCredential().issuer, assurance: ASSURANCES.platform } }),
      answered: true,
    });
    await waitFor(() => expect(screen.getByTestId('issuer-assurance').dataset.level).toBe('platform'));
    expect((await vault.getCredential('cred-1'))?.issuer.assurance?.level).toBe('platform');
  });

  it('a credential deleted while it is being checked stays deleted', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    let finish: (value: Awaited<ReturnType<typeof core.recheckCredential>>) => void = () => {};
    vi.mocked(core.recheckCredential).mockReturnValue(
      new Promise((resolve) => {
        finish = resolve;
      }),
    );
    const { user, router } = renderApp('/credentials/cred-1', vault);

    await user.click(await screen.findByTestId('credential-delete'));
    await user.click(await screen.findByTestId('credential-delete-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    finish({ credential: buildCredential({ lastStatus: 'REVOKED' }), answered: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(vault.credentials.has('cred-1')).toBe(false);
  });

  it('says "not checked yet" when the assurance still cannot be decided', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    answers({}, false);
    renderApp('/credentials/cred-1', vault);
    await waitFor(() => expect(screen.getByTestId('issuer-assurance').dataset.level).toBe('unknown'));
    expect(screen.getByTestId('issuer-assurance-headline').textContent).toBe('Not checked yet');
  });

  it('speaks the holder’s language (ko)', async () => {
    await changeLanguage('ko');
    try {
      const credential = buildCredential({ issuer: { ...buildCredential().issuer, assurance: ASSURANCES.anchor } });
      answers({});
      renderApp('/credentials/cred-1', new FakeVault({ passcode: 'p', unlocked: true, credentials: [credential] }));
      expect((await screen.findByTestId('issuer-assurance-headline')).textContent).toBe(
        '신뢰할 수 있는 기관의 인증을 받음: Example Trust Services Root',
      );
    } finally {
      await changeLanguage('en');
    }
  });
});

describe('an ISO mdoc', () => {
  it('is tagged on its card, and its page shows its elements typed, its format, doctype and status', async () => {
    const sdJwt = buildCredential({ receivedAt: '2026-01-01T00:00:00Z' });
    const mdoc = buildMdocCredential({ receivedAt: '2026-02-01T00:00:00Z' });
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [sdJwt, mdoc] });
    vi.mocked(core.refreshStatuses).mockResolvedValue();
    answers({ lastStatus: 'REVOKED', lastCheckedAt: '2026-03-01T09:30:00Z' });
    const { user } = renderApp('/', vault);

    const cards = await screen.findAllByTestId('credential-card');
    expect(within(cards[0]!).getByTestId('credential-format').textContent).toBe('ISO mdoc');
    // The default format carries no tag.
    expect(within(cards[1]!).queryByTestId('credential-format')).toBeNull();

    await user.click(within(cards[0]!).getByText('Employee badge'));
    const rows = await screen.findAllByTestId('claim-row');
    // Elements from the namespace, by the issuer's labels; the full-date as a date, the number as a number.
    expect(rows.map((row) => row.textContent)).toEqual([
      'Given nameAda',
      'Family nameLovelace',
      'Date of birthDecember 10, 1815',
      'employee_number42',
    ]);
    const format = screen.getByTestId('credential-format-detail');
    expect(format.dataset.format).toBe('mso_mdoc');
    expect(format.textContent).toBe(`ISO mdoc (mDL-style)Document type: ${MDOC_DOC_TYPE}`);
    // Its status is checked as an SD-JWT VC's is (the MSO's status list entry).
    await waitFor(() => expect(screen.getByTestId('credential-detail').dataset.status).toBe('revoked'));
    expect(vi.mocked(core.recheckCredential).mock.calls[0]?.[0]).toMatchObject({
      format: 'mso_mdoc',
      statusReference: { idx: 7 },
    });
  });

  it('an SD-JWT VC’s page names its format too (ja)', async () => {
    await changeLanguage('ja');
    try {
      answers({});
      renderApp(
        '/credentials/cred-1',
        new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] }),
      );
      const format = await screen.findByTestId('credential-format-detail');
      expect(format.textContent).toBe('SD-JWT VC');
      expect(screen.getByText('形式')).toBeTruthy();
    } finally {
      await changeLanguage('en');
    }
  });
});
