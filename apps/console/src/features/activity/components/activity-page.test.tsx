import { type AuditEvent, type Organization, zAuditEvent } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { ActivityPage } from './activity-page.tsx';

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

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
let sequence = 0;
/** An event as the API answers it: parsed by the contract, so a fixture cannot drift from the API. */
const event = (extra: Partial<AuditEvent> & Pick<AuditEvent, 'action' | 'target'>): AuditEvent => {
  sequence += 1;
  return zAuditEvent.parse({
    id: `e0000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    occurred_at: minutesAgo(sequence),
    actor: { type: 'USER', id: '22222222-2222-4222-8222-222222222222', label: 'Grace Hopper' },
    details: {},
    ...extra,
  });
};

const revoked = event({
  action: 'credential.revoked',
  target: { type: 'credential', id: 'c1111111-1111-4111-8111-111111111111', label: 'Work Certificate — Kim Lee' },
  details: { credential_name: 'Work Certificate', recipient_name: 'Kim Lee' },
});
const byKey = event({
  action: 'verification.created',
  actor: { type: 'API_KEY', id: '33333333-3333-4333-8333-333333333333', label: 'CRM sync' },
  target: { type: 'verification', id: 'a1111111-1111-4111-8111-111111111111', label: 'Age check' },
  details: { type: 'MULTI' },
});
const claimed = event({
  action: 'credential.claimed',
  actor: { type: 'HOLDER', id: null, label: null },
  target: { type: 'credential', id: 'c2222222-2222-4222-8222-222222222222', label: 'Work Certificate — Ana Ruiz' },
  details: { credential_name: 'Work Certificate', recipient_name: 'Ana Ruiz' },
});
const imported = event({
  action: 'credential_import.completed',
  actor: { type: 'SYSTEM', id: null, label: null },
  target: { type: 'credential_import', id: 'd1111111-1111-4111-8111-111111111111', label: 'Work Certificate' },
  details: { total_count: 1001, succeeded_count: 1000, failed_count: 1 },
});
const rejected = event({
  action: 'kyb.rejected',
  actor: { type: 'SYSTEM', id: null, label: 'admin CLI' },
  target: { type: 'kyb_application', id: 'f1111111-1111-4111-8111-111111111111', label: 'Acme' },
  details: { reason: 'The registry extract is unreadable.' },
});
const deletedSchema = event({
  action: 'credential_schema.deleted',
  target: { type: 'credential_schema', id: 'b1111111-1111-4111-8111-111111111111', label: '<b>Bold</b> & co' },
});
const sentOne = event({
  action: 'credential.sent',
  target: { type: 'credential_schema', id: 'b2222222-2222-4222-8222-222222222222', label: 'Diploma' },
  details: { count: 1 },
});

type Call = { url: URL; headers: Headers };
let calls: Call[];
let answer: (url: URL) => Response;

beforeEach(() => {
  calls = [];
  answer = () =>
    Response.json({
      results: [revoked, byKey, claimed, imported, rejected, deletedSchema, sentOne],
      total: 7,
      total_exact: true,
      page: 1,
      limit: 10,
    });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      calls.push({ url, headers: new Headers(init.headers) });
      if (url.pathname === '/api/audit-events') return answer(url);
      return Response.json({ status: 404, code: 'NOT_FOUND' }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window, 'matchMedia');
  i18n.changeLanguage('en');
});

function renderPage(entry = '/activity') {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(
    [
      { path: '/activity', element: <ActivityPage /> },
      { path: '/verifications/edit/:id', element: <p>verification page</p> },
    ],
    { initialEntries: [entry] },
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

const requests = () => calls.filter((c) => c.url.pathname === '/api/audit-events');
const sentence = (e: AuditEvent) => screen.getByTestId(`activity-sentence-${e.id}`).textContent;

describe('ActivityPage', { timeout: 30_000 }, () => {
  it('shows who did what, newest first, as a sentence per action (phone cards and desktop table)', async () => {
    for (const layout of ['phone', 'desktop']) {
      if (layout === 'desktop') {
        cleanup();
        showDesktopLayout();
      }
      renderPage();
      const table = await screen.findByTestId('activity-table');
      expect(table.tagName).toBe(layout === 'desktop' ? 'TABLE' : 'UL');
      const rows = within(table).getAllByTestId(/^activity-row-/);
      expect(rows.map((row) => row.getAttribute('data-testid'))).toEqual(
        [revoked, byKey, claimed, imported, rejected, deletedSchema, sentOne].map((e) => `activity-row-${e.id}`),
      );
      expect(sentence(revoked)).toBe('revoked the credential Work Certificate of Kim Lee');
      expect(screen.getByTestId(`activity-actor-${revoked.id}`).textContent).toBe('GHGrace Hopper');
      expect(screen.getByTestId(`activity-actor-${byKey.id}`).textContent).toBe('CRM syncAPI key');
      expect(screen.getByTestId(`activity-actor-chip-${byKey.id}`).textContent).toBe('API key');
      expect(sentence(byKey)).toBe('created the verification Age check');
      expect(screen.getByTestId(`activity-actor-${claimed.id}`).textContent).toBe('Holder');
      expect(sentence(claimed)).toBe('added the credential Work Certificate of Ana Ruiz to a wallet');
      expect(screen.getByTestId(`activity-actor-${imported.id}`).textContent).toBe('System');
      expect(sentence(imported)).toBe(
        'finished importing Work Certificate: 1000 credentials created, 1 row with errors',
      );
      expect(screen.getByTestId(`activity-actor-${rejected.id}`).textContent).toBe(
        'SystemPlatform administrator (command line)',
      );
      expect(sentence(rejected)).toBe("rejected the organization's verification: The registry extract is unreadable.");
      expect(sentence(sentOne)).toBe('e-mailed 1 credential of Diploma to its recipient');
    }
    expect(requests()[0]?.headers.get('CurrentIdentity')).toBe(organization.id);
    expect(requests()[0]?.url.searchParams.get('limit')).toBe('10');
  });

  it('shows names typed by people as written, never as markup', async () => {
    renderPage();
    await screen.findByTestId('activity-table');
    const target = screen.getByTestId(`activity-target-${deletedSchema.id}`);
    expect(target.textContent).toBe('<b>Bold</b> & co');
    expect(target.querySelector('b')).toBeNull();
    expect(sentence(deletedSchema)).toBe('deleted the schema <b>Bold</b> & co');
  });

  it('links a target to its page, and not once the event deleted it', async () => {
    const { user, router } = renderPage();
    await screen.findByTestId('activity-table');
    expect(screen.getByTestId(`activity-target-${deletedSchema.id}`).tagName).toBe('STRONG');
    expect(screen.getByTestId(`activity-target-${revoked.id}`).tagName).toBe('STRONG');
    const link = screen.getByTestId(`activity-target-${byKey.id}`);
    expect(link.getAttribute('href')).toBe(`/verifications/edit/${byKey.target.id}`);
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/verifications/edit/${byKey.target.id}`));
  });

  it('says when relatively, with the exact instant on hover', async () => {
    const { user } = renderPage();
    await screen.findByTestId('activity-table');
    const when = screen.getByTestId(`activity-when-${revoked.id}`);
    expect(when.tagName).toBe('TIME');
    expect(when.getAttribute('datetime')).toBe(revoked.occurred_at);
    expect(when.textContent).toMatch(/minutes? ago/);
    const exact = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'medium' }).format(
      new Date(revoked.occurred_at),
    );
    expect(when.getAttribute('aria-label')).toBe(exact);
    await user.hover(when);
    expect((await screen.findByRole('tooltip')).textContent).toBe(exact);
  });

  it('sends the filters and keeps them in the URL; clearing them goes back to everything', async () => {
    const { router } = renderPage();
    await screen.findByTestId('activity-table');
    fireEvent.change(screen.getByTestId('activity-filter-category'), { target: { value: 'credentials' } });
    await waitFor(() => expect(requests().at(-1)?.url.searchParams.get('filter.action')).toBe('credentials.*'));
    fireEvent.change(screen.getByTestId('activity-filter-actor'), { target: { value: 'API_KEY' } });
    await waitFor(() => expect(requests().at(-1)?.url.searchParams.get('filter.actor_type')).toBe('API_KEY'));
    fireEvent.change(screen.getByTestId('activity-filter-from'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByTestId('activity-filter-to'), { target: { value: '2026-03-31' } });
    await waitFor(() => expect(requests().at(-1)?.url.searchParams.get('filter.to')).toBeTruthy());
    const last = requests().at(-1)!.url.searchParams;
    // The user's local days: from the start of the first to the start of the day after the last.
    expect(last.get('filter.from')).toBe(new Date(2026, 2, 1).toISOString());
    expect(last.get('filter.to')).toBe(new Date(2026, 3, 1).toISOString());
    expect(last.get('filter.action')).toBe('credentials.*');
    expect(last.get('page')).toBe('1');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      category: 'credentials',
      actor: 'API_KEY',
      from: '2026-03-01',
      to: '2026-03-31',
    });
    fireEvent.click(screen.getByTestId('activity-clear-filters'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    // Everything again (the unfiltered page is still cached from the first visit).
    await waitFor(() => expect((screen.getByTestId('activity-filter-category') as HTMLInputElement).value).toBe(''));
    expect(screen.queryByTestId('activity-clear-filters')).toBeNull();
    expect(requests().some((r) => r.url.searchParams.get('filter.action') === null)).toBe(true);
  });

  it('reads the filters and the page from the URL it opens at', async () => {
    answer = () => Response.json({ results: [revoked], total: 31, total_exact: true, page: 3, limit: 10 });
    renderPage('/activity?category=integrations&actor=USER&from=2026-01-05&page=3');
    await screen.findByTestId('activity-table');
    const first = requests()[0]!.url.searchParams;
    expect(first.get('filter.action')).toBe('integrations.*');
    expect(first.get('filter.actor_type')).toBe('USER');
    expect(first.get('filter.from')).toBe(new Date(2026, 0, 5).toISOString());
    expect(first.get('filter.to')).toBeNull();
    expect(first.get('page')).toBe('3');
    expect((screen.getByTestId('activity-filter-category') as HTMLInputElement).value).toBe('integrations');
    expect((screen.getByTestId('activity-filter-from') as HTMLInputElement).value).toBe('2026-01-05');
    expect(screen.getByTestId('activity-count').textContent).toBe('31 events');
  });

  it('says when there are more events than it counts, and still pages through them', async () => {
    answer = (url) =>
      Response.json({
        results: [revoked],
        total: 10_000,
        total_exact: false,
        page: Number(url.searchParams.get('page')),
        limit: 10,
      });
    renderPage();
    await screen.findByTestId('activity-table');
    expect(screen.getByTestId('activity-count').textContent).toBe(
      'More than 10,000 events: narrow the dates to see older ones',
    );
    expect(
      within(screen.getByTestId('activity-pagination')).getByRole('button', { name: 'Go to page 1000' }),
    ).toBeTruthy();
  });

  it('ignores filters it does not know in the URL', async () => {
    renderPage('/activity?category=everything&actor=ROBOT&from=yesterday');
    await screen.findByTestId('activity-table');
    const first = requests()[0]!.url.searchParams;
    expect([first.get('filter.action'), first.get('filter.actor_type'), first.get('filter.from')]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('pages 10 at a time', async () => {
    answer = (url) =>
      Response.json({
        results: [revoked],
        total: 25,
        total_exact: true,
        page: Number(url.searchParams.get('page')),
        limit: 10,
      });
    const { user, router } = renderPage();
    const pagination = await screen.findByTestId('activity-pagination');
    expect(within(pagination).getAllByRole('button', { name: /page \d/ })).toHaveLength(3);
    await user.click(within(pagination).getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(requests().at(-1)?.url.searchParams.get('page')).toBe('2'));
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
  });

  it('shows an empty state with no activity, and a way back when filters match nothing', async () => {
    answer = () => Response.json({ results: [], total: 0, total_exact: true, page: 1, limit: 10 });
    renderPage();
    expect(await screen.findByText('No activity yet')).toBeTruthy();
    expect(screen.queryByTestId('activity-filters')).toBeNull();
    cleanup();
    const { router } = renderPage('/activity?category=verifications');
    expect((await screen.findByTestId('activity-no-match')).textContent).toContain(
      'No activity matches these filters.',
    );
    fireEvent.click(within(screen.getByTestId('activity-no-match')).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says when the activity cannot be loaded, and tries again', async () => {
    answer = () => Response.json({ status: 500, code: 'INTERNAL' }, { status: 500 });
    const { user } = renderPage();
    const error = await screen.findByTestId('activity-error');
    expect(error.textContent).toContain('The activity could not be loaded.');
    answer = () => Response.json({ results: [revoked], total: 1, total_exact: true, page: 1, limit: 10 });
    await user.click(within(error).getByRole('button'));
    expect(await screen.findByTestId('activity-table')).toBeTruthy();
  });

  it('speaks Japanese, with the right words around the names', async () => {
    i18n.changeLanguage('ja');
    renderPage();
    await screen.findByTestId('activity-table');
    expect(sentence(revoked)).toBe('Kim Lee さんの証明書 Work Certificate を失効しました');
    expect(sentence(imported)).toBe(
      'Work Certificate の取り込みを完了しました：証明書 1000 件を作成、エラーのある行 1 件',
    );
    expect(screen.getByTestId(`activity-actor-${claimed.id}`).textContent).toBe('証明書の受取人');
    expect(screen.getByTestId(`activity-when-${revoked.id}`).textContent).toMatch(/分前/);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('アクティビティ');
  });

  it('uses Spanish plural forms', async () => {
    i18n.changeLanguage('es');
    answer = () =>
      Response.json({
        results: [sentOne, { ...sentOne, id: 'e9999999-0000-4000-8000-000000000001', details: { count: 250 } }],
        total: 2,
        total_exact: true,
        page: 1,
        limit: 10,
      });
    renderPage();
    await screen.findByTestId('activity-table');
    expect(sentence(sentOne)).toBe('envió por correo 1 credencial de Diploma a su destinatario');
    expect(screen.getByTestId('activity-sentence-e9999999-0000-4000-8000-000000000001').textContent).toBe(
      'envió por correo 250 credenciales de Diploma a sus destinatarios',
    );
    expect(screen.getByTestId('activity-count').textContent).toBe('2 eventos');
  });
});
