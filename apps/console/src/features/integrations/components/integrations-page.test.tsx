import type { ApiKey, Organization } from '@cp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_IDENTITY_KEY } from '../../../lib/current-identity.ts';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { saveTokens } from '../../../lib/token-store.ts';
import { resetWindowWidth, showWindowOf } from '../../../test/window-width.ts';
import { IntegrationsPage } from './integrations-page.tsx';

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

const apiKey = (n: number): ApiKey => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Key ${n}`,
  base_url: 'https://platform.test/api',
  key: `ck_${String(n).padStart(24, 'A')}`,
  last_four: `x${String(n).padStart(3, '0')}`,
  created_at: '2026-11-01T10:00:00Z',
  last_used_at: n % 2 ? null : '2026-11-02T10:00:00Z',
});

interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

let keys: ApiKey[];
let calls: Call[];
let failList: boolean;
let user: UserEvent;

// Several dialogs and re-fetches per test: slower than the 5 s default on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  keys = [];
  calls = [];
  failList = false;
  user = userEvent.setup({ delay: null });
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path: url.pathname, search: url.searchParams, headers: new Headers(init.headers), body });
      if (url.pathname === '/api/integrations/keys' && method === 'GET') {
        if (failList) return Response.json({ status: 500, code: 'INTERNAL', title: 'x', type: 'x' }, { status: 500 });
        const page = Number(url.searchParams.get('page'));
        const limit = Number(url.searchParams.get('limit'));
        return Response.json({
          results: keys.slice((page - 1) * limit, page * limit),
          total: keys.length,
          page,
          limit,
        });
      }
      if (url.pathname === '/api/webhooks' && method === 'GET') {
        return Response.json({ results: [], total: 0, page: 1, limit: 10 });
      }
      if (url.pathname === '/api/integrations/keys' && method === 'POST') {
        const created = { ...apiKey(99), name: body.name, secret: 'cs_the-one-and-only-secret-x099' };
        keys.unshift(created);
        return Response.json(created, { status: 201 });
      }
      const id = url.pathname.split('/').pop();
      const existing = keys.find((k) => k.id === id);
      if (existing && method === 'PUT') {
        existing.name = body.name;
        return Response.json(existing);
      }
      if (existing && method === 'DELETE') {
        keys = keys.filter((k) => k !== existing);
        return new Response(null, { status: 204 });
      }
      return Response.json({ status: 404, code: 'API_KEY_NOT_FOUND', title: 'x', type: 'x' }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  notificationStore.dismiss();
});

function renderPage() {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  window.localStorage.setItem(CURRENT_IDENTITY_KEY, organization.id);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <IdentityContext.Provider value={identity}>
        <IntegrationsPage />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
}

const listCalls = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/integrations/keys');

describe('IntegrationsPage', () => {
  it('shows the empty state when the organization has no keys', async () => {
    renderPage();
    expect(await screen.findByTestId('integrations-empty')).toBeTruthy();
    expect(screen.getByText('No API keys yet')).toBeTruthy();
    // The webhooks panel sits below the keys, whatever their state.
    expect(await screen.findByTestId('webhooks-empty')).toBeTruthy();
    expect(listCalls()[0]?.search.get('page')).toBe('1');
    expect(listCalls()[0]?.search.get('limit')).toBe('10');
  });

  it('lists keys without secrets, ten a page, and pages on', async () => {
    keys = Array.from({ length: 12 }, (_, i) => apiKey(i + 1));
    renderPage();
    const table = await screen.findByTestId('integrations-table');
    expect(within(table).getByTestId(`integration-row-${keys[0]!.id}`)).toBeTruthy();
    expect(within(table).getByText('Key 1')).toBeTruthy();
    expect(within(table).getByText(keys[0]!.key)).toBeTruthy();
    expect(within(table).getByText('••••••••x001')).toBeTruthy();
    expect(within(table).getAllByText('Never used').length).toBeGreaterThan(0);
    expect(within(table).queryByText('Key 11')).toBeNull();
    expect(screen.getByTestId('integration-base-url').textContent).toBe('https://platform.test/api');
    expect(screen.getByTestId('integrations-range').textContent).toBe('1–10 of 12');

    await user.click(within(screen.getByTestId('integrations-pagination')).getByRole('button', { name: /2/ }));
    expect(await screen.findByText('Key 11')).toBeTruthy();
    expect(listCalls().at(-1)?.search.get('page')).toBe('2');
  });

  it('creates a key and shows its id and secret once', async () => {
    renderPage();
    await user.click(await screen.findByTestId('integration-add-button'));
    await user.click(screen.getByTestId('integration-save'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByTestId('integration-name'), '  Payroll  ');
    await user.click(screen.getByTestId('integration-save'));
    expect((await screen.findByTestId('integration-secret')).textContent).toBe('cs_the-one-and-only-secret-x099');
    expect(screen.getByTestId('integration-key').textContent).toBe(apiKey(99).key);
    expect(screen.getByText(/will not be shown again/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Payroll' });

    await user.click(screen.getByTestId('integration-secret-close'));
    await waitFor(() => expect(screen.queryByTestId('integration-secret')).toBeNull());
    const row = await screen.findByTestId(`integration-row-${apiKey(99).id}`);
    expect(within(row).getByText('Payroll')).toBeTruthy();
    expect(document.body.textContent).not.toContain('cs_the-one-and-only-secret-x099');
  });

  it('renames a key', async () => {
    keys = [apiKey(1)];
    renderPage();
    await user.click(await screen.findByTestId(`integration-rename-${keys[0]!.id}`));
    const input = screen.getByTestId('integration-name') as HTMLInputElement;
    expect(input.value).toBe('Key 1');
    await user.clear(input);
    await user.type(input, 'Warehouse');
    await user.click(screen.getByTestId('integration-save'));
    expect(await screen.findByText('Warehouse')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/api/integrations/keys/${keys[0]!.id}`);
    expect(put?.body).toEqual({ name: 'Warehouse' });
    expect(put?.headers.get('CurrentIdentity')).toBe(organization.id);
  });

  it('deletes a key after confirmation', async () => {
    keys = [apiKey(1)];
    const id = keys[0]!.id;
    renderPage();
    await user.click(await screen.findByTestId(`integration-delete-${id}`));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('integration-delete-confirm'));
    expect(await screen.findByTestId('integrations-empty')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/api/integrations/keys/${id}`);
    expect(notificationStore.get()?.title).toBe('API key deleted');
  });

  it('tells the user when the list cannot be loaded', async () => {
    failList = true;
    renderPage();
    expect(await screen.findByText('Error in getting integration List')).toBeTruthy();
    expect(notificationStore.get()).toMatchObject({ severity: 'error', title: 'Error in getting integration List' });
  });

  it('keeps the dialog open and reports a failed save', async () => {
    keys = [apiKey(1)];
    renderPage();
    await user.click(await screen.findByTestId(`integration-rename-${keys[0]!.id}`));
    keys = [];
    await user.click(screen.getByTestId('integration-save'));
    await waitFor(() =>
      expect(notificationStore.get()).toMatchObject({
        severity: 'error',
        title: 'Error in adding/updating a integration',
      }),
    );
    expect(screen.getByTestId('integration-name')).toBeTruthy();
  });
});

describe('IntegrationsPage layout', () => {
  afterEach(resetWindowWidth);
  const longName = 'Student information system (Banner) nightly import';

  it('lists keys as cards beside the side menu of a 1024 px window (a table there squeezed names to a letter a line)', async () => {
    keys = [{ ...apiKey(1), name: longName }];
    showWindowOf(1024);
    renderPage();
    const list = await screen.findByTestId('integrations-table');
    expect(list.tagName).toBe('UL');
    expect(within(list).getByText(longName)).toBeTruthy();
  });

  it('shows a table from 1200 px with the name column kept wide, the secret under its key and dates over times', async () => {
    keys = [{ ...apiKey(2), name: longName, last_used_at: '2026-11-02T10:00:00Z' }];
    showWindowOf(1280);
    renderPage();
    const table = await screen.findByTestId('integrations-table');
    expect(table.tagName).toBe('TABLE');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['Name', 'Key ID and secret', 'Created', 'Last used', 'Actions']);
    // The name wraps between words and never narrower than its minimum (the browser e2e checks the pixels).
    const name = within(table).getByTestId(`integration-name-${keys[0]!.id}`);
    expect(name.textContent).toBe(longName);
    expect(getComputedStyle(name).minWidth).toBe('180px');
    const created = within(table).getAllByRole('time')[0]!;
    expect(created.getAttribute('datetime')).toBe('2026-11-01T10:00:00Z');
    expect(created.getAttribute('title')).toMatch(/2026/);
    expect(within(table).getByText('••••••••x002')).toBeTruthy();
  });
});
