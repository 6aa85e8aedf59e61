import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rememberSignInReturn, takeSignInReturn } from '../../../lib/sign-in-return.ts';
import { AUTH_SESSION_KEY, getTokens } from '../../../lib/token-store.ts';
import { OAuthCallbackPage } from './oauth-callback-page.tsx';

const requests: { path: string; body: unknown }[] = [];
let assign: ReturnType<typeof vi.fn>;

beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://localhost').pathname;
      requests.push({ path, body: init.body ? JSON.parse(init.body as string) : undefined });
      if (path === '/api/auth/session') {
        return Response.json({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer', expires_in: 900 });
      }
      if (path === '/api/auth') return Response.json({ auth_url: 'https://id.example/authorize', session: 'S2' });
      return Response.json({}, { status: 404 });
    }),
  );
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/oauth/socious', element: <OAuthCallbackPage /> },
      { path: '/credentials', element: <p>credentials page</p> },
      { path: '/intro', element: <p>intro page</p> },
      { path: '/invitations/:token', element: <p>invitation page</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('OAuthCallbackPage', () => {
  it('exchanges the code with the stored session, stores the tokens and goes to /credentials', async () => {
    window.sessionStorage.setItem(AUTH_SESSION_KEY, 'S1');
    const router = renderAt('/oauth/socious?code=C&state=ST&iss=https%3A%2F%2Fid.example');
    expect(await screen.findByText('credentials page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/credentials');
    expect(requests).toEqual([
      { path: '/api/auth/session', body: { code: 'C', state: 'ST', iss: 'https://id.example', session: 'S1' } },
    ]);
    expect(getTokens()).toMatchObject({ accessToken: 'AT', refreshToken: 'RT', tokenType: 'Bearer' });
    expect(window.sessionStorage.getItem(AUTH_SESSION_KEY)).toBeNull();
  });

  it('returns to the page that sent the person to sign in (an invitation), once, and only within the console', async () => {
    window.sessionStorage.setItem(AUTH_SESSION_KEY, 'S1');
    rememberSignInReturn('/invitations/TOKEN');
    const router = renderAt('/oauth/socious?code=C&state=ST');
    expect(await screen.findByText('invitation page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/invitations/TOKEN');
    expect(takeSignInReturn()).toBeNull();
    rememberSignInReturn('//evil.example/path');
    expect(takeSignInReturn()).toBeNull();
    window.sessionStorage.setItem('sign_in_return', '/\\evil.example');
    expect(takeSignInReturn()).toBeNull();
  });

  it('shows the provider error and a link back to /intro', async () => {
    renderAt('/oauth/socious?error=access_denied');
    expect((await screen.findByTestId('oauth-error')).textContent).toContain('access_denied');
    expect(screen.getByTestId('back-to-intro').getAttribute('href')).toBe('/intro');
    expect(requests).toEqual([]);
  });

  it('starts the sign-in again on ?sync=1', async () => {
    renderAt('/oauth/socious?sync=1');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://id.example/authorize'));
    expect(requests[0]).toEqual({
      path: '/api/auth',
      body: { redirect_url: 'http://localhost:3000/oauth/socious', signup: false },
    });
    expect(window.sessionStorage.getItem(AUTH_SESSION_KEY)).toBe('S2');
  });
});
