import { type PublicInvitation, zPublicInvitation } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { AUTH_SESSION_KEY, getTokens, saveTokens } from '../../../lib/token-store.ts';
import { InvitationPage } from './invitation-page.tsx';

const TOKEN = 'A'.repeat(43);
const ORG = '11111111-1111-4111-8111-111111111111';
const invitation: PublicInvitation = zPublicInvitation.parse({
  organization: { name: 'Acme University', logo_url: null },
  inviter: { first_name: 'Ines', last_name: 'Lovelace' },
  role: 'member',
  expires_at: '2026-12-01T10:00:00Z',
});

type Call = { method: string; path: string; body: unknown };
let calls: Call[];
let lookup: () => Response;
let acceptAnswer: () => Response;
let assign: ReturnType<typeof vi.fn>;

const problem = (status: number, code: string, extra: object = {}) =>
  Response.json({ type: 'about:blank', title: 'Error', status, code, ...extra }, { status });

beforeEach(() => {
  calls = [];
  lookup = () => Response.json(invitation);
  acceptAnswer = () => Response.json({ organization_id: ORG, role: 'member' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://localhost').pathname;
      const method = init.method ?? 'GET';
      calls.push({ method, path, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
      if (path === `/api/invitations/${TOKEN}` && method === 'GET') return lookup();
      if (path === `/api/invitations/${TOKEN}/accept`) return acceptAnswer();
      if (path === '/api/auth') return Response.json({ auth_url: 'https://id.example/authorize', session: 'S1' });
      if (path === '/api/auth/logout') return new Response(null, { status: 204 });
      return problem(404, 'NOT_FOUND');
    }),
  );
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

function renderPage() {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [],
    current: null,
    selectOrganization: vi.fn(async () => {}),
    refresh: vi.fn(async () => {}),
  };
  const router = createMemoryRouter(
    [
      { path: '/invitations/:token', element: <InvitationPage /> },
      { path: '/credentials/:orgId', element: <p>credentials page</p> },
      { path: '/credentials', element: <p>console</p> },
    ],
    { initialEntries: [`/invitations/${TOKEN}`] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <IdentityContext.Provider value={identity}>
        <RouterProvider router={router} />
      </IdentityContext.Provider>
    </QueryClientProvider>,
  );
  return { router, identity, user: userEvent.setup() };
}

const signIn = () => saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });

describe('InvitationPage', { timeout: 30_000 }, () => {
  it('tells a visitor who invited them, where and as what, and sends them to sign up and back', async () => {
    const { user } = renderPage();
    expect((await screen.findByTestId('invitation-title')).textContent).toBe(
      'Ines Lovelace invited you to join Acme University as a member',
    );
    expect(screen.getByTestId('invitation-role-help').textContent).toContain('create schemas, issue credentials');
    expect(screen.getByTestId('invitation-expires').textContent).toBe('This invitation expires on December 1, 2026.');
    expect(screen.getByText('Sign in or create an account to join')).toBeTruthy();
    expect(screen.queryByTestId('invitation-accept')).toBeNull();

    await user.click(screen.getByTestId('invitation-sign-up'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://id.example/authorize'));
    expect(calls.find((c) => c.path === '/api/auth')?.body).toEqual({
      redirect_url: 'http://localhost:3000/oauth/socious',
      signup: true,
    });
    expect(window.sessionStorage.getItem('sign_in_return')).toBe(`/invitations/${TOKEN}`);
    expect(window.sessionStorage.getItem(AUTH_SESSION_KEY)).toBe('S1');
  });

  it('lets a signed-in invitee join: the organization becomes current and its credentials open', async () => {
    signIn();
    const { user, router, identity } = renderPage();
    await user.click(await screen.findByTestId('invitation-accept'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/credentials/${ORG}`));
    expect(identity.selectOrganization).toHaveBeenCalledWith(ORG);
    expect(calls.filter((c) => c.path.endsWith('/accept'))).toHaveLength(1);
  });

  it('names the invited address to someone signed in with another account and offers to switch', async () => {
    signIn();
    acceptAnswer = () =>
      problem(403, 'INVITATION_EMAIL_MISMATCH', {
        errors: [{ path: 'invitation.email', message: 'ke***@example.com' }],
      });
    await changeLanguage('ja');
    const { user } = renderPage();
    await user.click(await screen.findByTestId('invitation-accept'));
    const warning = await screen.findByTestId('invitation-mismatch');
    expect(warning.textContent).toContain('この招待は ke***@example.com 宛てに送られました');
    const switchAccount = screen.getByTestId('invitation-switch-account');
    expect(switchAccount.textContent).toBe('ke***@example.com でログイン');
    await user.click(switchAccount);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://id.example/authorize'));
    // Signed out here first, then asked to sign in again at the provider (prompt=login).
    expect(calls.map((c) => c.path)).toContain('/api/auth/logout');
    expect(getTokens().accessToken).toBeNull();
    expect(calls.find((c) => c.path === '/api/auth')?.body).toEqual({
      redirect_url: 'http://localhost:3000/oauth/socious',
      signup: false,
      reauthenticate: true,
    });
    expect(window.sessionStorage.getItem('sign_in_return')).toBe(`/invitations/${TOKEN}`);
  });

  it.each([
    ['INVITATION_EXPIRED', 410, 'expired', 'This invitation has expired'],
    ['INVITATION_ALREADY_USED', 410, 'used', 'This invitation has already been used'],
    ['INVITATION_REVOKED', 410, 'revoked', 'This invitation was withdrawn'],
    ['INVITATION_NOT_FOUND', 404, 'notFound', "This invitation link isn't valid"],
  ])('explains an unusable link (%s)', async (code, status, reason, title) => {
    lookup = () => problem(status, code);
    renderPage();
    const card = await screen.findByTestId('invitation-unavailable');
    expect(card.getAttribute('data-reason')).toBe(reason);
    expect(within(card).getByRole('heading').textContent).toBe(title);
    expect(screen.queryByTestId('invitation-sign-in')).toBeNull();
  });

  it('says so when the link was used between loading and accepting', async () => {
    signIn();
    acceptAnswer = () => problem(410, 'INVITATION_ALREADY_USED');
    const { user } = renderPage();
    await user.click(await screen.findByTestId('invitation-accept'));
    expect((await screen.findByTestId('invitation-unavailable')).getAttribute('data-reason')).toBe('used');
  });
});
