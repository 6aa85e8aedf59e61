import type { Credential, CredentialDelivery } from '@cp/contracts';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { CredentialsPage } from './credentials-page.tsx';
import { credential, organization, renderRoutes, schema } from './test-fixtures.tsx';

const first = credential('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
const second = credential('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', {
  status: 'CLAIMED',
  recipient: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
  claimed_at: '2026-03-02T10:00:00Z',
  emailed_at: '2026-03-01T10:05:00Z',
  wallet_attestation: {
    provider_id: '99999999-9999-4999-8999-999999999999',
    provider_name: 'Example Wallet',
    client_id: 'https://wallet.example',
    wallet_name: 'Example Wallet for Android',
    certificate_subject: 'CN=Example Wallet Attestation Signer',
    verified_at: '2026-03-02T10:00:00Z',
  },
  key_attestation: {
    provider_id: '99999999-9999-4999-8999-999999999999',
    provider_name: 'Example Wallet',
    certificate_subject: 'CN=Example Wallet Attestation Signer',
    key_storage: ['iso_18045_high'],
    user_authentication: null,
    verified_at: '2026-03-02T10:00:00Z',
  },
});
const membership = schema('22222222-2222-4222-8222-222222222222', 'Membership');
/** The platform's Work Certificate schema, stored in English. */
const workCertificate = schema('77777777-7777-4777-8777-777777777777', 'Work Certificate', {
  slug: 'work-certificate',
  deleteable: false,
});

let calls: { method: string; url: URL; body: unknown }[];
let listed: Credential[];
let schemaList = [membership];
let revokeStatus: number;
let resendStatus: number;
let total: number;
const deliveries: CredentialDelivery[] = [
  {
    id: '99999999-9999-4999-8999-999999999902',
    sequence: 2,
    status: 'QUEUED',
    locale: 'ja',
    created_at: '2026-03-03T09:00:00Z',
    sent_at: null,
  },
  {
    id: '99999999-9999-4999-8999-999999999901',
    sequence: 1,
    status: 'SENT',
    locale: 'en',
    created_at: '2026-03-01T10:00:00Z',
    sent_at: '2026-03-01T10:05:00Z',
  },
];

/** Credentials deleted since the list was loaded: GET credentials/{id} answers 404. */
let deletedMeanwhile = new Set<string>();

beforeEach(() => {
  deletedMeanwhile = new Set();
  calls = [];
  listed = [first, second];
  schemaList = [membership];
  revokeStatus = 200;
  resendStatus = 202;
  total = 25;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, body });
      if (url.pathname === '/api/credentials' && method === 'GET') {
        return Response.json({ results: listed, total, page: Number(url.searchParams.get('page')), limit: 10 });
      }
      if (url.pathname === '/api/credentials/export') {
        return new Response('\uFEFFid,name\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="credentials-2026-03-04.csv"',
          },
        });
      }
      if (url.pathname.endsWith('/deliveries')) return Response.json({ results: deliveries });
      if (url.pathname.endsWith('/resend')) {
        if (resendStatus === 429) {
          return Response.json(
            { status: 429, code: 'CREDENTIAL_RESEND_TOO_SOON', title: 'Too Many Requests', type: 'x' },
            { status: 429, headers: { 'retry-after': '42' } },
          );
        }
        return Response.json({ ...deliveries[0], sequence: 3 }, { status: resendStatus });
      }
      if (url.pathname === '/api/credentials/delete') return Response.json({ deleted: body.credentials });
      if (url.pathname === '/api/schemas')
        return Response.json({ results: schemaList, total: schemaList.length, page: 1, limit: 100 });
      if (url.pathname === '/api/credentials/revoke') {
        if (revokeStatus !== 200) return Response.json({ status: revokeStatus, code: 'X' }, { status: revokeStatus });
        return Response.json({ revoked: body.credentials.length });
      }
      const one = listed.find((c) => url.pathname === `/api/credentials/${c.id}`);
      if (one && !deletedMeanwhile.has(one.id)) return Response.json(one);
      return Response.json({ status: 404 }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  // Back to the phone layout (jsdom's own: no matchMedia).
  Reflect.deleteProperty(window, 'matchMedia');
});

const renderPage = (entry = `/credentials/${organization.id}`) =>
  renderRoutes(
    [
      { path: '/credentials/:orgId', element: <CredentialsPage /> },
      { path: '/credentials/create', element: <p>wizard</p> },
    ],
    entry,
  );

const lists = () => calls.filter((c) => c.url.pathname === '/api/credentials' && c.method === 'GET');

/** MUI's useMediaQuery reads window.matchMedia, which jsdom lacks (no match: the phone layout). */
function showDesktopLayout() {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: true,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

describe('CredentialsPage', { timeout: 30_000 }, () => {
  it('loads the first page of 10 and shows rows with their status chips', async () => {
    renderPage();
    const table = await screen.findByTestId('credentials-table');
    expect(lists()[0]?.url.searchParams.get('page')).toBe('1');
    expect(lists()[0]?.url.searchParams.get('limit')).toBe('10');
    expect(within(table).getByTestId(`credential-row-${first.id}`).textContent).toContain('Ada Lovelace');
    expect(screen.getByTestId(`credential-status-${first.id}`).textContent).toBe('Issued');
    expect(screen.getByTestId(`credential-status-${second.id}`).getAttribute('data-status')).toBe('CLAIMED');
    expect(screen.getByTestId('credentials-pagination')).toBeTruthy();
    expect(screen.getByTestId('issue-credentials-button').getAttribute('href')).toBe('/credentials/create');
  });

  it('sends the filters as filter.status, filter.schema_id and filter.search', async () => {
    renderPage();
    await screen.findByTestId('credentials-table');
    fireEvent.change(screen.getByTestId('credentials-filter-status'), { target: { value: 'CLAIMED' } });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('filter.status')).toBe('CLAIMED'));
    fireEvent.change(screen.getByTestId('credentials-filter-schema'), { target: { value: membership.id } });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('filter.schema_id')).toBe(membership.id));
    fireEvent.change(screen.getByTestId('credentials-filter-search'), { target: { value: 'grace' } });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('filter.search')).toBe('grace'));
    const last = lists().at(-1)?.url.searchParams;
    expect(last?.get('filter.status')).toBe('CLAIMED');
    expect(last?.get('page')).toBe('1');
  });

  it('revokes the selected credentials only after the confirmation', async () => {
    const { user } = renderPage();
    await screen.findByTestId('credentials-table');
    await user.click(within(screen.getByTestId(`credential-select-${first.id}`)).getByRole('checkbox'));
    await user.click(within(screen.getByTestId(`credential-select-${second.id}`)).getByRole('checkbox'));
    await user.click(screen.getByTestId('credentials-bulk-revoke'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('2 selected credentials');
    expect(calls.some((c) => c.url.pathname === '/api/credentials/revoke')).toBe(false);
    await user.click(within(dialog).getByTestId('credentials-revoke-confirm'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/credentials/revoke')).toBe(true));
    const revoke = calls.find((c) => c.url.pathname === '/api/credentials/revoke');
    expect(revoke?.method).toBe('PATCH');
    expect(revoke?.body).toEqual({ credentials: [first.id, second.id] });
    await waitFor(() => expect(notificationStore.get()?.title).toBe('2 credentials revoked'));
  });

  it('shows the catalogue message when revoking fails', async () => {
    revokeStatus = 500;
    const { user } = renderPage();
    await screen.findByTestId('credentials-table');
    await user.click(within(screen.getByTestId(`credential-select-${first.id}`)).getByRole('checkbox'));
    await user.click(screen.getByTestId('credentials-bulk-revoke'));
    await user.click(await screen.findByTestId('credentials-revoke-confirm'));
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Error in revoking credentials'));
  });

  it('opens the detail with claims, recipient and events', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByText('Grace Hopper'));
    const detail = await screen.findByTestId('credential-detail');
    expect(detail.textContent).toContain('grace@example.com');
    expect(within(detail).getByTestId('credential-claim-member_id').textContent).toBe('M-1');
    expect(within(detail).getByTestId('credential-event-claimed')).toBeTruthy();
    expect(within(detail).getByTestId('credential-delivery').textContent).toBe('E-mail sent');
    // Which trusted wallet provider vouched for the holder's wallet and key.
    expect(within(detail).getByTestId('credential-wallet-attestation').textContent).toBe(
      'Example Wallet (Example Wallet for Android)',
    );
    expect(within(detail).getByTestId('credential-key-attestation').textContent).toBe(
      'Example Wallet · iso_18045_high',
    );
  });

  it('says a credential deleted meanwhile no longer exists, and offers no action on it', async () => {
    deletedMeanwhile.add(second.id);
    const { user } = renderPage();
    await user.click(await screen.findByText('Grace Hopper'));
    expect((await screen.findByTestId('credential-detail-gone')).textContent).toContain(
      'This credential no longer exists',
    );
    expect(screen.queryByTestId('credential-detail-revoke')).toBeNull();
    expect(screen.queryByTestId('credential-detail-delete')).toBeNull();
    expect(screen.queryByTestId('credential-detail-resend')).toBeNull();
    expect(screen.getByTestId('credential-detail-close')).toBeTruthy();
  });

  it("shows a platform schema's name in the user's language, an organization's own as written (ja)", async () => {
    const platform = credential('cccccccc-cccc-4ccc-8ccc-cccccccccccc', {
      name: '在職証明（エイダ）',
      schema: { id: workCertificate.id, name: 'Work Certificate', slug: 'work-certificate', deleteable: false },
    });
    const own = credential('dddddddd-dddd-4ddd-8ddd-dddddddddddd', {
      schema: { id: membership.id, name: 'Membership', slug: membership.slug, deleteable: true },
    });
    // An answer from an API without the slug and the flag: shown as written.
    const older = credential('eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee', {
      schema: { id: workCertificate.id, name: 'Work Certificate' },
    });
    listed = [platform, own, older];
    schemaList = [workCertificate, membership];
    i18n.changeLanguage('ja');
    try {
      const { user } = renderPage(`/credentials/${organization.id}?schema=${workCertificate.id}`);
      const table = await screen.findByTestId('credentials-table');
      const platformRow = within(table).getByTestId(`credential-row-${platform.id}`);
      expect(platformRow.textContent).toContain('在職証明書');
      expect(platformRow.textContent).not.toContain('Work Certificate');
      expect(within(table).getByTestId(`credential-row-${own.id}`).textContent).toContain('Membership');
      expect(within(table).getByTestId(`credential-row-${older.id}`).textContent).toContain('Work Certificate');

      // The schema filter: the chosen platform schema and the options.
      const filter = screen.getByRole('combobox', { name: 'スキーマ' });
      await waitFor(() => expect(filter.textContent).toBe('在職証明書'));
      await user.click(filter);
      const listbox = await screen.findByRole('listbox');
      expect(within(listbox).getByRole('option', { name: '在職証明書' })).toBeTruthy();
      expect(within(listbox).getByRole('option', { name: 'Membership' })).toBeTruthy();
      expect(within(listbox).queryByRole('option', { name: 'Work Certificate' })).toBeNull();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());

      await user.click(within(platformRow).getByText('在職証明書'));
      const detail = await screen.findByTestId('credential-detail');
      expect(detail.textContent).toContain('在職証明書');
      expect(detail.textContent).not.toContain('Work Certificate');
    } finally {
      i18n.changeLanguage('en');
    }
  });

  it('sorts by the Created and Status headers, keeping the sort in the URL and the request (aria-sort)', async () => {
    showDesktopLayout();
    const { user, router } = renderPage();
    await screen.findByTestId('credentials-table');
    const created = screen.getByTestId('credentials-sort-created_at');
    const status = screen.getByTestId('credentials-sort-status');
    // The default: newest first, not sent.
    expect(created.getAttribute('aria-sort')).toBe('descending');
    expect(status.getAttribute('aria-sort')).toBeNull();
    expect(lists()[0]?.url.searchParams.has('sort')).toBe(false);

    await user.click(within(status).getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('sort')).toBe('status'));
    expect(router.state.location.search).toContain('sort=status');
    expect(screen.getByTestId('credentials-sort-status').getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByTestId('credentials-sort-created_at').getAttribute('aria-sort')).toBeNull();

    await user.click(within(screen.getByTestId('credentials-sort-status')).getByRole('button'));
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('sort')).toBe('-status'));
    expect(screen.getByTestId('credentials-sort-status').getAttribute('aria-sort')).toBe('descending');

    // Back to the dates: newest first (the default: the URL drops it, the first answer is reused), then oldest first.
    await user.click(within(screen.getByTestId('credentials-sort-created_at')).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).not.toContain('sort='));
    expect(screen.getByTestId('credentials-sort-created_at').getAttribute('aria-sort')).toBe('descending');
    await user.click(within(screen.getByTestId('credentials-sort-created_at')).getByRole('button'));
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('sort')).toBe('created_at'));
    expect(screen.getByTestId('credentials-sort-created_at').getAttribute('aria-sort')).toBe('ascending');
    // A sort in the URL is applied when the page opens; an unknown one is not sent.
    cleanup();
    calls = [];
    renderPage(`/credentials/${organization.id}?sort=-status&page=2`);
    await screen.findByTestId('credentials-table');
    expect(lists()[0]?.url.searchParams.get('sort')).toBe('-status');
    expect(lists()[0]?.url.searchParams.get('page')).toBe('2');
    cleanup();
    calls = [];
    renderPage(`/credentials/${organization.id}?sort=email`);
    await screen.findByTestId('credentials-table');
    expect(lists()[0]?.url.searchParams.has('sort')).toBe(false);
  });

  it('filters by a range of creation days in the user time zone, and refuses a range that ends before it starts', async () => {
    const { router } = renderPage();
    await screen.findByTestId('credentials-table');
    fireEvent.change(screen.getByTestId('credentials-filter-from'), { target: { value: '2026-03-01' } });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('filter.created_from')).toBe('2026-03-01'));
    fireEvent.change(screen.getByTestId('credentials-filter-to'), { target: { value: '2026-03-31' } });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('filter.created_to')).toBe('2026-03-31'));
    const sent = lists().at(-1)!.url.searchParams;
    expect(sent.get('filter.created_from')).toBe('2026-03-01');
    expect(sent.get('timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(sent.get('page')).toBe('1');
    expect(router.state.location.search).toContain('from=2026-03-01');
    expect(router.state.location.search).toContain('to=2026-03-31');
    expect(screen.getByTestId('credentials-filter-to').getAttribute('min')).toBe('2026-03-01');

    fireEvent.change(screen.getByTestId('credentials-filter-to'), { target: { value: '2026-02-01' } });
    expect(await screen.findByText('Must be on or after the start date')).toBeTruthy();
    expect(router.state.location.search).toContain('to=2026-02-01');
    // The invalid range is never sent: the list shows every day until it is fixed.
    expect(lists().some((c) => c.url.searchParams.get('filter.created_to') === '2026-02-01')).toBe(false);
    fireEvent.change(screen.getByTestId('credentials-filter-to'), { target: { value: '2026-03-05' } });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('filter.created_to')).toBe('2026-03-05'));
    expect(screen.queryByText('Must be on or after the start date')).toBeNull();
    // Both ends typed in a row, before the page renders again: neither is lost.
    cleanup();
    calls = [];
    const again = renderPage();
    await screen.findByTestId('credentials-table');
    act(() => {
      fireEvent.change(screen.getByTestId('credentials-filter-from'), { target: { value: '2026-04-01' } });
      fireEvent.change(screen.getByTestId('credentials-filter-to'), { target: { value: '2026-04-30' } });
    });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('filter.created_to')).toBe('2026-04-30'));
    expect(lists().at(-1)?.url.searchParams.get('filter.created_from')).toBe('2026-04-01');
    expect(again.router.state.location.search).toContain('from=2026-04-01');
    // A range in the URL is applied when the page opens; a day that does not exist is ignored.
    cleanup();
    calls = [];
    renderPage(`/credentials/${organization.id}?from=2026-02-30&to=2026-03-02`);
    await screen.findByTestId('credentials-table');
    expect(lists()[0]?.url.searchParams.has('filter.created_from')).toBe(false);
    expect(lists()[0]?.url.searchParams.get('filter.created_to')).toBe('2026-03-02');
  });

  it('exports the CSV with the filters and the sort shown, as the file the API names', async () => {
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL: () => {} }));
    const { user } = renderPage(
      `/credentials/${organization.id}?status=ISSUED&search=ada&sort=status&from=2026-03-01&to=2026-03-02&page=2`,
    );
    await screen.findByTestId('credentials-table');
    await user.click(screen.getByTestId('credentials-export'));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const exported = calls.find((c) => c.url.pathname === '/api/credentials/export')!;
    expect(exported.method).toBe('GET');
    const params = exported.url.searchParams;
    expect(params.get('filter.status')).toBe('ISSUED');
    expect(params.get('filter.search')).toBe('ada');
    expect(params.get('sort')).toBe('status');
    expect(params.get('filter.created_from')).toBe('2026-03-01');
    expect(params.get('filter.created_to')).toBe('2026-03-02');
    expect(params.get('timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    // Every page: no page or limit.
    expect(params.has('page')).toBe(false);
    expect(params.has('limit')).toBe(false);
    expect(clicked[0]).toEqual({ href: 'blob:csv', download: 'credentials-2026-03-04.csv' });
    vi.restoreAllMocks();
  });

  it('resends the e-mail and copies the claim link from the detail, and shows every e-mail with its status', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByText('Ada Lovelace'));
    const detail = await screen.findByTestId('credential-detail');
    await waitFor(() =>
      expect(within(detail).getByTestId('credential-email-2').getAttribute('data-status')).toBe('QUEUED'),
    );
    expect(within(detail).getByTestId('credential-email-1').textContent).toContain('Sent');
    expect(within(detail).getByTestId('credential-email-2').textContent).toContain('E-mail 2');

    await user.click(screen.getByTestId('credential-detail-resend'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === `/api/credentials/${first.id}/resend`)).toBe(true));
    const sent = calls.find((c) => c.url.pathname === `/api/credentials/${first.id}/resend`)!;
    expect(sent.method).toBe('POST');
    expect(sent.body).toEqual({ locale: 'en' });
    await waitFor(() => expect(notificationStore.get()?.title).toBe('E-mail queued: it will be sent in a moment'));

    resendStatus = 429;
    await user.click(screen.getByTestId('credential-detail-resend'));
    await waitFor(() =>
      expect(notificationStore.get()?.title).toBe(
        'This credential was e-mailed less than a minute ago. Try again in a minute.',
      ),
    );

    await user.click(screen.getByTestId('credential-detail-copy-link'));
    expect(await navigator.clipboard.readText()).toBe(first.connect_url);
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Link copied'));
  });

  it('resends in the language the console shows', async () => {
    i18n.changeLanguage('ko');
    try {
      const { user } = renderPage();
      await user.click(await screen.findByText('Ada Lovelace'));
      await user.click(await screen.findByTestId('credential-detail-resend'));
      await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/resend'))).toBe(true));
      expect(calls.find((c) => c.url.pathname.endsWith('/resend'))?.body).toEqual({ locale: 'ko' });
    } finally {
      i18n.changeLanguage('en');
    }
  });

  it('revokes and deletes from the detail, each only after its confirmation', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByText('Ada Lovelace'));
    await screen.findByTestId('credential-detail');
    await user.click(screen.getByTestId('credential-detail-revoke'));
    const revokeDialog = await screen.findByRole('dialog', { name: 'Revoke this credential?' });
    expect(revokeDialog.textContent).toContain('This credential will stop being valid.');
    expect(calls.some((c) => c.url.pathname === '/api/credentials/revoke')).toBe(false);
    await user.click(within(revokeDialog).getByTestId('credential-detail-revoke-confirm'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/credentials/revoke')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/credentials/revoke')?.body).toEqual({ credentials: [first.id] });
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Credential revoked'));
    // Still open after revoking.
    expect(screen.getByTestId('credential-detail')).toBeTruthy();

    await user.click(screen.getByTestId('credential-detail-delete'));
    const deleteDialog = await screen.findByRole('dialog', { name: 'Delete this credential?' });
    await user.click(within(deleteDialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete this credential?' })).toBeNull());
    expect(calls.some((c) => c.url.pathname === '/api/credentials/delete')).toBe(false);
    await user.click(screen.getByTestId('credential-detail-delete'));
    await user.click(await screen.findByTestId('credential-detail-delete-confirm'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/credentials/delete')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/credentials/delete')?.body).toEqual({ credentials: [first.id] });
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Credential deleted'));
    await waitFor(() => expect(screen.queryByTestId('credential-detail')).toBeNull());
  });

  it('offers neither resend nor the claim link for a claimed credential, nor revoke for a revoked one', async () => {
    listed = [second, credential('ffffffff-ffff-4fff-8fff-ffffffffffff', { status: 'REVOKED' })];
    const { user } = renderPage();
    await user.click(await screen.findByText('Grace Hopper'));
    await screen.findByTestId('credential-detail');
    expect(screen.queryByTestId('credential-detail-resend')).toBeNull();
    expect(screen.queryByTestId('credential-detail-copy-link')).toBeNull();
    expect(screen.getByTestId('credential-detail-revoke')).toBeTruthy();
    await user.click(screen.getByTestId('credential-detail-close'));
    await waitFor(() => expect(screen.queryByTestId('credential-detail')).toBeNull());
    await user.click(screen.getByText('Ada Lovelace'));
    await screen.findByTestId('credential-detail');
    await waitFor(() => expect(screen.queryByTestId('credential-detail-revoke')).toBeNull());
    expect(screen.getByTestId('credential-detail-delete')).toBeTruthy();
  });

  it('shows cards at phone width: recipient, type, status, dates, selection and the copy-link action', async () => {
    // jsdom has no matchMedia: the phone layout.
    const { user } = renderPage();
    const list = await screen.findByTestId('credentials-table');
    expect(list.tagName).toBe('UL');
    expect(document.querySelector('table')).toBeNull();
    const card = within(list).getByTestId(`credential-row-${second.id}`);
    expect(card.tagName).toBe('LI');
    expect(card.textContent).toContain('Grace Hopper');
    expect(card.textContent).toContain('grace@example.com');
    expect(card.textContent).toContain('Membership');
    expect(card.textContent).toContain('Created on');
    expect(card.textContent).toContain('Offer expires');
    expect(within(card).getByTestId(`credential-status-${second.id}`).textContent).toBe('Claimed');
    await user.click(within(card).getByTestId(`credential-copy-${second.id}`));
    expect(await navigator.clipboard.readText()).toBe(second.connect_url);
    // Copying does not open the detail; selecting neither.
    expect(screen.queryByTestId('credential-detail')).toBeNull();
    await user.click(within(within(card).getByTestId(`credential-select-${second.id}`)).getByRole('checkbox'));
    expect(screen.queryByTestId('credential-detail')).toBeNull();
    expect(screen.getByTestId('credentials-summary').textContent).toBe('1 credential selected');
    // The sort, without column headers.
    fireEvent.change(screen.getByTestId('credentials-sort-select'), { target: { value: 'status' } });
    await waitFor(() => expect(lists().at(-1)?.url.searchParams.get('sort')).toBe('status'));
    await user.click(within(card).getByText('Grace Hopper'));
    expect(await screen.findByTestId('credential-detail')).toBeTruthy();
  });

  it('counts with plural forms in every language', async () => {
    total = 1;
    listed = [first];
    const expected: Record<string, [string, string, string]> = {
      en: ['1 credential', '1 credential selected', 'Revoke the credential?'],
      ja: ['1 件', '1 件を選択中', '1 件の証明書を失効しますか？'],
      es: ['1 credencial', '1 credencial seleccionada', '¿Revocar la credencial?'],
      ko: ['1개', '1개 선택됨', '자격 증명 1개를 폐기할까요?'],
    };
    for (const [language, [count, selected, title]] of Object.entries(expected)) {
      i18n.changeLanguage(language);
      try {
        const { user } = renderPage();
        await screen.findByTestId('credentials-table');
        expect(screen.getByTestId('credentials-summary').textContent).toBe(count);
        await user.click(within(screen.getByTestId(`credential-select-${first.id}`)).getByRole('checkbox'));
        expect(screen.getByTestId('credentials-summary').textContent).toBe(selected);
        await user.click(screen.getByTestId('credentials-bulk-revoke'));
        expect((await screen.findByRole('dialog')).textContent).toContain(title);
        cleanup();
      } finally {
        i18n.changeLanguage('en');
      }
    }
    // Many: the _other form.
    total = 25;
    renderPage();
    await screen.findByTestId('credentials-table');
    expect(screen.getByTestId('credentials-summary').textContent).toBe('25 credentials');
  });

  it('shows the catalogue message when the list fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ status: 403 }, { status: 403 })),
    );
    renderPage();
    expect((await screen.findByTestId('credentials-error')).textContent).toContain('Error in getting credential List');
  });
});
