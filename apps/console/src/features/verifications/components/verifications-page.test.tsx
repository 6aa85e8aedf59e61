import type { Verification, VerificationIndividual } from '@cp/contracts';
import { focusManager } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { VERIFICATIONS_REFRESH_MS } from '../api/find-verifications.ts';
import {
  individual,
  membership,
  organization,
  renderRoutes,
  verification,
  workCertificateReference,
} from './test-fixtures.tsx';
import { VerificationsPage } from './verifications-page.tsx';

const reusable = verification('55555555-5555-4555-8555-555555555555', { name: 'Age check' });
const used = verification('66666666-6666-4666-8666-666666666666', {
  name: 'Locker key',
  type: 'SINGLE',
  status: 'COMPLETED',
  user: null,
  usage: { total: 1, verified: 1, failed: 0 },
});

let calls: { method: string; url: URL; headers: Headers }[];
let lists: Record<'SINGLE' | 'MULTI', Verification[]>;
let listStatus: number;
let deleteStatus: number;
let individuals: VerificationIndividual[];
let linkSecret: string;
/** List answers wait until both lists have been asked for: a sequential page would never load. */
let bothAsked: Promise<void>;
let markAsked: (type: string) => void;

beforeEach(() => {
  calls = [];
  lists = { MULTI: [reusable], SINGLE: [used] };
  listStatus = 200;
  deleteStatus = 204;
  individuals = [];
  linkSecret = 'first-secret-0123456789abcdef';
  const asked = new Set<string>();
  let release: () => void = () => {};
  bothAsked = new Promise((resolve) => {
    release = resolve;
  });
  markAsked = (type) => {
    asked.add(type);
    if (asked.has('SINGLE') && asked.has('MULTI')) release();
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({ method, url, headers: new Headers(init.headers) });
      if (method === 'GET' && url.pathname === '/api/verifications') {
        const type = url.searchParams.get('type') as 'SINGLE' | 'MULTI';
        markAsked(type);
        await bothAsked;
        if (listStatus !== 200) return Response.json({ status: listStatus, code: 'X' }, { status: listStatus });
        const results = lists[type];
        return Response.json({ results, total: results.length, page: Number(url.searchParams.get('page')), limit: 10 });
      }
      const history = url.pathname.match(/^\/api\/verifications\/([^/]+)\/individuals$/);
      if (method === 'GET' && history) {
        return Response.json({
          results: individuals,
          total: individuals.length,
          page: Number(url.searchParams.get('page')),
          limit: 10,
        });
      }
      if (url.pathname === `/api/verifications/${reusable.id}/link-secret`) {
        if (method === 'POST') linkSecret = 'rotated-secret-0123456789abcdef';
        return Response.json({ secret: linkSecret }, { headers: { 'cache-control': 'no-store' } });
      }
      if (method === 'DELETE') {
        if (deleteStatus !== 204) return Response.json({ status: deleteStatus, code: 'X' }, { status: deleteStatus });
        lists.MULTI = lists.MULTI.filter((v) => !url.pathname.endsWith(v.id));
        lists.SINGLE = lists.SINGLE.filter((v) => !url.pathname.endsWith(v.id));
        return new Response(null, { status: 204 });
      }
      return Response.json({ status: 404, code: 'NOT_FOUND' }, { status: 404 });
    }),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  i18n.changeLanguage('en');
});

const renderPage = (entry = '/verifications', org = organization) =>
  renderRoutes(
    [
      { path: '/verifications', element: <VerificationsPage /> },
      { path: '/verifications/create', element: <p>create form</p> },
      { path: '/verifications/edit/:id', element: <p>edit form</p> },
    ],
    entry,
    org,
  );

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

describe('VerificationsPage', { timeout: 30_000 }, () => {
  it("shows a platform schema's name in the user's language and an organization's own as written (ja)", async () => {
    const platform = verification('77777777-7777-4777-8777-777777777701', {
      name: '在職確認',
      schema: workCertificateReference,
    });
    const own = verification('77777777-7777-4777-8777-777777777702', {
      schema: { ...reusable.schema!, slug: membership.slug, deleteable: true },
    });
    // An answer from an API without the slug and the flag: shown as written.
    const older = verification('77777777-7777-4777-8777-777777777703', {
      schema: { id: workCertificateReference.id, name: 'Work Certificate', attributes: [] },
    });
    lists.MULTI = [platform, own, older];
    i18n.changeLanguage('ja');
    try {
      for (const layout of ['phone', 'desktop']) {
        if (layout === 'desktop') {
          cleanup();
          showDesktopLayout();
        }
        renderPage();
        const table = await screen.findByTestId('verifications-table-MULTI');
        expect(table.tagName).toBe(layout === 'desktop' ? 'TABLE' : 'UL');
        const platformRow = within(table).getByTestId(`verification-row-${platform.id}`);
        expect(platformRow.textContent).toContain('在職証明書');
        expect(platformRow.textContent).not.toContain('Work Certificate');
        expect(within(table).getByTestId(`verification-row-${own.id}`).textContent).toContain('Membership');
        expect(within(table).getByTestId(`verification-row-${older.id}`).textContent).toContain('Work Certificate');
      }
    } finally {
      Reflect.deleteProperty(window, 'matchMedia');
    }
  });

  it('loads the reusable and the single-use lists together (page 1, 10 each) and shows their rows', async () => {
    const { user } = renderPage();
    const row = await screen.findByTestId(`verification-row-${reusable.id}`);
    const listCalls = calls.filter((c) => c.url.pathname === '/api/verifications');
    expect(listCalls.map((c) => c.url.searchParams.get('type')).sort()).toEqual(['MULTI', 'SINGLE']);
    for (const call of listCalls) {
      expect(call.url.searchParams.get('page')).toBe('1');
      expect(call.url.searchParams.get('limit')).toBe('10');
      expect(call.headers.get('CurrentIdentity')).toBe(organization.id);
    }
    expect(row.textContent).toContain('Age check');
    expect(row.textContent).toContain(reusable.present_id);
    expect(row.textContent).toContain('Ada Lovelace');
    expect(within(row).getByTestId(`verification-usage-${reusable.id}`).textContent).toBe(
      '5 attempts3 verified · 2 failed',
    );
    expect(screen.getByTestId(`verification-edit-${reusable.id}`).getAttribute('href')).toBe(
      `/verifications/edit/${reusable.id}`,
    );
    expect(screen.getByTestId('verifications-tab-SINGLE').textContent).toBe('Single-use1');

    await user.click(screen.getByTestId('verifications-tab-SINGLE'));
    const usedRow = await screen.findByTestId(`verification-row-${used.id}`);
    expect(within(usedRow).getByTestId(`verification-status-${used.id}`).textContent).toBe('Used');
    expect(usedRow.textContent).toContain('Integration');
    expect(screen.queryByTestId(`verification-row-${reusable.id}`)).toBeNull();
    // Switching tabs is not a new load: both lists came at once.
    expect(calls.filter((c) => c.url.pathname === '/api/verifications')).toHaveLength(2);
  });

  it('deletes only after the confirmation, with DELETE verifications/{id}', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`verification-delete-${reusable.id}`));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete this verification?');
    expect(dialog.textContent).toContain('“Age check”');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByTestId('verification-delete-confirm'));
    await waitFor(() => expect(screen.queryByTestId(`verification-row-${reusable.id}`)).toBeNull());
    const removal = calls.filter((c) => c.method === 'DELETE');
    expect(removal).toHaveLength(1);
    expect(removal[0]?.url.pathname).toBe(`/api/verifications/${reusable.id}`);
    expect(removal[0]?.headers.get('CurrentIdentity')).toBe(organization.id);
    expect(notificationStore.get()?.title).toBe('Verification deleted');
  });

  it('keeps the row when the deletion is cancelled or fails', async () => {
    deleteStatus = 500;
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`verification-delete-${reusable.id}`));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId(`verification-delete-${reusable.id}`));
    await user.click(await screen.findByTestId('verification-delete-confirm'));
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Error in deleting verification'));
    expect(screen.getByTestId(`verification-row-${reusable.id}`)).toBeTruthy();
  });

  it('copies the holder link and shows it as a QR code', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`verification-copy-${reusable.id}`));
    const expected = `${window.location.origin}/connect/redirect/${reusable.id}`;
    expect(await navigator.clipboard.readText()).toBe(expected);
    expect(notificationStore.get()?.title).toBe('Link copied to clipboard');

    await user.click(screen.getByTestId(`verification-qr-${reusable.id}`));
    const dialog = await screen.findByTestId('verification-qr-dialog');
    expect(within(dialog).getByTestId('verification-qr-code').getAttribute('data-value')).toBe(expected);
    expect(within(dialog).getByTestId('verification-qr-code').querySelector('svg')).toBeTruthy();
    expect(within(dialog).getByTestId('verification-qr-link').textContent).toBe(expected);
  });

  it('shows the empty state with a create button when there is no verification at all', async () => {
    lists = { MULTI: [], SINGLE: [] };
    renderPage();
    const empty = await screen.findByTestId('verifications-empty');
    expect(empty.textContent).toContain('No verifications yet');
    expect(within(empty).getByRole('link', { name: 'Create verification' }).getAttribute('href')).toBe(
      '/verifications/create',
    );
  });

  it("shows 'error in get verifications API call' when the lists cannot be loaded", async () => {
    listStatus = 403;
    renderPage();
    expect((await screen.findByTestId('verifications-error')).textContent).toContain(
      'error in get verifications API call',
    );
    await waitFor(() => expect(notificationStore.get()?.title).toBe('error in get verifications API call'));
  });

  it('shows the history with presented claims and failed checks in plain words', async () => {
    individuals = [
      individual('77777777-7777-4777-8777-777777777777', {
        customer_id: '1111-2222-3333',
        status: 'FAILED',
        presented_claims: { age: 17, is_member: true },
        checks: [
          { code: 'ISSUER_SIGNATURE', passed: true },
          { code: 'STATUS', passed: false, detail: 'status list bit set' },
          {
            code: 'RULE',
            passed: false,
            rule: { attribute: 'age', operator: 'BIGGER', value: '18', presented: 17 },
          },
        ],
        validation_error: 'STATUS',
      }),
      individual('88888888-8888-4888-8888-888888888888', {
        customer_id: '4444-5555-6666',
        status: 'VERIFIED',
        presented_claims: { age: 30 },
        checks: [{ code: 'RULE', passed: true }],
      }),
    ];
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`verification-history-${reusable.id}`));
    const history = await screen.findByTestId('verification-history-list');
    const historyCall = calls.find((c) => c.url.pathname.endsWith('/individuals'));
    expect(historyCall?.url.pathname).toBe(`/api/verifications/${reusable.id}/individuals`);
    expect(historyCall?.url.searchParams.get('page')).toBe('1');
    expect(historyCall?.url.searchParams.get('limit')).toBe('10');

    const failed = within(history).getByTestId('individual-77777777-7777-4777-8777-777777777777');
    expect(failed.textContent).toContain('1111-2222-3333');
    expect(within(failed).getByTestId('individual-status-77777777-7777-4777-8777-777777777777').textContent).toBe(
      'Failed',
    );
    const claims = within(failed).getByTestId('individual-claims-77777777-7777-4777-8777-777777777777');
    expect(claims.textContent).toBe('age17is_memberTrue');
    const reasons = within(failed).getByTestId('individual-failures-77777777-7777-4777-8777-777777777777');
    const messages = within(reasons)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(messages).toEqual([
      'The credential has been revoked or suspended by its issuer.',
      'age must be greater than 18 (presented: 17)',
    ]);

    const verified = within(history).getByTestId('individual-88888888-8888-4888-8888-888888888888');
    expect(verified.textContent).toContain('Verified');
    expect(within(verified).queryByTestId('individual-failures-88888888-8888-4888-8888-888888888888')).toBeNull();

    // In the user's language.
    i18n.changeLanguage('ja');
    await waitFor(() =>
      expect(within(reasons).getAllByRole('listitem')[1]?.textContent).toBe(
        'age は 18 より大きい必要があります（提示された値: 17）',
      ),
    );
  });
  it('names another issuer’s credential type by its vct in the list', async () => {
    const external = verification('77777777-7777-4777-8777-777777777704', {
      name: 'Residence',
      schema: null,
      credential: {
        format: 'dc+sd-jwt',
        vct_values: ['urn:eudi:pid:1', 'https://issuer.example.com/pid'],
        claims: [{ name: 'country', path: ['address', 'country'], type: 'TEXT' }],
      },
      attributes: [],
      requested_attribute_ids: [],
      requested_claims: ['country'],
    });
    lists.MULTI = [external];
    renderPage();
    const row = await screen.findByTestId(`verification-row-${external.id}`);
    expect(row.textContent).toContain('urn:eudi:pid:1 +1 · another issuer');
  });

  it('shows why each issuer was admitted or refused, and whether the customer id is vouched for', async () => {
    individuals = [
      individual('77777777-7777-4777-8777-777777777777', {
        customer_id: 'crm-4711',
        customer_verified: true,
        issuer: 'https://issuer.example.com',
        presented_claims: { age: 30 },
        issuer_trust: {
          admitted: true,
          reason: 'TRUST_ANCHOR',
          detail: 'Admitted: certified by Example Root CA',
          policy: 'TRUST_ANCHORS',
          key_source: 'x5c',
          certificate: {
            subject: 'CN=issuer.example.com',
            anchor: { subject: 'CN=Example Root CA', name: 'Example Root CA', origin: 'ORGANIZATION' },
          },
          organization: null,
        },
      }),
      individual('88888888-8888-4888-8888-888888888888', {
        customer_id: '4444-5555-6666',
        status: 'FAILED',
        issuer: 'did:web:stranger.example',
        issuer_trust: {
          admitted: false,
          reason: 'NOT_A_PLATFORM_ORGANIZATION',
          detail: 'Refused: did:web:stranger.example is not an organization of this platform',
          policy: 'PLATFORM_VERIFIED',
          key_source: 'did',
          certificate: null,
          organization: null,
        },
        checks: [{ code: 'TRUSTED_ISSUER', passed: false }],
        validation_error: 'TRUSTED_ISSUER',
      }),
      individual('99999999-9999-4999-8999-999999999999', {
        customer_id: '1111-2222-3333',
        issuer: 'https://acme.example/orgs/1',
        issuer_trust: {
          admitted: true,
          reason: 'SOMETHING_NEW',
          detail: 'Admitted: a reason this console does not know yet',
          policy: 'PLATFORM_VERIFIED',
          key_source: 'metadata',
          certificate: null,
          organization: { id: organization.id, name: 'Acme', verified: true },
        },
      }),
    ];
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`verification-history-${reusable.id}`));
    await screen.findByTestId('verification-history-list');

    const admitted = screen.getByTestId('individual-trust-77777777-7777-4777-8777-777777777777');
    expect(admitted.getAttribute('data-admitted')).toBe('true');
    expect(admitted.textContent).toContain('Issuer admitted');
    expect(screen.getByTestId('individual-trust-reason-77777777-7777-4777-8777-777777777777').textContent).toBe(
      "Admitted because the issuer's certificate is certified by Example Root CA.",
    );
    expect(screen.getByTestId('individual-trust-key-77777777-7777-4777-8777-777777777777').textContent).toBe(
      'Certificate chain · CN=issuer.example.com',
    );
    expect(screen.getByTestId('individual-trust-anchor-77777777-7777-4777-8777-777777777777').textContent).toBe(
      'Example Root CA',
    );
    const vouched = screen.getByTestId('individual-customer-verified-77777777-7777-4777-8777-777777777777');
    expect(vouched.textContent).toBe('Verified customer');

    const refused = screen.getByTestId('individual-trust-88888888-8888-4888-8888-888888888888');
    expect(refused.getAttribute('data-admitted')).toBe('false');
    expect(refused.textContent).toContain('Issuer refused');
    expect(screen.getByTestId('individual-trust-reason-88888888-8888-4888-8888-888888888888').textContent).toBe(
      'Refused because did:web:stranger.example is not an organization of this platform.',
    );
    expect(screen.getByTestId('individual-trust-key-88888888-8888-4888-8888-888888888888').textContent).toBe(
      'DID document',
    );
    expect(screen.getByTestId('individual-customer-verified-88888888-8888-4888-8888-888888888888').textContent).toBe(
      'Unverified label',
    );

    // A reason this console does not know: the API's own words.
    expect(screen.getByTestId('individual-trust-reason-99999999-9999-4999-8999-999999999999').textContent).toBe(
      'Admitted: a reason this console does not know yet',
    );
    expect(screen.getByTestId('individual-trust-organization-99999999-9999-4999-8999-999999999999').textContent).toBe(
      'Acme · verified on this platform',
    );

    i18n.changeLanguage('ja');
    await waitFor(() =>
      expect(screen.getByTestId('individual-trust-reason-77777777-7777-4777-8777-777777777777').textContent).toBe(
        '発行者の証明書が Example Root CA によって認証されているため、受け入れました。',
      ),
    );
  });

  it('keeps the link secret (an integration secret) from members: the QR dialog shows the link only', async () => {
    const { user } = renderPage('/verifications', { ...organization, role: 'member' });
    await user.click(await screen.findByTestId(`verification-qr-${reusable.id}`));
    expect(await screen.findByTestId('verification-qr-dialog')).toBeTruthy();
    expect(screen.queryByTestId('verification-link-secret')).toBeNull();
    expect(calls.filter((c) => c.url.pathname.endsWith('/link-secret'))).toHaveLength(0);
  });

  it('reveals the link secret only on request, and replaces it after a confirmation', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`verification-qr-${reusable.id}`));
    const panel = await screen.findByTestId('verification-link-secret');
    const secretCalls = () => calls.filter((c) => c.url.pathname.endsWith('/link-secret'));
    expect(secretCalls()).toHaveLength(0);
    expect(within(panel).getByTestId('link-secret-recipe').textContent).toContain(
      `signature = base64url(HMAC-SHA256(secret, "${reusable.id}.{customer}.{expires}"))`,
    );
    expect(within(panel).getByTestId('link-secret-recipe').textContent).toContain(
      `${window.location.origin}/connect/redirect/${reusable.id}?customer={customer}&expires={unix seconds}`,
    );

    await user.click(within(panel).getByTestId('link-secret-reveal'));
    expect((await within(panel).findByTestId('link-secret-value')).textContent).toBe(linkSecret);
    expect(secretCalls()[0]?.method).toBe('GET');
    expect(secretCalls()[0]?.headers.get('CurrentIdentity')).toBe(organization.id);
    await user.click(within(panel).getByTestId('link-secret-copy'));
    expect(await navigator.clipboard.readText()).toBe('first-secret-0123456789abcdef');

    await user.click(within(panel).getByTestId('link-secret-rotate'));
    const confirm = await screen.findByRole('dialog', { name: 'Replace the link secret?' });
    expect(confirm.textContent).toContain('Links signed with the current secret stop vouching for their customers');
    expect(secretCalls().some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(confirm).getByTestId('link-secret-rotate-confirm'));
    await waitFor(() =>
      expect(within(panel).getByTestId('link-secret-value').textContent).toBe('rotated-secret-0123456789abcdef'),
    );
    expect(secretCalls().filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(notificationStore.get()?.title).toBe('Link secret replaced');
  });
});

describe('VerificationsPage usage counts', { timeout: 30_000 }, () => {
  const fresh = { total: 0, verified: 0, failed: 0 };
  const usageOf = (id: string) => screen.getByTestId(`verification-usage-${id}`).textContent;
  const listCalls = () => calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/verifications').length;
  /** A holder completes an attempt on their phone: the API now counts it. */
  const holderVerifies = () => {
    lists.MULTI = [{ ...reusable, usage: { total: 1, verified: 1, failed: 0 } }];
  };

  beforeEach(() => {
    lists.MULTI = [{ ...reusable, usage: fresh }];
  });
  afterEach(() => {
    vi.useRealTimers();
    focusManager.setFocused(undefined);
  });

  it('shows the new counts once the QR dialog is closed, without a reload', async () => {
    const { user } = renderPage();
    await screen.findByTestId(`verification-row-${reusable.id}`);
    expect(usageOf(reusable.id)).toContain('0 attempts');
    await user.click(screen.getByTestId(`verification-qr-${reusable.id}`));
    const dialog = await screen.findByTestId('verification-qr-dialog');
    holderVerifies();
    await user.click(within(dialog.closest('[role="dialog"]') as HTMLElement).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(usageOf(reusable.id)).toContain('1 attempt'));
    expect(usageOf(reusable.id)).toContain('1 verified');
  });

  it('shows the new counts once the history is closed', async () => {
    const { user } = renderPage();
    await screen.findByTestId(`verification-row-${reusable.id}`);
    await user.click(screen.getByTestId(`verification-history-${reusable.id}`));
    await screen.findByTestId('verification-history');
    holderVerifies();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(usageOf(reusable.id)).toContain('1 attempt'));
  });

  it('asks again on an interval while the page is visible, and not while it is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPage();
    await screen.findByTestId(`verification-row-${reusable.id}`);
    const before = listCalls();
    holderVerifies();
    await act(() => vi.advanceTimersByTimeAsync(VERIFICATIONS_REFRESH_MS + 100));
    await waitFor(() => expect(usageOf(reusable.id)).toContain('1 attempt'));
    expect(listCalls()).toBeGreaterThan(before);

    // Another tab in front: no calls until the page is visible again.
    act(() => focusManager.setFocused(false));
    const hidden = listCalls();
    await act(() => vi.advanceTimersByTimeAsync(VERIFICATIONS_REFRESH_MS * 3));
    expect(listCalls()).toBe(hidden);
    act(() => focusManager.setFocused(true));
    await waitFor(() => expect(listCalls()).toBeGreaterThan(hidden));
  });
});
