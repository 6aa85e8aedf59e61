import type { KybReview } from '@cp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveTokens } from '../../../lib/token-store.ts';
import { KybReviewPage } from './kyb-review-page.tsx';

const application: KybReview = {
  id: '44444444-4444-4444-8444-444444444444',
  organization_id: '11111111-1111-4111-8111-111111111111',
  organization_name: 'Globex Trading',
  status: 'PENDING',
  reason: null,
  submitted_at: '2026-11-01T10:00:00Z',
  reviewed_at: null,
  documents: [
    {
      id: '55555555-5555-4555-8555-555555555555',
      url: '/api/media/55555555-5555-4555-8555-555555555555',
      filename: 'registry.pdf',
      created_at: '2026-11-01T09:59:00Z',
      content_type: 'application/pdf',
      size: 2048,
    },
  ],
};

let isAdmin: boolean;
let calls: { method: string; path: string; body: unknown }[];
beforeEach(() => {
  isAdmin = true;
  calls = [];
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://localhost').pathname;
      const method = init.method ?? 'GET';
      calls.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/users') return Response.json({ id: 'u', is_platform_admin: isAdmin });
      if (path === '/api/kyb-reviews') {
        const pending = calls.some((c) => c.method === 'POST') ? [] : [application];
        return Response.json({ results: pending, total: pending.length, page: 1, limit: 10 });
      }
      if (path.startsWith('/api/kyb-reviews/')) return Response.json({ ...application, status: 'REJECTED' });
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <KybReviewPage />
    </QueryClientProvider>,
  );
}

describe('KybReviewPage', () => {
  it('tells other users the queue is for platform administrators', async () => {
    isAdmin = false;
    renderPage();
    expect(await screen.findByText('For platform administrators')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/kyb-reviews')).toBe(false);
  });

  it('lists pending applications and rejects one only with a reason', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    const row = await screen.findByTestId(`admin-kyb-row-${application.id}`);
    expect(row.textContent).toContain('Globex Trading');
    expect(row.textContent).toContain('registry.pdf');

    await user.click(within(row).getByTestId(`admin-kyb-reject-${application.id}`));
    const confirm = await screen.findByTestId('admin-kyb-reject-confirm');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByTestId('admin-kyb-reason'), 'Unreadable scan');
    await user.click(confirm);

    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toEqual({
        method: 'POST',
        path: `/api/kyb-reviews/${application.id}/reject`,
        body: { reason: 'Unreadable scan' },
      }),
    );
    expect(await screen.findByText('No applications to review')).toBeTruthy();
  }, 15_000);

  it('approves an application', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByTestId(`admin-kyb-approve-${application.id}`));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.path).toBe(`/api/kyb-reviews/${application.id}/approve`),
    );
  });
});
