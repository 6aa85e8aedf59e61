import type { Credential } from '@cp/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

beforeEach(() => {
  calls = [];
  listed = [first, second];
  schemaList = [membership];
  revokeStatus = 200;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, body });
      if (url.pathname === '/api/credentials' && method === 'GET') {
        return Response.json({ results: listed, total: 25, page: Number(url.searchParams.get('page')), limit: 10 });
      }
      if (url.pathname === '/api/schemas')
        return Response.json({ results: schemaList, total: schemaList.length, page: 1, limit: 100 });
      if (url.pathname === '/api/credentials/revoke') {
        if (revokeStatus !== 200) return Response.json({ status: revokeStatus, code: 'X' }, { status: revokeStatus });
        return Response.json({ revoked: body.credentials.length });
      }
      const one = listed.find((c) => url.pathname === `/api/credentials/${c.id}`);
      if (one) return Response.json(one);
      return Response.json({ status: 404 }, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderPage = (entry = `/credentials/${organization.id}`) =>
  renderRoutes(
    [
      { path: '/credentials/:orgId', element: <CredentialsPage /> },
      { path: '/credentials/create', element: <p>wizard</p> },
    ],
    entry,
  );

const lists = () => calls.filter((c) => c.url.pathname === '/api/credentials' && c.method === 'GET');

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
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Credentials revoked: 2'));
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

  it('shows the catalogue message when the list fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ status: 403 }, { status: 403 })),
    );
    renderPage();
    expect((await screen.findByTestId('credentials-error')).textContent).toContain('Error in getting credential List');
  });
});
