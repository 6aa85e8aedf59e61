import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import * as core from '../app/core-api.ts';
import { AppProviders } from '../app/providers.tsx';
import { routes } from '../app/routes.tsx';
import type { FakeVault } from './fake-vault.ts';

/** Renders the whole wallet (gate, shell, lazy routes) at `path`, on top of the given vault. */
export function renderApp(path: string, vault: FakeVault) {
  vi.mocked(core.openVault).mockResolvedValue(vault);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, user };
}
