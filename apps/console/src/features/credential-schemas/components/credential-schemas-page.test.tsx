import type { CredentialSchema, Organization } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { CredentialSchemasPage } from './credential-schemas-page.tsx';

const organization: Organization = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme',
  description: null,
  did: null,
  logo: null,
  verified: true,
  verification_status: 'APPROVED',
  require_two_factor: false,
  created_at: '2026-01-01T00:00:00Z',
};

const schema = (id: string, name: string, extra: Partial<CredentialSchema> = {}): CredentialSchema => ({
  id,
  name,
  description: `${name} description`,
  slug: name.toLowerCase(),
  deleteable: true,
  issue_disabled: false,
  created: { first_name: 'Ada', last_name: 'Lovelace', username: 'ada' },
  created_at: '2026-03-01T10:00:00Z',
  attributes: [{ id: `${id.slice(0, -1)}a`, name: 'member_id', description: null, type: 'TEXT' }],
  ...extra,
});

const own = schema('22222222-2222-4222-8222-222222222222', 'Membership');
const kyc = schema('33333333-3333-4333-8333-333333333333', 'KYC', {
  deleteable: false,
  issue_disabled: true,
  created: null,
  attributes: [
    { id: '44444444-4444-4444-8444-444444444444', name: 'date_of_birth', description: null, type: 'DATETIME' },
  ],
});

let calls: { method: string; url: URL; headers: Headers }[];
let listed: CredentialSchema[];
let total: number;
let deleteStatus: number;
let listStatus: number;

beforeEach(() => {
  calls = [];
  listed = [own, kyc];
  total = 2;
  deleteStatus = 204;
  listStatus = 200;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({ method, url, headers: new Headers(init.headers) });
      if (method === 'GET' && url.pathname === '/api/schemas') {
        if (listStatus !== 200) return Response.json({ status: listStatus, code: 'X' }, { status: listStatus });
        return Response.json({ results: listed, total, page: Number(url.searchParams.get('page')), limit: 10 });
      }
      if (method === 'DELETE') {
        if (deleteStatus !== 204) return Response.json({ status: deleteStatus, code: 'X' }, { status: deleteStatus });
        listed = listed.filter((s) => !url.pathname.endsWith(s.id));
        total = listed.length;
        return new Response(null, { status: 204 });
      }
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage(initialEntry = '/schemas') {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(
    [
      { path: '/schemas', element: <CredentialSchemasPage /> },
      { path: '/schemas/create/:id?', element: <p>form</p> },
    ],
    { initialEntries: [initialEntry] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

describe('CredentialSchemasPage', { timeout: 30_000 }, () => {
  it('loads page 1 of 10 for the current organization and shows the rows', async () => {
    renderPage();
    const table = await screen.findByTestId('schemas-table');
    const list = calls.find((c) => c.url.pathname === '/api/schemas');
    expect(list?.url.searchParams.get('page')).toBe('1');
    expect(list?.url.searchParams.get('limit')).toBe('10');
    expect(list?.headers.get('CurrentIdentity')).toBe(organization.id);
    expect(within(table).getByTestId(`schema-row-${own.id}`).textContent).toContain('Ada Lovelace');
    const platformRow = within(table).getByTestId(`schema-row-${kyc.id}`);
    expect(platformRow.textContent).toContain('Platform');
    expect(within(platformRow).getByTestId(`schema-verify-only-${kyc.id}`).textContent).toBe('Verification only');
    expect((screen.getByTestId(`schema-delete-${kyc.id}`) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId(`schema-duplicate-${own.id}`).getAttribute('href')).toBe(`/schemas/create/${own.id}`);
  });

  it('shows the attributes of a schema', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`schema-view-${kyc.id}`));
    const dialog = await screen.findByTestId('schema-view-dialog');
    expect(within(dialog).getByTestId('schema-attribute-date_of_birth').textContent).toContain('Date / Time');
  });

  it('deletes after a confirmation that says issued credentials stay valid', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`schema-delete-${own.id}`));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Credentials already issued with this schema stay valid.');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByTestId('schema-delete-confirm'));
    await waitFor(() => expect(screen.queryByTestId(`schema-row-${own.id}`)).toBeNull());
    const removal = calls.find((c) => c.method === 'DELETE');
    expect(removal?.url.pathname).toBe(`/api/schemas/${own.id}`);
    expect(notificationStore.get()?.title).toBe('Schema deleted');
  });

  it("shows 'Error in deleting Schema' when the deletion fails", async () => {
    deleteStatus = 500;
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`schema-delete-${own.id}`));
    await user.click(await screen.findByTestId('schema-delete-confirm'));
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Error in deleting Schema'));
    expect(screen.getByTestId(`schema-row-${own.id}`)).toBeTruthy();
  });

  it('paginates through the address', async () => {
    total = 23;
    const { router, user } = renderPage('/schemas?page=2');
    await screen.findByTestId('schemas-table');
    expect(calls.at(-1)?.url.searchParams.get('page')).toBe('2');
    await user.click(within(screen.getByTestId('schemas-pagination')).getByRole('button', { name: /page 3/i }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('page')).toBe('3'));
  });

  it('shows the empty state when there are no schemas', async () => {
    listed = [];
    total = 0;
    renderPage();
    expect(await screen.findByTestId('schemas-empty')).toBeTruthy();
    expect(screen.queryByTestId('schemas-table')).toBeNull();
  });

  it("shows 'Error in getting Schema List' when the list cannot be loaded", async () => {
    listStatus = 403;
    renderPage();
    expect((await screen.findByTestId('schemas-error')).textContent).toContain('Error in getting Schema List');
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Error in getting Schema List'));
    expect(screen.queryByTestId('schemas-table')).toBeNull();
  });
});
