import type { Organization, Webhook, WebhookDelivery } from '@cp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_IDENTITY_KEY } from '../../../lib/current-identity.ts';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { saveTokens } from '../../../lib/token-store.ts';
import { resetWindowWidth, showWindowOf } from '../../../test/window-width.ts';
import { WebhooksPanel } from './webhooks-panel.tsx';

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

const webhook = (n: number, extra: Partial<Webhook> = {}): Webhook => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  url: `https://hooks.example.com/${n}`,
  description: n === 1 ? 'HR system' : null,
  events: ['verification.completed', 'credential.revoked'],
  enabled: true,
  created_at: '2026-11-01T10:00:00Z',
  secret_last_four: 'abcd',
  ...extra,
});

const delivery = (n: number, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: `dddddddd-0000-4000-8000-${String(n).padStart(12, '0')}`,
  webhook_id: webhook(1).id,
  event_id: `evt_${n}`,
  event_type: 'verification.completed',
  status: 'SUCCEEDED',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  created_at: '2026-11-02T10:00:00Z',
  delivered_at: '2026-11-02T10:00:01Z',
  next_attempt_at: null,
  ...extra,
});

const SECRET = 'whsec_c2VjcmV0LWJ5dGVzLW9mLXRoZS1lbmRwb2ludC0xMjM0NTY=';

interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

let webhooks: Webhook[];
let deliveries: WebhookDelivery[];
let calls: Call[];
let user: UserEvent;

// Several dialogs and re-fetches per test: slower than the 5 s default on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

beforeEach(() => {
  webhooks = [];
  deliveries = [];
  calls = [];
  user = userEvent.setup({ delay: null });
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path: url.pathname, search: url.searchParams, headers: new Headers(init.headers), body });
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      const pageOf = <T,>(items: T[]) =>
        Response.json({ results: items.slice((page - 1) * limit, page * limit), total: items.length, page, limit });
      if (url.pathname === '/api/webhooks' && method === 'GET') return pageOf(webhooks);
      if (url.pathname === '/api/webhooks' && method === 'POST') {
        const created = { ...webhook(9), ...body, description: body.description ?? null, secret: SECRET };
        webhooks.unshift({ ...created, secret: undefined });
        return Response.json(created, { status: 201 });
      }
      const [, , , id, sub] = url.pathname.split('/');
      const existing = webhooks.find((w) => w.id === id);
      if (!existing) {
        return Response.json({ status: 404, code: 'WEBHOOK_NOT_FOUND', title: 'x', type: 'x' }, { status: 404 });
      }
      if (sub === 'deliveries' && method === 'GET') return pageOf(deliveries);
      if (sub === 'test' && method === 'POST') {
        const queued = delivery(99, { status: 'PENDING', attempts: 0, last_status_code: null, delivered_at: null });
        deliveries.unshift(queued);
        return Response.json(queued, { status: 202 });
      }
      if (!sub && method === 'PATCH') {
        Object.assign(existing, body);
        return Response.json(existing);
      }
      if (!sub && method === 'DELETE') {
        webhooks = webhooks.filter((w) => w !== existing);
        return new Response(null, { status: 204 });
      }
      return Response.json({ status: 405, code: 'x', title: 'x', type: 'x' }, { status: 405 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  notificationStore.dismiss();
});

function renderPanel() {
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
        <WebhooksPanel />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
}

const callsTo = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path);

describe('WebhooksPanel', () => {
  it('shows an empty state when there is no endpoint', async () => {
    renderPanel();
    expect(await screen.findByTestId('webhooks-empty')).toBeTruthy();
    expect(callsTo('GET', '/api/webhooks')[0]?.search.get('limit')).toBe('10');
    expect(callsTo('GET', '/api/webhooks')[0]?.headers.get('CurrentIdentity')).toBe(organization.id);
  });

  it('lists endpoints with their events, switch and creation date', async () => {
    webhooks = [webhook(1), webhook(2, { enabled: false, events: ['credential.claimed'] })];
    renderPanel();
    const first = await screen.findByTestId(`webhook-row-${webhooks[0]!.id}`);
    expect(within(first).getByText('https://hooks.example.com/1')).toBeTruthy();
    expect(within(first).getByText('HR system')).toBeTruthy();
    expect(within(first).getByText('verification.completed')).toBeTruthy();
    expect(within(first).getByText('credential.revoked')).toBeTruthy();
    expect((screen.getByTestId(`webhook-toggle-${webhooks[0]!.id}`) as HTMLInputElement).checked).toBe(true);
    const second = screen.getByTestId(`webhook-row-${webhooks[1]!.id}`);
    expect(within(second).getByText('Disabled')).toBeTruthy();
    expect((screen.getByTestId(`webhook-toggle-${webhooks[1]!.id}`) as HTMLInputElement).checked).toBe(false);
    // A disabled endpoint cannot get a test event (the API answers 409 WEBHOOK_DISABLED).
    expect((screen.getByTestId(`webhook-test-${webhooks[1]!.id}`) as HTMLButtonElement).disabled).toBe(true);
  });

  it('validates, adds an endpoint and shows its signing secret once', async () => {
    renderPanel();
    await user.click(await screen.findByTestId('webhook-add-button'));
    await user.click(screen.getByTestId('webhook-url'));
    await user.paste('not a url');
    await user.click(screen.getByTestId('webhook-event-verification.completed'));
    await user.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('Must be a valid URL')).toBeTruthy();
    expect(screen.getByText('Choose at least one event')).toBeTruthy();
    expect(callsTo('POST', '/api/webhooks')).toHaveLength(0);

    await user.clear(screen.getByTestId('webhook-url'));
    await user.paste('  https://erp.example.com/hooks  ');
    await user.click(screen.getByTestId('webhook-event-credential.revoked'));
    await user.click(screen.getByTestId('webhook-event-verification.completed'));
    await user.click(screen.getByTestId('webhook-description'));
    await user.paste('ERP');
    await user.click(screen.getByTestId('webhook-save'));

    expect((await screen.findByTestId('webhook-secret')).textContent).toBe(SECRET);
    expect(callsTo('POST', '/api/webhooks')[0]?.body).toEqual({
      url: 'https://erp.example.com/hooks',
      events: ['verification.completed', 'credential.revoked'],
      description: 'ERP',
    });
    expect(screen.getByText(/will not be shown again/)).toBeTruthy();
    const help = screen.getByTestId('webhook-signature-help');
    expect(help.textContent).toContain('webhook-id');
    expect(help.textContent).toContain('webhook-timestamp');
    expect(help.textContent).toContain('{id}.{timestamp}.{body}');
    // The messages' <code> markup renders as code elements, not as text.
    expect(Array.from(help.querySelectorAll('code'), (code) => code.textContent)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'v1,',
      '{id}.{timestamp}.{body}',
      'whsec_',
    ]);
    expect(help.textContent).not.toContain('<code>');

    await user.click(screen.getByTestId('webhook-secret-close'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    expect(await screen.findByText('https://erp.example.com/hooks')).toBeTruthy();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('disables and enables an endpoint', async () => {
    webhooks = [webhook(1)];
    const id = webhooks[0]!.id;
    renderPanel();
    await user.click(await screen.findByTestId(`webhook-toggle-${id}`));
    await waitFor(() => expect(callsTo('PATCH', `/api/webhooks/${id}`)).toHaveLength(1));
    expect(callsTo('PATCH', `/api/webhooks/${id}`)[0]?.body).toEqual({ enabled: false });
    await waitFor(() => expect(within(screen.getByTestId(`webhook-row-${id}`)).getByText('Disabled')).toBeTruthy());
    expect(notificationStore.get()?.title).toBe('Endpoint disabled: no events are sent to it');

    await user.click(screen.getByTestId(`webhook-toggle-${id}`));
    await waitFor(() => expect(callsTo('PATCH', `/api/webhooks/${id}`)).toHaveLength(2));
    expect(callsTo('PATCH', `/api/webhooks/${id}`)[1]?.body).toEqual({ enabled: true });
    await waitFor(() => expect(within(screen.getByTestId(`webhook-row-${id}`)).getByText('Enabled')).toBeTruthy());
  });

  it('deletes an endpoint only after confirmation', async () => {
    webhooks = [webhook(1)];
    const id = webhooks[0]!.id;
    renderPanel();
    await user.click(await screen.findByTestId(`webhook-delete-${id}`));
    expect(screen.getByText('Delete this endpoint?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('webhook-delete-confirm'));
    expect(await screen.findByTestId('webhooks-empty')).toBeTruthy();
    expect(callsTo('DELETE', `/api/webhooks/${id}`)).toHaveLength(1);
    expect(notificationStore.get()?.title).toBe('Endpoint deleted');
  });

  it('shows the delivery log with statuses, attempts and responses, refreshes and pages', async () => {
    webhooks = [webhook(1)];
    const id = webhooks[0]!.id;
    deliveries = [
      delivery(1, {
        status: 'FAILED',
        attempts: 5,
        last_status_code: 500,
        last_error: 'Internal Server Error',
        event_type: 'credential.revoked',
      }),
      ...Array.from({ length: 10 }, (_, i) => delivery(i + 2)),
    ];
    renderPanel();
    await user.click(await screen.findByTestId(`webhook-deliveries-${id}`));
    const log = await screen.findByTestId('webhook-deliveries');
    const failed = await within(log).findByTestId(`webhook-delivery-${deliveries[0]!.id}`);
    expect(within(failed).getByText('credential.revoked')).toBeTruthy();
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('HTTP 500 · Internal Server Error')).toBeTruthy();
    expect(failed.textContent).toContain('5');
    expect(within(log).getAllByText('Succeeded').length).toBe(9);
    expect(callsTo('GET', `/api/webhooks/${id}/deliveries`).at(-1)?.search.get('page')).toBe('1');

    // A retry happened meanwhile: refresh shows it.
    deliveries[0] = { ...deliveries[0]!, status: 'SUCCEEDED', attempts: 6, last_status_code: 204, last_error: null };
    const before = callsTo('GET', `/api/webhooks/${id}/deliveries`).length;
    await user.click(screen.getByTestId('webhook-deliveries-refresh'));
    await waitFor(() => expect(within(failed).getByText('HTTP 204')).toBeTruthy());
    expect(callsTo('GET', `/api/webhooks/${id}/deliveries`).length).toBe(before + 1);

    await user.click(within(screen.getByTestId('webhook-deliveries-pagination')).getByRole('button', { name: /2/ }));
    await waitFor(() => expect(callsTo('GET', `/api/webhooks/${id}/deliveries`).at(-1)?.search.get('page')).toBe('2'));
    expect(await within(log).findByTestId(`webhook-delivery-${deliveries[10]!.id}`)).toBeTruthy();
  });

  it('sends a test event and shows it in the delivery log', async () => {
    webhooks = [webhook(1)];
    const id = webhooks[0]!.id;
    renderPanel();
    await user.click(await screen.findByTestId(`webhook-deliveries-${id}`));
    expect(await screen.findByTestId('webhook-deliveries-empty')).toBeTruthy();
    await user.click(screen.getByTestId('webhook-deliveries-test'));
    await waitFor(() => expect(callsTo('POST', `/api/webhooks/${id}/test`)).toHaveLength(1));
    const queued = await screen.findByTestId(`webhook-delivery-${delivery(99).id}`);
    expect(within(queued).getByText('Pending')).toBeTruthy();
    expect(within(queued).getByText('No response yet')).toBeTruthy();
    expect(notificationStore.get()?.title).toBe('Test event queued: check the delivery log in a moment');
  });
});

describe('WebhooksPanel layout', () => {
  afterEach(resetWindowWidth);
  const longUrl = 'https://hooks.example-university.edu/credential-platform/events/verification-completed';

  it('lists endpoints as stacked items beside the side menu of a 1024 px window', async () => {
    webhooks = [webhook(1, { url: longUrl })];
    showWindowOf(1024);
    renderPanel();
    const list = await screen.findByTestId('webhooks-table');
    expect(list.tagName).toBe('UL');
    expect(within(list).getByText(longUrl)).toBeTruthy();
  });

  it('shows a table from 1200 px, the address never narrower than its minimum and the date over its time', async () => {
    webhooks = [webhook(1, { url: longUrl })];
    showWindowOf(1280);
    renderPanel();
    const table = await screen.findByTestId('webhooks-table');
    expect(table.tagName).toBe('TABLE');
    const address = within(table).getByTestId(`webhook-url-${webhooks[0]!.id}`);
    expect(getComputedStyle(address.parentElement!.parentElement!).minWidth).toBe('190px');
    expect(within(table).getByRole('time').getAttribute('datetime')).toBe('2026-11-01T10:00:00Z');
  });
});
