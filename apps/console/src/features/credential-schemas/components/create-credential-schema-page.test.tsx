import type { CredentialSchema, Organization } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdentityContext, type IdentityState } from '../../../lib/identity-context.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { CreateCredentialSchemaPage } from './create-credential-schema-page.tsx';

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

const diploma: CredentialSchema = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Diploma',
  description: 'A degree',
  slug: 'diploma-22222222',
  deleteable: true,
  issue_disabled: false,
  created: null,
  created_at: '2026-03-01T10:00:00Z',
  attributes: [
    { id: '33333333-3333-4333-8333-333333333333', name: 'grade', description: 'Final grade', type: 'NUMBER' },
    { id: '44444444-4444-4444-8444-444444444444', name: 'awarded_at', description: null, type: 'DATETIME' },
  ],
};

let posted: unknown[];
let postStatus: number;

beforeEach(() => {
  posted = [];
  postStatus = 201;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if ((init.method ?? 'GET') === 'GET' && url.pathname === `/api/schemas/${diploma.id}`)
        return Response.json(diploma);
      if (init.method === 'POST' && url.pathname === '/api/schemas') {
        posted.push(JSON.parse(String(init.body)));
        if (postStatus !== 201) return Response.json({ status: postStatus, code: 'X' }, { status: postStatus });
        return Response.json({ ...diploma, id: '55555555-5555-4555-8555-555555555555' }, { status: 201 });
      }
      return Response.json({ status: 404, code: 'NOT_FOUND' }, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage(initialEntry: string) {
  const identity: IdentityState = {
    status: 'succeeded',
    organizations: [organization],
    current: organization,
    selectOrganization: async () => {},
    refresh: async () => {},
  };
  const router = createMemoryRouter(
    [
      { path: '/schemas', element: <p>schema list</p> },
      { path: '/schemas/create/:id?', element: <CreateCredentialSchemaPage /> },
    ],
    { initialEntries: [initialEntry] },
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

describe('CreateCredentialSchemaPage', { timeout: 30_000 }, () => {
  it('prefills a duplicate from the original and publishes it as a new schema', async () => {
    const { router, user } = renderPage(`/schemas/create/${diploma.id}`);
    await waitFor(() => expect((screen.getByTestId('schema-name') as HTMLInputElement).value).toBe('Copy of Diploma'));
    expect((screen.getByTestId('attribute-name-0') as HTMLInputElement).value).toBe('grade');
    expect((screen.getByTestId('attribute-type-1') as HTMLSelectElement).value).toBe('DATETIME');
    await user.click(screen.getByTestId('schema-publish'));
    await user.click(await screen.findByTestId('schema-publish-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schemas'));
    expect(posted).toEqual([
      {
        name: 'Copy of Diploma',
        description: 'A degree',
        attributes: [
          { name: 'grade', type: 'NUMBER', description: 'Final grade' },
          { name: 'awarded_at', type: 'DATETIME' },
        ],
      },
    ]);
    expect(notificationStore.get()?.title).toBe('Schema published');
  });

  it("shows 'Error in creating a Schema' and keeps the form when publishing fails", async () => {
    postStatus = 400;
    const { router, user } = renderPage('/schemas/create');
    fireEvent.change(screen.getByTestId('schema-name'), { target: { value: 'Badge' } });
    fireEvent.change(screen.getByTestId('attribute-name-0'), { target: { value: 'level' } });
    await user.click(screen.getByTestId('schema-publish'));
    await user.click(await screen.findByTestId('schema-publish-confirm'));
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Error in creating a Schema'));
    expect(router.state.location.pathname).toBe('/schemas/create');
    expect((screen.getByTestId('schema-name') as HTMLInputElement).value).toBe('Badge');
  });

  it('says a deleted original no longer exists, with the way back, instead of an empty form (404)', async () => {
    notificationStore.dismiss();
    const { router, user } = renderPage('/schemas/create/99999999-9999-4999-8999-999999999999');
    const card = await screen.findByTestId('schema-form-error-not-found');
    expect(card.textContent).toContain('This schema no longer exists');
    expect(within(card).queryByRole('button', { name: 'Try again' })).toBeNull();
    // No form that would look like a duplicate, and no catalogue notification on top.
    expect(screen.queryByTestId('schema-name')).toBeNull();
    expect(notificationStore.get()).toBeNull();
    await user.click(within(card).getByTestId('schema-form-error-back'));
    expect(router.state.location.pathname).toBe('/schemas');
  });

  it("keeps 'Error in getting Schema data' and a retry when the original fails to load otherwise", async () => {
    let failing = true;
    const answer = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      if (failing && String(input).includes(`/api/schemas/${diploma.id}`)) {
        return Response.json({ type: 'about:blank', title: 'x', status: 503, code: 'X' }, { status: 503 });
      }
      return answer(input, init);
    });
    const { user } = renderPage(`/schemas/create/${diploma.id}`);
    const card = await screen.findByTestId('schema-form-error', {}, { timeout: 15_000 });
    expect(card.textContent).toContain('Error in getting Schema data');
    expect(notificationStore.get()?.title).toBe('Error in getting Schema data');
    failing = false;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect((screen.getByTestId('schema-name') as HTMLInputElement).value).toBe('Copy of Diploma'));
  });
});
