import type { TrustAnchor } from '@cp/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { organization, PEM, renderRoutes, trustAnchor } from './test-fixtures.tsx';
import { TrustAnchorsPage } from './trust-anchors-page.tsx';

const rootCa = trustAnchor('a1111111-1111-4111-8111-111111111111');
const nationalList = trustAnchor('a2222222-2222-4222-8222-222222222222', {
  kind: 'TRUSTED_LIST',
  name: 'National trusted list',
  subject: 'CN=List Operator,C=ES',
  certificate_pem: null,
  list_url: 'https://trust.example.org/lote.jwt',
  list_certificate_count: 12,
  list_fetched_at: '2026-11-20T08:00:00Z',
  list_error: 'HTTP 503 from trust.example.org',
});

type Call = { method: string; url: URL; headers: Headers; body: unknown };
let calls: Call[];
let anchors: TrustAnchor[];
let createAnswer: { status: number; body: unknown } | null;

beforeEach(() => {
  calls = [];
  anchors = [rootCa, nationalList];
  createAnswer = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, headers: new Headers(init.headers), body });
      if (url.pathname === '/api/trust-anchors' && method === 'GET') {
        return Response.json({ results: anchors, total: anchors.length });
      }
      if (url.pathname === '/api/trust-anchors' && method === 'POST') {
        if (createAnswer) return Response.json(createAnswer.body, { status: createAnswer.status });
        const created = trustAnchor('a3333333-3333-4333-8333-333333333333', { name: body.name });
        anchors = [...anchors, created];
        return Response.json(created, { status: 201 });
      }
      if (url.pathname === `/api/trust-anchors/${nationalList.id}/refresh` && method === 'POST') {
        return Response.json({ ...nationalList, list_error: null, list_certificate_count: 13 });
      }
      const one = url.pathname.match(/^\/api\/trust-anchors\/([^/]+)$/);
      if (one && method === 'DELETE') {
        anchors = anchors.filter((anchor) => anchor.id !== one[1]);
        return new Response(null, { status: 204 });
      }
      return Response.json({ status: 404, code: 'NOT_FOUND' }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window, 'matchMedia');
  i18n.changeLanguage('en');
});

const renderPage = () => renderRoutes([{ path: '/trust-anchors', element: <TrustAnchorsPage /> }], '/trust-anchors');
const posts = () => calls.filter((c) => c.method === 'POST');

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

describe('TrustAnchorsPage', { timeout: 30_000 }, () => {
  it('lists the anchors with kind, subject, short fingerprint, expiry and the list’s state (phone and desktop)', async () => {
    for (const layout of ['phone', 'desktop']) {
      if (layout === 'desktop') {
        cleanup();
        showDesktopLayout();
      }
      renderPage();
      const table = await screen.findByTestId('trust-anchors-table');
      expect(table.tagName).toBe(layout === 'desktop' ? 'TABLE' : 'UL');
      const ca = within(table).getByTestId(`trust-anchor-row-${rootCa.id}`);
      expect(ca.textContent).toContain('Example Root CA');
      expect(within(ca).getByTestId(`trust-anchor-kind-${rootCa.id}`).textContent).toBe('CA certificate');
      expect(within(ca).getByTestId(`trust-anchor-subject-${rootCa.id}`).textContent).toBe(
        'CN=Example Root CA,O=Example,C=JP',
      );
      expect(within(ca).getByTestId(`trust-anchor-fingerprint-${rootCa.id}`).textContent).toBe(
        '3F:A2:19:0C…E6:67:7A:B1',
      );
      expect(within(ca).getByTestId(`trust-anchor-expires-${rootCa.id}`).textContent).toBe('May 1, 2031');

      const list = within(table).getByTestId(`trust-anchor-row-${nationalList.id}`);
      expect(within(list).getByTestId(`trust-anchor-kind-${nationalList.id}`).textContent).toBe('Trusted list');
      expect(list.textContent).toContain('https://trust.example.org/lote.jwt');
      const state = within(list).getByTestId(`trust-anchor-list-${nationalList.id}`);
      expect(state.textContent).toContain('12 certificates in the list');
      expect(state.textContent).toContain('Last read Nov 20, 2026');
      expect(within(state).getByTestId(`trust-anchor-list-error-${nationalList.id}`).textContent).toBe(
        'Last read failed: HTTP 503 from trust.example.org',
      );
    }
    const list = calls.find((c) => c.url.pathname === '/api/trust-anchors');
    expect(list?.headers.get('CurrentIdentity')).toBe(organization.id);
  });

  it('copies the whole fingerprint', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`trust-anchor-copy-fingerprint-${rootCa.id}`));
    expect(await navigator.clipboard.readText()).toBe(`3F:A2:19:0C:${Array(24).fill('11').join(':')}:E6:67:7A:B1`);
  });

  it('adds a CA certificate; the API’s reason for refusing one shows under the certificate', async () => {
    createAnswer = {
      status: 422,
      body: {
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        code: 'TRUST_ANCHOR_INVALID',
        detail: 'Not a CA certificate (basicConstraints cA is false)',
        errors: [{ path: 'certificate_pem', message: 'Not a CA certificate (basicConstraints cA is false)' }],
      },
    };
    const { user } = renderPage();
    await user.click(await screen.findByTestId('trust-anchor-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a trust anchor' });
    // Checked before sending: a name and one PEM certificate.
    await user.click(within(dialog).getByTestId('trust-anchor-save'));
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));
    expect(posts()).toHaveLength(0);
    await user.click(within(dialog).getByTestId('trust-anchor-certificate'));
    await user.paste('not a certificate');
    await user.click(within(dialog).getByTestId('trust-anchor-save'));
    expect(
      await within(dialog).findByText(
        'Must be one PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)',
      ),
    ).toBeTruthy();
    expect(posts()).toHaveLength(0);

    await user.click(within(dialog).getByTestId('trust-anchor-name'));
    await user.paste('Leaf, not a CA');
    await user.clear(within(dialog).getByTestId('trust-anchor-certificate'));
    await user.click(within(dialog).getByTestId('trust-anchor-certificate'));
    await user.paste(PEM);
    await user.click(within(dialog).getByTestId('trust-anchor-save'));
    const refusal = await within(dialog).findByText(/Not a CA certificate/);
    expect(refusal.textContent).toBe(
      'This certificate cannot be a trust anchor.\nNot a CA certificate (basicConstraints cA is false)',
    );
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.body).toEqual({ kind: 'CERTIFICATE', name: 'Leaf, not a CA', certificate_pem: PEM });
    expect(posts()[0]?.headers.get('CurrentIdentity')).toBe(organization.id);
    // What was typed stays.
    expect((within(dialog).getByTestId('trust-anchor-name') as HTMLInputElement).value).toBe('Leaf, not a CA');

    createAnswer = null;
    await user.clear(within(dialog).getByTestId('trust-anchor-name'));
    await user.click(within(dialog).getByTestId('trust-anchor-name'));
    await user.paste('Acme Issuing CA');
    await user.click(within(dialog).getByTestId('trust-anchor-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByTestId('trust-anchor-row-a3333333-3333-4333-8333-333333333333')).toBeTruthy();
    expect(notificationStore.get()?.title).toBe('Trust anchor “Acme Issuing CA” added');
  });

  it('adds a trusted list by URL with its operator’s signing certificate; a duplicate says so', async () => {
    createAnswer = {
      status: 409,
      body: { type: 'about:blank', title: 'Conflict', status: 409, code: 'TRUST_ANCHOR_DUPLICATE' },
    };
    const { user } = renderPage();
    await user.click(await screen.findByTestId('trust-anchor-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a trust anchor' });
    await user.click(within(dialog).getByTestId('trust-anchor-kind-TRUSTED_LIST'));
    await user.click(within(dialog).getByTestId('trust-anchor-name'));
    await user.paste('National trusted list');
    await user.click(within(dialog).getByTestId('trust-anchor-list-url'));
    await user.paste('https://trust.example.org/lote.jwt');
    await user.click(within(dialog).getByTestId('trust-anchor-signer-certificate'));
    await user.paste(PEM);
    await user.click(within(dialog).getByTestId('trust-anchor-save'));
    expect(await within(dialog).findByText('This list is already one of your trust anchors.')).toBeTruthy();
    expect(posts()[0]?.body).toEqual({
      kind: 'TRUSTED_LIST',
      name: 'National trusted list',
      list_url: 'https://trust.example.org/lote.jwt',
      signer_certificate_pem: PEM,
    });
  });

  it('says when the limit is reached', async () => {
    createAnswer = {
      status: 409,
      body: { type: 'about:blank', title: 'Conflict', status: 409, code: 'TRUST_ANCHOR_LIMIT_REACHED' },
    };
    const { user } = renderPage();
    await user.click(await screen.findByTestId('trust-anchor-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a trust anchor' });
    await user.click(within(dialog).getByTestId('trust-anchor-name'));
    await user.paste('One too many');
    await user.click(within(dialog).getByTestId('trust-anchor-certificate'));
    await user.paste(PEM);
    await user.click(within(dialog).getByTestId('trust-anchor-save'));
    expect((await within(dialog).findByTestId('trust-anchor-form-error')).textContent).toBe(
      'You have reached the limit of trust anchors. Remove one to add another.',
    );
  });

  it('removes an anchor only after the confirmation, with DELETE trust-anchors/{id}', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByTestId(`trust-anchor-delete-${rootCa.id}`));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this trust anchor?' });
    expect(dialog.textContent).toContain('“Example Root CA”');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByTestId('trust-anchor-delete-confirm'));
    await waitFor(() => expect(screen.queryByTestId(`trust-anchor-row-${rootCa.id}`)).toBeNull());
    const removal = calls.filter((c) => c.method === 'DELETE');
    expect(removal).toHaveLength(1);
    expect(removal[0]?.url.pathname).toBe(`/api/trust-anchors/${rootCa.id}`);
    expect(removal[0]?.headers.get('CurrentIdentity')).toBe(organization.id);
    expect(notificationStore.get()?.title).toBe('Trust anchor removed');
    expect(screen.getByTestId(`trust-anchor-row-${nationalList.id}`)).toBeTruthy();
  });

  it('reads a trusted list again on request (a CA certificate has nothing to read)', async () => {
    const { user } = renderPage();
    expect(await screen.findByTestId(`trust-anchor-refresh-${nationalList.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`trust-anchor-refresh-${rootCa.id}`)).toBeNull();
    await user.click(screen.getByTestId(`trust-anchor-refresh-${nationalList.id}`));
    await waitFor(() => expect(notificationStore.get()?.title).toBe('“National trusted list” read again'));
    expect(posts().map((c) => c.url.pathname)).toEqual([`/api/trust-anchors/${nationalList.id}/refresh`]);
  });

  it('shows an empty state that invites to add the first anchor', async () => {
    anchors = [];
    renderPage();
    const empty = await screen.findByTestId('trust-anchors-empty');
    expect(empty.textContent).toContain('No trust anchors yet');
    expect(within(empty).getByTestId('trust-anchor-add')).toBeTruthy();
  });
});
