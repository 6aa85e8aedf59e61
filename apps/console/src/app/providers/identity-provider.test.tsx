import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_IDENTITY_KEY } from '../../lib/current-identity.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { saveTokens } from '../../lib/token-store.ts';
import { IdentityProvider } from './identity-provider.tsx';

let headers: Headers[];
beforeEach(() => {
  headers = [];
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: string, init: RequestInit = {}) => {
      headers.push(new Headers(init.headers));
      // Removed from the only organization the user had.
      return Response.json({ results: [] });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function Status() {
  const { status, current } = useIdentity();
  return <p data-testid="status">{`${status}:${current?.id ?? 'none'}`}</p>;
}

describe('IdentityProvider', () => {
  it('forgets an organization the user no longer belongs to, and asks for the list without naming it', async () => {
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, '11111111-1111-4111-8111-111111111111');
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <IdentityProvider>
          <Status />
        </IdentityProvider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('succeeded:none'));
    await waitFor(() => expect(window.localStorage.getItem(CURRENT_IDENTITY_KEY)).toBeNull());
    expect(headers[0]?.has('CurrentIdentity')).toBe(false);
  });
});
