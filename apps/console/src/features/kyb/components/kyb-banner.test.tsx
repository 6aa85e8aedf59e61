import type { Organization, VerificationStatus } from '@cp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationStore } from '../../../lib/notifications.ts';
import { saveTokens } from '../../../lib/token-store.ts';
import { KybBanner } from './kyb-banner.tsx';

const organization = (status: VerificationStatus): Organization => ({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme',
  description: null,
  did: null,
  logo: null,
  verified: status === 'APPROVED',
  verification_status: status,
  require_two_factor: false,
  created_at: '2026-01-01T00:00:00Z',
});

interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}
let calls: Call[];
let failSubmit: boolean;

beforeEach(() => {
  calls = [];
  failSubmit = false;
  saveTokens({ access_token: 'AT', refresh_token: 'RT', token_type: 'Bearer' });
  notificationStore.dismiss();
  let uploaded = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://localhost').pathname;
      const method = init.method ?? 'GET';
      const body = init.body instanceof FormData ? init.body : init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, headers: new Headers(init.headers), body });
      if (path === '/api/media/upload') {
        uploaded += 1;
        return Response.json(
          {
            id: `00000000-0000-4000-8000-00000000000${uploaded}`,
            url: `/api/media/00000000-0000-4000-8000-00000000000${uploaded}`,
            filename: 'doc.pdf',
            created_at: '2026-11-01T10:00:00Z',
            content_type: 'application/pdf',
            size: 10,
          },
          { status: 201 },
        );
      }
      if (path.startsWith('/api/kyb/') && method === 'GET') {
        return Response.json({
          application: {
            id: '33333333-3333-4333-8333-333333333333',
            organization_id: organization('REJECTED').id,
            status: 'REJECTED',
            reason: 'The extract is older than three months.',
            submitted_at: '2026-11-01T10:00:00Z',
            reviewed_at: '2026-11-02T10:00:00Z',
            documents: [],
          },
        });
      }
      if (path.startsWith('/api/kyb/') && method === 'POST') {
        if (failSubmit) return Response.json({ status: 500, code: 'INTERNAL', title: 'x', type: 'x' }, { status: 500 });
        return Response.json({}, { status: 201 });
      }
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderBanner(status: VerificationStatus, role?: 'admin' | 'member') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <KybBanner organization={{ ...organization(status), ...(role ? { role } : {}) }} />
    </QueryClientProvider>,
  );
}

const pdf = (name = 'registry.pdf', size = 1000) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

describe('KybBanner', () => {
  it.each([
    ['UNDEFINED', 'Verify your organization', true],
    ['PENDING', 'Your documents are under review. This usually takes 1-3 days.', false],
    ['REJECTED', 'Our team will contact you by email about your application.', true],
    ['APPROVED', 'Your organization can now issue credentials.', false],
  ] as const)('shows the %s message', (status, text, canApply) => {
    renderBanner(status);
    const banner = screen.getByTestId('kyb-banner');
    expect(banner.getAttribute('data-status')).toBe(status);
    expect(banner.textContent).toContain(text);
    expect(screen.queryByTestId('kyb-apply-button') !== null).toBe(canApply);
  });

  it('tells a member that an admin applies, without the apply button', () => {
    for (const status of ['UNDEFINED', 'REJECTED'] as const) {
      renderBanner(status, 'member');
      expect(screen.queryByTestId('kyb-apply-button')).toBeNull();
      expect(screen.getByTestId('kyb-apply-admin-only').textContent).toBe('An admin of the organization can apply.');
      cleanup();
    }
    renderBanner('UNDEFINED', 'admin');
    expect(screen.getByTestId('kyb-apply-button')).toBeTruthy();
    expect(screen.queryByTestId('kyb-apply-admin-only')).toBeNull();
  });

  it('shows the reason of a rejection and offers to apply again', async () => {
    renderBanner('REJECTED');
    expect((await screen.findByTestId('kyb-rejection-reason')).textContent).toContain(
      'Reason: The extract is older than three months.',
    );
    expect(screen.getByTestId('kyb-apply-button').textContent).toContain('Apply again');
  });

  it('uploads the documents and submits the application', async () => {
    const user = userEvent.setup({ delay: null });
    renderBanner('UNDEFINED');
    await user.click(screen.getByTestId('kyb-apply-button'));
    const dialog = await screen.findByTestId('kyb-apply-dialog');
    const submit = within(dialog).getByTestId('kyb-submit');
    expect((submit as HTMLButtonElement).disabled).toBe(true);

    await user.upload(within(dialog).getByTestId('kyb-upload-input'), [pdf('a.pdf'), pdf('b.pdf')]);
    expect(within(dialog).getByText('a.pdf')).toBeTruthy();
    await user.click(submit);

    await waitFor(() => expect(screen.queryByTestId('kyb-apply-dialog')).toBeNull());
    const uploads = calls.filter((c) => c.path === '/api/media/upload');
    expect(uploads).toHaveLength(2);
    const form = uploads[0]?.body;
    expect(form).toBeInstanceOf(FormData);
    expect((form as FormData).get('purpose')).toBe('kyb_document');
    expect(uploads[0]?.headers.get('authorization')).toBe('Bearer AT');
    expect(uploads[0]?.headers.get('currentidentity')).toBe(organization('UNDEFINED').id);
    const submitted = calls.find((c) => c.method === 'POST' && c.path.startsWith('/api/kyb/'));
    expect(submitted?.path).toBe(`/api/kyb/${organization('UNDEFINED').id}`);
    expect(submitted?.body).toEqual({
      documents: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
    });
  });

  it('refuses a file over 2 MB and more than 5 files before sending anything', async () => {
    const user = userEvent.setup({ delay: null });
    renderBanner('UNDEFINED');
    await user.click(screen.getByTestId('kyb-apply-button'));
    const input = await screen.findByTestId('kyb-upload-input');

    await user.upload(input, pdf('huge.pdf', 2 * 1024 * 1024 + 1));
    expect(screen.getByTestId('file-uploader-error').textContent).toContain('File exceeds the maximum size of 2 MB');

    await user.upload(
      input,
      Array.from({ length: 6 }, (_, i) => pdf(`doc-${i}.pdf`)),
    );
    expect(screen.getByTestId('file-uploader-error').textContent).toContain('You can upload up to 5 files');
    expect(calls.filter((c) => c.path === '/api/media/upload')).toHaveLength(0);
  });

  it('shows the catalogue message when the call fails', async () => {
    failSubmit = true;
    const user = userEvent.setup({ delay: null });
    renderBanner('REJECTED');
    await user.click(screen.getByTestId('kyb-apply-button'));
    await user.upload(await screen.findByTestId('kyb-upload-input'), pdf());
    await user.click(screen.getByTestId('kyb-submit'));
    await waitFor(() =>
      expect(notificationStore.get()).toMatchObject({
        severity: 'error',
        message: 'Error in verify organization API call',
      }),
    );
    expect(screen.getByTestId('kyb-apply-dialog')).toBeTruthy();
  });
});
