import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { CreateCredentialPage } from './create-credential-page.tsx';
import { organization, renderRoutes, schema } from './test-fixtures.tsx';

const typed = schema('22222222-2222-4222-8222-222222222222', 'Membership', {
  attributes: [
    { id: '55555555-5555-4555-8555-555555555551', name: 'member_id', description: null, type: 'TEXT' },
    { id: '55555555-5555-4555-8555-555555555552', name: 'level', description: null, type: 'NUMBER' },
    { id: '55555555-5555-4555-8555-555555555553', name: 'website', description: null, type: 'URL' },
    { id: '55555555-5555-4555-8555-555555555554', name: 'joined', description: null, type: 'DATETIME' },
    { id: '55555555-5555-4555-8555-555555555555', name: 'active', description: null, type: 'BOOLEAN' },
    { id: '55555555-5555-4555-8555-555555555556', name: 'contact', description: null, type: 'EMAIL' },
  ],
});
const kyc = schema('33333333-3333-4333-8333-333333333333', 'KYC', { issue_disabled: true });
const workCertificate = schema('44444444-4444-4444-8444-444444444444', 'Work Certificate', {
  slug: 'work-certificate',
  deleteable: false,
});

let calls: { method: string; url: URL; body: unknown }[];

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      calls.push({ method, url, body });
      if (url.pathname === '/api/schemas')
        return Response.json({ results: [typed, kyc], total: 2, page: 1, limit: 10 });
      if (url.pathname === `/api/schemas/${typed.id}`) return Response.json(typed);
      if (url.pathname === `/api/schemas/${workCertificate.id}`) return Response.json(workCertificate);
      if (url.pathname === '/api/credentials/with-recipient') {
        return Response.json(
          { id: `cccccccc-cccc-4ccc-8ccc-${String(calls.length).padStart(12, '0')}` },
          { status: 201 },
        );
      }
      if (url.pathname === '/api/credentials/notify/via-schema') return Response.json({ queued: 1 });
      return Response.json({ status: 404 }, { status: 404 });
    }),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  i18n.changeLanguage('en');
});

const renderWizard = (entry = '/credentials/create', org = organization) =>
  renderRoutes(
    [
      { path: '/credentials/create', element: <CreateCredentialPage /> },
      { path: '/credentials/:orgId', element: <p data-testid="list-page">list</p> },
      { path: '/schemas/create', element: <p>schema form</p> },
    ],
    entry,
    org,
  );

type User = ReturnType<typeof renderWizard>['user'];

async function fillRecipient(_user: User, values: Record<string, string>) {
  for (const [testId, value] of Object.entries(values)) {
    fireEvent.change(screen.getByTestId(testId), { target: { value } });
  }
}

const valid = {
  'recipient-email': 'ada@example.com',
  'recipient-first-name': 'Ada',
  'recipient-last-name': 'Lovelace',
  'claim-member_id': 'M-1',
  'claim-level': '3',
  'claim-website': 'https://example.com',
  'claim-joined': '2025-01-31',
  'claim-contact': 'contact@example.com',
};

describe('CreateCredentialPage', { timeout: 60_000 }, () => {
  it('lists the schemas; a verification-only schema cannot be chosen', async () => {
    const { user, router } = renderWizard();
    const card = await screen.findByTestId(`wizard-schema-${kyc.id}`);
    expect(card.getAttribute('aria-disabled')).toBe('true');
    await user.click(card);
    expect(router.state.location.search).toBe('');
    expect((screen.getByTestId('wizard-next') as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId(`wizard-schema-${typed.id}`));
    expect(router.state.location.search).toBe(`?schema=${typed.id}`);
    await user.click(screen.getByTestId('wizard-next'));
    expect(router.state.location.search).toBe(`?schema=${typed.id}&step=2`);
    expect(await screen.findByTestId('recipients-table')).toBeTruthy();
  });

  it('validates the claim form by type', async () => {
    const { user } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await user.click(await screen.findByTestId('recipient-add'));
    await user.click(screen.getByTestId('recipient-save'));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getAllByText('This field is required').length).toBe(8);
    await fillRecipient(user, {
      ...valid,
      'recipient-email': 'not-an-email',
      'claim-level': 'three',
      'claim-website': 'example',
      'claim-contact': 'nope',
    });
    expect(within(dialog).getAllByText('Enter a valid e-mail address').length).toBe(2);
    expect(within(dialog).getByText('This field must be a number')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid URL')).toBeTruthy();
    expect(within(dialog).queryByText('This field is required')).toBeNull();
    // BOOLEAN is a switch, DATETIME a date input.
    expect((screen.getByTestId('claim-active') as HTMLInputElement).type).toBe('checkbox');
    expect((screen.getByTestId('claim-joined') as HTMLInputElement).type).toBe('date');
    expect(screen.queryByTestId('recipient-row-0')).toBeNull();
  });

  it('adds, edits and deletes recipients', async () => {
    const { user } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await user.click(await screen.findByTestId('recipient-add'));
    await fillRecipient(user, valid);
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('recipient-row-0').textContent).toContain('ada@example.com');

    await user.click(screen.getByTestId('recipient-add'));
    await fillRecipient(user, { ...valid, 'recipient-email': 'grace@example.com', 'recipient-first-name': 'Grace' });
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.getByTestId('recipient-row-1').textContent).toContain('Grace'));

    await user.click(screen.getByTestId('recipient-edit-0'));
    expect((screen.getByTestId('claim-member_id') as HTMLInputElement).value).toBe('M-1');
    await fillRecipient(user, { 'recipient-first-name': 'Augusta' });
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.getByTestId('recipient-row-0').textContent).toContain('Augusta'));

    await user.click(screen.getByTestId('recipient-delete-0'));
    expect(screen.getByTestId('recipient-row-0').textContent).toContain('grace@example.com');
    expect(screen.queryByTestId('recipient-row-1')).toBeNull();
  });

  it('refuses a file that is not CSV', async () => {
    const { user } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await user.click(await screen.findByTestId('csv-import-button'));
    const input = screen.getByTestId('csv-file-input') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'photo.png', { type: 'image/png' })] } });
    expect(screen.getByText('Please upload a valid CSV file')).toBeTruthy();
    expect((screen.getByTestId('csv-import-submit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { files: [new File(['a,b'], 'people.csv', { type: 'text/csv' })] } });
    expect(screen.queryByText('Please upload a valid CSV file')).toBeNull();
    expect((screen.getByTestId('csv-import-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('sends: creates each recipient then notifies via the schema with the message', async () => {
    const { user, router } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await user.type(await screen.findByTestId('credential-name'), 'Gold membership');
    await user.click(screen.getByTestId('recipient-add'));
    await fillRecipient(user, valid);
    await user.click(screen.getByTestId('claim-active'));
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByTestId('wizard-next'));
    await user.type(await screen.findByTestId('email-message'), 'Welcome aboard');
    const preview = screen.getByTestId('email-preview');
    expect(preview.textContent).toContain('Acme');
    expect(preview.textContent).toContain('Gold membership');
    expect(preview.textContent).toContain('Hello Ada');
    expect(preview.textContent).toContain('Welcome aboard');
    expect(preview.textContent).toContain('Claim your credential');
    await user.click(screen.getByTestId('wizard-send'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/credentials/${organization.id}`));
    const created = calls.find((c) => c.url.pathname === '/api/credentials/with-recipient');
    expect(created?.body).toEqual({
      credential: {
        name: 'Gold membership',
        schema_id: typed.id,
        claims: [
          { name: 'member_id', value: 'M-1' },
          { name: 'level', value: 3 },
          { name: 'website', value: 'https://example.com' },
          { name: 'joined', value: '2025-01-31' },
          { name: 'active', value: true },
          { name: 'contact', value: 'contact@example.com' },
        ],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    });
    const notified = calls.find((c) => c.url.pathname === '/api/credentials/notify/via-schema');
    expect(notified?.body).toEqual({ schema_id: typed.id, message: 'Welcome aboard', locale: 'en' });
    expect(notificationStore.get()?.title).toBe('Credentials sent to the recipients');
  });

  it('sends the e-mail in the console language of the sender', async () => {
    i18n.changeLanguage('ja');
    const { user, router } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await user.type(await screen.findByTestId('credential-name'), 'ゴールド会員');
    await user.click(screen.getByTestId('recipient-add'));
    await fillRecipient(user, valid);
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByTestId('wizard-next'));
    expect((await screen.findByTestId('email-preview')).textContent).toContain('証明書を受け取る');
    await user.click(screen.getByTestId('wizard-send'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/credentials/${organization.id}`));
    const notified = calls.find((c) => c.url.pathname === '/api/credentials/notify/via-schema');
    expect(notified?.body).toEqual({ schema_id: typed.id, locale: 'ja' });
  });

  it("names the credential after a platform schema in the user's language by default", async () => {
    i18n.changeLanguage('ja');
    const { user, router } = renderWizard(`/credentials/create?schema=${workCertificate.id}&step=2`);
    expect((await screen.findByTestId('credential-name')).getAttribute('placeholder')).toBe('在職証明書');
    await user.click(screen.getByTestId('recipient-add'));
    await fillRecipient(user, {
      'recipient-email': valid['recipient-email'],
      'recipient-first-name': valid['recipient-first-name'],
      'recipient-last-name': valid['recipient-last-name'],
    });
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByTestId('wizard-next'));
    expect((await screen.findByTestId('email-preview')).textContent).toContain('在職証明書');
    await user.click(screen.getByTestId('wizard-send'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/credentials/${organization.id}`));
    const created = calls.find((c) => c.url.pathname === '/api/credentials/with-recipient');
    expect(created?.body).toMatchObject({ credential: { name: '在職証明書' } });
  });

  it('an unverified organization sees the KYB banner and cannot send', async () => {
    const unverified = { ...organization, verified: false, verification_status: 'UNDEFINED' as const };
    const { user } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`, unverified);
    await user.click(await screen.findByTestId('recipient-add'));
    await fillRecipient(user, valid);
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByTestId('wizard-next'));
    expect((await screen.findByTestId('wizard-send')) as HTMLButtonElement).toHaveProperty('disabled', true);
    expect(screen.getByText(/Only a verified organization can issue credentials/)).toBeTruthy();
  });
});
