import type { Invitation, Member } from '@cp/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { MembersPage } from './members-page.tsx';
import {
  invitation,
  ME,
  member,
  organizationAs,
  problem,
  profile,
  renderRoutes,
  showDesktopLayout,
} from './test-fixtures.tsx';

const GRACE = 'b0000000-0000-4000-8000-000000000002';
const LINUS = 'c0000000-0000-4000-8000-000000000003';
const INVITE = 'd0000000-0000-4000-8000-000000000004';
const base = '/api/organizations/11111111-1111-4111-8111-111111111111';

type Call = { method: string; url: URL; headers: Headers; body: unknown };
let calls: Call[];
let members: Member[];
let invitations: Invitation[];
let patchAnswer: Response | null;

beforeEach(() => {
  calls = [];
  patchAnswer = null;
  members = [
    member(ME, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', role: 'admin' }),
    member(GRACE),
    member(LINUS, { first_name: 'Linus', last_name: 'T', email: 'linus@example.com', source: 'provider' }),
  ];
  invitations = [invitation(INVITE)];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, headers: new Headers(init.headers), body });
      const path = url.pathname;
      if (path === '/api/users') return Response.json(profile);
      if (path === `${base}/members` && method === 'GET') {
        return Response.json({ results: members, total: members.length, page: 1, limit: 10 });
      }
      const one = path.match(/\/members\/([^/]+)$/);
      if (one && method === 'PATCH') {
        if (patchAnswer) return patchAnswer;
        members = members.map((m) => (m.user_id === one[1] ? { ...m, role: body.role } : m));
        return Response.json(members.find((m) => m.user_id === one[1]));
      }
      if (one && method === 'DELETE') {
        members = members.filter((m) => m.user_id !== one[1]);
        return new Response(null, { status: 204 });
      }
      if (path === `${base}/invitations` && method === 'GET') {
        return Response.json({ results: invitations, total: invitations.length, page: 1, limit: 10 });
      }
      if (path === `${base}/invitations/${INVITE}/resend` && method === 'POST') {
        return Response.json({ ...invitations[0], url: 'http://localhost/invitations/NEWTOKEN' });
      }
      if (path === `${base}/invitations/${INVITE}` && method === 'DELETE') {
        invitations = [];
        return new Response(null, { status: 204 });
      }
      return problem(404, 'NOT_FOUND');
    }),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window, 'matchMedia');
  await changeLanguage('en');
});

const renderAs = (role: 'admin' | 'member') =>
  renderRoutes(
    [
      { path: '/', element: <p>home</p> },
      { path: '/members', element: <MembersPage /> },
    ],
    '/members',
    organizationAs(role),
  );
const callsTo = (method: string, suffix: string) =>
  calls.filter((c) => c.method === method && c.url.pathname === `${base}${suffix}`);

describe('MembersPage for an admin', { timeout: 30_000 }, () => {
  it('lists the team with roles, "You" and the pending invitations, as a table or as cards', async () => {
    for (const layout of ['phone', 'desktop']) {
      if (layout === 'desktop') {
        cleanup();
        showDesktopLayout();
      }
      renderAs('admin');
      const table = await screen.findByTestId('members-table');
      expect(table.tagName).toBe(layout === 'desktop' ? 'TABLE' : 'UL');
      const mine = await within(table).findByTestId(`member-row-${ME}`);
      expect(within(mine).getByTestId('member-you').textContent).toBe('You');
      expect(within(mine).getByTestId('member-leave')).toBeTruthy();
      expect(within(mine).queryByTestId(`member-remove-${ME}`)).toBeNull();
      const grace = within(table).getByTestId(`member-row-${GRACE}`);
      expect(grace.textContent).toContain('Grace Hopper');
      expect(grace.textContent).toContain('grace@example.com');
      expect(within(grace).getByTestId(`member-role-${GRACE}`).textContent).toBe('Member');
      expect(within(grace).getByTestId(`member-remove-${GRACE}`)).toBeTruthy();
      expect(screen.getByTestId('members-count').textContent).toBe('3 members');
      const pending = await screen.findByTestId('invitations-table');
      const row = within(pending).getByTestId(`invitation-row-${INVITE}`);
      expect(row.textContent).toContain('new.hire@example.com');
      expect(row.textContent).toContain(layout === 'desktop' ? 'Nov 27, 2026' : 'Expires Nov 27, 2026');
      expect(screen.getByTestId('members-invite')).toBeTruthy();
    }
    const list = callsTo('GET', '/members')[0];
    expect(list?.headers.get('CurrentIdentity')).toBe('11111111-1111-4111-8111-111111111111');
    expect(list?.url.searchParams.get('limit')).toBe('10');
  });

  it("changes a member's role", async () => {
    showDesktopLayout();
    const { user } = renderAs('admin');
    await user.click(await screen.findByTestId(`member-role-${GRACE}`));
    await user.click(await screen.findByTestId('role-option-admin'));
    await waitFor(() => expect(callsTo('PATCH', `/members/${GRACE}`)).toHaveLength(1));
    expect(callsTo('PATCH', `/members/${GRACE}`)[0]?.body).toEqual({ role: 'admin' });
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Grace Hopper is now Admin'));
  });

  it('asks before an admin steps down, and says why the last admin cannot', async () => {
    showDesktopLayout();
    patchAnswer = problem(409, 'ORGANIZATION_LAST_ADMIN');
    const { user } = renderAs('admin');
    await user.click(await screen.findByTestId(`member-role-${ME}`));
    await user.click(await screen.findByTestId('role-option-member'));
    const dialog = await screen.findByRole('dialog', { name: 'Give up your admin role?' });
    expect(callsTo('PATCH', `/members/${ME}`)).toHaveLength(0);
    await user.click(within(dialog).getByTestId('members-confirm'));
    await waitFor(() =>
      expect(notificationStore.get()?.title).toBe(
        'An organization needs at least one admin. Make someone else an admin first.',
      ),
    );
    expect(callsTo('PATCH', `/members/${ME}`)[0]?.body).toEqual({ role: 'member' });
  });

  it('removes a member after confirming', async () => {
    const { user } = renderAs('admin');
    await user.click(await screen.findByTestId(`member-remove-${LINUS}`));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Linus T?' });
    expect(within(dialog).getByText(/will lose access to Acme immediately/)).toBeTruthy();
    await user.click(within(dialog).getByTestId('members-confirm'));
    await waitFor(() => expect(screen.queryByTestId(`member-row-${LINUS}`)).toBeNull());
    expect(callsTo('DELETE', `/members/${LINUS}`)).toHaveLength(1);
    expect(notificationStore.get()?.title).toBe('Linus T was removed');
  });

  it('resends an invitation in the console language, copies its new link and revokes it', async () => {
    await changeLanguage('ja');
    const { user } = renderAs('admin');
    await user.click(await screen.findByTestId(`invitation-resend-${INVITE}`));
    await waitFor(() => expect(callsTo('POST', `/invitations/${INVITE}/resend`)).toHaveLength(1));
    expect(callsTo('POST', `/invitations/${INVITE}/resend`)[0]?.body).toEqual({ locale: 'ja' });
    await waitFor(() => expect(notificationStore.get()?.title).toBe('new.hire@example.com に新しい招待を送りました'));
    // The link sent from this page is at hand: copying it sends nothing more.
    await user.click(screen.getByTestId(`invitation-copy-${INVITE}`));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe('http://localhost/invitations/NEWTOKEN'),
    );
    expect(callsTo('POST', `/invitations/${INVITE}/resend`)).toHaveLength(1);

    await user.click(screen.getByTestId(`invitation-revoke-${INVITE}`));
    const dialog = await screen.findByRole('dialog', { name: 'この招待を取り消しますか？' });
    await user.click(within(dialog).getByTestId('members-confirm'));
    await waitFor(() => expect(screen.queryByTestId(`invitation-row-${INVITE}`)).toBeNull());
    expect(callsTo('DELETE', `/invitations/${INVITE}`)).toHaveLength(1);
    expect(await screen.findByTestId('invitations-empty')).toBeTruthy();
  });

  it('makes a new link when copying the link of an invitation sent earlier', async () => {
    const { user } = renderAs('admin');
    await user.click(await screen.findByTestId(`invitation-copy-${INVITE}`));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe('http://localhost/invitations/NEWTOKEN'),
    );
    expect(callsTo('POST', `/invitations/${INVITE}/resend`)).toHaveLength(1);
    expect(notificationStore.get()?.title).toBe(
      'New link copied. It was emailed to new.hire@example.com too; the previous link no longer works.',
    );
  });
});

describe('MembersPage for a member', { timeout: 30_000 }, () => {
  it('shows the team read-only: no invitations, no role changes, no removals; leaving is offered', async () => {
    showDesktopLayout();
    const { user, identity, router } = renderAs('member');
    expect((await screen.findByTestId('members-read-only')).textContent).toContain('You are a member of Acme');
    const table = await screen.findByTestId('members-table');
    expect(screen.queryByTestId('members-invite')).toBeNull();
    expect(within(table).queryByRole('combobox')).toBeNull();
    expect(within(table).getByTestId(`member-role-${GRACE}`).textContent).toBe('Member');
    expect(within(table).queryByTestId(`member-remove-${GRACE}`)).toBeNull();
    expect(screen.queryByTestId('invitations-table')).toBeNull();
    expect(screen.queryByText('Pending invitations')).toBeNull();
    expect(calls.some((c) => c.url.pathname.endsWith('/invitations'))).toBe(false);

    await user.click(await within(table).findByTestId('member-leave'));
    const dialog = await screen.findByRole('dialog', { name: 'Leave Acme?' });
    await user.click(within(dialog).getByTestId('members-confirm'));
    await waitFor(() => expect(callsTo('DELETE', `/members/${ME}`)).toHaveLength(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(identity.refresh).toHaveBeenCalled();
    expect(notificationStore.get()?.title).toBe('You left Acme');
    expect(i18n.language).toBe('en');
  });
});
