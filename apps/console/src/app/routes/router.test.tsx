import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error.ts';
import { AppProviders } from '../providers/app-providers.tsx';
import { AppShell } from '../shell/app-shell.tsx';
import { CredentialListRoute } from './credential-list-route.tsx';
import { RouteErrorBoundary } from './route-error.tsx';
import { AppRouter, preloadRoutes } from './router.tsx';

describe('AppRouter', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ account_center_url: null }, { status: 200 })),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });

  it('renders /intro for a signed-out visitor once its code is in', async () => {
    window.history.replaceState(null, '', '/intro');
    // As main.tsx does: the first route's code is fetched before the first render.
    await preloadRoutes('/intro');
    render(
      <AppProviders queryClient={new QueryClient()}>
        <AppRouter />
      </AppProviders>,
    );
    expect(await screen.findByTestId('intro-sign-in')).toBeTruthy();
  });

  it('sends a signed-out visitor from a private page to /intro', async () => {
    window.history.replaceState(null, '', '/settings');
    render(
      <AppProviders queryClient={new QueryClient()}>
        <AppRouter />
      </AppProviders>,
    );
    expect(await screen.findByTestId('intro-sign-in')).toBeTruthy();
    expect(window.location.pathname).toBe('/intro');
  });

  it('answers an unknown path with the not-found page', async () => {
    window.history.replaceState(null, '', '/connect/nothing-here/1');
    render(
      <AppProviders queryClient={new QueryClient()}>
        <AppRouter />
      </AppProviders>,
    );
    expect(await screen.findByTestId('go-home')).toBeTruthy();
  });
});

describe('preloadRoutes', () => {
  it("fetches a signed-in page's code together with the shell's", async () => {
    const loaded = await preloadRoutes('/credentials/11111111-1111-4111-8111-111111111111');
    expect(loaded).toEqual([undefined, AppShell, CredentialListRoute]);
  });

  it('fetches nothing but the page for /intro (no shell)', async () => {
    const loaded = await preloadRoutes('/intro');
    expect(loaded.filter(Boolean)).toHaveLength(1);
  });
});

function Thrower({ error }: { error: unknown }): never {
  throw error;
}

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

/** One boundary around every route, as the shell's is around its pages: it must recover on another URL. */
function renderBoundary(error: unknown) {
  return render(
    <MemoryRouter initialEntries={['/broken']}>
      <Link to="/fine">elsewhere</Link>
      <Where />
      <RouteErrorBoundary>
        <Routes>
          <Route path="/broken" element={<Thrower error={error} />} />
          <Route path="/fine" element={<p>fine page</p>} />
          <Route path="/intro" element={<p>intro page</p>} />
        </Routes>
      </RouteErrorBoundary>
    </MemoryRouter>,
  );
}

describe('RouteErrorBoundary (spec §2)', () => {
  beforeEach(() => {
    // React reports every error a boundary catches; these are expected.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows the not-found page for a 404 and lets the user navigate away', async () => {
    renderBoundary(new ApiError(404, null));
    expect(await screen.findByTestId('go-home')).toBeTruthy();
    fireEvent.click(screen.getByText('elsewhere'));
    expect(await screen.findByText('fine page')).toBeTruthy();
    expect(screen.queryByTestId('go-home')).toBeNull();
  });

  it('sends a 401 to /intro', async () => {
    renderBoundary(new ApiError(401, null));
    expect(await screen.findByText('intro page')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/intro');
  });

  it('shows the server error page for anything else', async () => {
    // The 500 page reloads once per session before it shows itself: mark that reload as done.
    window.sessionStorage.setItem('error_reloaded', '1');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    renderBoundary(new Error('kaboom'));
    expect((await screen.findByTestId('error-message')).textContent).toContain('kaboom');
    vi.unstubAllGlobals();
  });
});
