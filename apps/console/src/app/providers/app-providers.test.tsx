import { QueryClient } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notificationStore, notify } from '../../lib/notifications.ts';
import { AppProviders } from './app-providers.tsx';

describe('AppProviders', () => {
  it('shows a notification (its snackbar code loads with the first one)', async () => {
    render(
      <AppProviders queryClient={new QueryClient()}>
        <p>page</p>
      </AppProviders>,
    );
    expect(screen.getByText('page')).toBeTruthy();
    expect(screen.queryByTestId('notification')).toBeNull();

    act(() => notify({ severity: 'success', title: 'Saved', message: 'All good' }));
    const notification = await screen.findByTestId('notification');
    expect(notification.textContent).toContain('Saved');
    expect(notification.textContent).toContain('All good');

    act(() => notificationStore.dismiss());
    act(() => notify({ severity: 'error', title: 'Failed' }));
    expect((await screen.findByTestId('notification')).textContent).toContain('Failed');
  });
});
