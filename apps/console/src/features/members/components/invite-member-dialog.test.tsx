import type { SentInvitation } from '@cp/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error.ts';
import { InviteMemberDialog } from './invite-member-dialog.tsx';
import { invitation } from './test-fixtures.tsx';

const sent = (role: 'admin' | 'member'): SentInvitation => ({
  ...invitation('d0000000-0000-4000-8000-000000000004', { email: 'kim@example.com', role }),
  url: 'http://localhost/invitations/TOKEN',
});

function renderDialog(onSubmit: (values: { email: string; role: 'admin' | 'member' }) => Promise<SentInvitation>) {
  const onClose = vi.fn();
  render(<InviteMemberDialog open organizationName="Acme" onClose={onClose} onSubmit={onSubmit} />);
  return { user: userEvent.setup(), onClose, dialog: screen.getByRole('dialog', { name: 'Invite someone to Acme' }) };
}

describe('InviteMemberDialog', { timeout: 30_000 }, () => {
  it('explains each role, checks the address before sending, and sends e-mail and role', async () => {
    const onSubmit = vi.fn(async (values: { role: 'admin' | 'member' }) => sent(values.role));
    const { user, dialog } = renderDialog(onSubmit);
    expect(within(dialog).getByText(/Creates schemas, issues, sends and revokes credentials/)).toBeTruthy();
    expect(
      within(dialog).getByText(/managing members and invitations, API keys, webhooks, trust anchors/),
    ).toBeTruthy();
    expect((within(dialog).getByTestId('invite-role-member') as HTMLInputElement).checked).toBe(true);

    await user.click(within(dialog).getByTestId('invite-send'));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    await user.click(within(dialog).getByTestId('invite-email'));
    await user.paste('not-an-address');
    await user.click(within(dialog).getByTestId('invite-send'));
    expect(await within(dialog).findByText('Must be a valid email')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByTestId('invite-email'));
    await user.click(within(dialog).getByTestId('invite-email'));
    await user.paste('  kim@example.com ');
    await user.click(within(dialog).getByTestId('invite-role-admin'));
    await user.click(within(dialog).getByTestId('invite-send'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ email: 'kim@example.com', role: 'admin' }));

    const done = await screen.findByRole('dialog', { name: 'Invitation sent' });
    expect(within(done).getByTestId('invite-sent').textContent).toBe(
      'We emailed kim@example.com an invitation to join Acme as Admin.',
    );
    expect(within(done).getByTestId('invite-link').textContent).toBe('http://localhost/invitations/TOKEN');
    await user.click(within(done).getByTestId('invite-link-copy'));
    expect(await navigator.clipboard.readText()).toBe('http://localhost/invitations/TOKEN');
  });

  it('says so when the address is already a member, keeping what was typed', async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(409, { type: 'x', title: 'Conflict', status: 409, code: 'ORGANIZATION_ALREADY_MEMBER' });
    });
    const { user, dialog } = renderDialog(onSubmit);
    await user.click(within(dialog).getByTestId('invite-email'));
    await user.paste('grace@example.com');
    await user.click(within(dialog).getByTestId('invite-send'));
    expect(await within(dialog).findByText('This person is already a member of the organization.')).toBeTruthy();
    expect((within(dialog).getByTestId('invite-email') as HTMLInputElement).value).toBe('grace@example.com');
  });

  it('shows a failure it cannot place on a field', async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(500, null);
    });
    const { user, dialog } = renderDialog(onSubmit);
    await user.click(within(dialog).getByTestId('invite-email'));
    await user.paste('kim@example.com');
    await user.click(within(dialog).getByTestId('invite-send'));
    expect((await within(dialog).findByTestId('invite-error')).textContent).toBe(
      'The invitation could not be sent. Please try again.',
    );
  });
});
