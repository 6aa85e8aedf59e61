import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { SettingsPage } from './settings-page.tsx';

const profile = {
  id: '11111111-1111-4111-8111-111111111111',
  username: 'ada',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  job_title: null,
  avatar: null,
  is_platform_admin: false,
  locale: null,
};

let puts: unknown[];
beforeEach(() => {
  puts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/users' && init.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        puts.push(body);
        return Response.json({ ...profile, ...body });
      }
      if (url.pathname === '/api/users') return Response.json(profile);
      if (url.pathname === '/config.json' || url.pathname.endsWith('/config')) return Response.json({});
      return Response.json({ status: 404 }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  i18n.changeLanguage('en');
});

describe('SettingsPage language', () => {
  it("stores the chosen language on the user: the platform's e-mails to them use it", async () => {
    const router = createMemoryRouter([{ path: '/settings', element: <SettingsPage /> }], {
      initialEntries: ['/settings'],
    });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    fireEvent.change(await screen.findByTestId('settings-language'), { target: { value: 'ko' } });
    await waitFor(() => expect(puts).toEqual([{ locale: 'ko' }]));
    expect(i18n.language).toBe('ko');
  });
});
