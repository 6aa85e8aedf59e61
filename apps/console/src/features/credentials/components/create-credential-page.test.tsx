import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { claimError } from './claim-form.ts';
import { CreateCredentialPage } from './create-credential-page.tsx';
import { credential, organization, renderRoutes, schema } from './test-fixtures.tsx';

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
const IMPORT_ID = '99999999-9999-4999-8999-999999999999';
/** Eight recipients the CSV import created, as the API lists them. */
const imported = Array.from({ length: 8 }, (_, i) =>
  credential(`dddddddd-dddd-4ddd-8ddd-${String(i + 1).padStart(12, '0')}`, {
    recipient: { first_name: `Row${i + 1}`, last_name: 'Imported', email: `row${i + 1}@example.com` },
    status: 'CREATED',
  }),
);
let queuedAnswer: (body: { credential_ids?: string[]; import_id?: string }) => number;

beforeEach(() => {
  calls = [];
  queuedAnswer = (body) => (body.credential_ids?.length ?? 0) + (body.import_id ? imported.length : 0);
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
      if (url.pathname === '/api/credentials/notify/via-schema') return Response.json({ queued: queuedAnswer(body) });
      if (url.pathname === '/api/credentials/mail-preview') {
        // Echoes what it was asked, so the test sees that the iframe shows the API's HTML.
        const who = body.recipient ? `${body.recipient.first_name}` : (body.credential_id ?? 'Recipient');
        return Response.json({
          subject: `Acme sent you a credential: ${body.name}`,
          html: `<!doctype html><p data-role="greeting">Hello ${who},</p><p>${body.message ?? ''}</p><p lang="${body.locale}">claim</p>`,
          text: `Hello ${who},`,
        });
      }
      if (url.pathname === '/api/credentials/import' && method === 'POST') {
        return Response.json({ id: IMPORT_ID, total_count: 9, status: 'PENDING' }, { status: 202 });
      }
      if (url.pathname === `/api/credentials/import/${IMPORT_ID}`) {
        return Response.json({
          id: IMPORT_ID,
          schema_id: typed.id,
          status: 'COMPLETED',
          total_count: 9,
          processed_count: 9,
          succeeded_count: 8,
          failed_count: 1,
          errors: [{ row: 10, column: 'recipient_email', message: 'Must be a valid e-mail' }],
          failure_reason: null,
          created_at: '2026-03-01T10:00:00Z',
          completed_at: '2026-03-01T10:00:01Z',
        });
      }
      if (url.pathname === '/api/credentials' && url.searchParams.get('filter.import_id') === IMPORT_ID) {
        const page = Number(url.searchParams.get('page') ?? 1);
        const limit = Number(url.searchParams.get('limit') ?? 10);
        return Response.json({
          results: imported.slice((page - 1) * limit, page * limit),
          total: imported.length,
          page,
          limit,
        });
      }
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
  'claim-joined': '2025-01-31T09:30',
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
    // BOOLEAN is a switch, DATETIME a date-and-time picker.
    expect((screen.getByTestId('claim-active') as HTMLInputElement).type).toBe('checkbox');
    expect((screen.getByTestId('claim-joined') as HTMLInputElement).type).toBe('datetime-local');
    // The picker gives a local date and time; anything else (a pasted draft, an old date-only value) is checked.
    expect(claimError('DATETIME', '2025-01-31T09:30')).toBeNull();
    expect(claimError('DATETIME', '2025-01-31')).toBeNull();
    expect(claimError('DATETIME', '31/01/2025 09:30')).toBe('date');
    expect(claimError('DATETIME', '2025-02-30T09:30')).toBe('date');
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

  it('sends: creates each recipient, then e-mails exactly its credential, and says how many went out', async () => {
    const { user, router } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await user.type(await screen.findByTestId('credential-name'), 'Gold membership');
    await user.click(screen.getByTestId('recipient-add'));
    await fillRecipient(user, valid);
    await user.click(screen.getByTestId('claim-active'));
    await user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByTestId('wizard-next'));
    expect(screen.getByTestId('wizard-summary').textContent).toBe(
      '1 recipient will receive “Gold membership” by e-mail.',
    );
    await user.type(await screen.findByTestId('email-message'), 'Welcome aboard');
    // The preview is the API's rendering of the real e-mail, in a sandboxed iframe.
    await waitFor(() =>
      expect(screen.getByTestId('email-preview-frame').getAttribute('srcdoc')).toContain('<p>Welcome aboard</p>'),
    );
    const frame = screen.getByTestId('email-preview-frame');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('Hello Ada,');
    expect(screen.getByTestId('email-preview-subject').textContent).toBe(
      'Subject: Acme sent you a credential: Gold membership',
    );
    const previewed = calls.filter((c) => c.url.pathname === '/api/credentials/mail-preview').at(-1);
    expect(previewed?.body).toEqual({
      schema_id: typed.id,
      name: 'Gold membership',
      message: 'Welcome aboard',
      locale: 'en',
      recipient: { first_name: 'Ada', last_name: 'Lovelace' },
    });
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
          // The picker's local date and time, kept as that instant.
          { name: 'joined', value: new Date('2025-01-31T09:30').toISOString() },
          { name: 'active', value: true },
          { name: 'contact', value: 'contact@example.com' },
        ],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    });
    // The mock answers the id `…<number of calls so far>`.
    const createdId = calls.indexOf(created!) + 1;
    const notified = calls.filter((c) => c.url.pathname === '/api/credentials/notify/via-schema');
    expect(notified.map((c) => c.body)).toEqual([
      {
        schema_id: typed.id,
        message: 'Welcome aboard',
        locale: 'en',
        credential_ids: [`cccccccc-cccc-4ccc-8ccc-${String(createdId).padStart(12, '0')}`],
      },
    ]);
    expect(notificationStore.get()?.title).toBe('E-mail sent to 1 recipient');
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
    await waitFor(() =>
      expect(screen.getByTestId('email-preview-frame').getAttribute('srcdoc')).toContain('lang="ja"'),
    );
    expect(screen.getByTestId('wizard-summary').textContent).toBe('1人の受取人に「ゴールド会員」をメールで送ります。');
    await user.click(screen.getByTestId('wizard-send'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/credentials/${organization.id}`));
    const notified = calls.find((c) => c.url.pathname === '/api/credentials/notify/via-schema');
    expect(notified?.body).toMatchObject({ schema_id: typed.id, locale: 'ja' });
    expect(notificationStore.get()?.title).toBe('1人の受取人にメールを送信しました');
  });

  it('lists the recipients a CSV import created, and sends exactly them with the typed ones', async () => {
    const { user, router } = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await importCsv(user);
    const table = await screen.findByTestId('imported-recipients-0');
    await waitFor(() => expect(table.textContent).toContain('Imported from a CSV file: 8 recipients'));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(9)); // header + 8
    expect(table.textContent).toContain('row1@example.com');
    expect(table.textContent).toContain('row8@example.com');
    expect(screen.queryByText(/No recipients yet/)).toBeNull();
    await user.click(screen.getByTestId('wizard-next'));
    expect(await screen.findByText('8 recipients will receive “Membership” by e-mail.')).toBeTruthy();
    // With no typed recipient, the preview greets the first imported one.
    await waitFor(() =>
      expect(screen.getByTestId('email-preview-frame').getAttribute('srcdoc')).toContain(`Hello ${imported[0]!.id},`),
    );
    await user.click(screen.getByTestId('wizard-send'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/credentials/${organization.id}`));
    const notified = calls.filter((c) => c.url.pathname === '/api/credentials/notify/via-schema');
    expect(notified.map((c) => c.body)).toEqual([{ schema_id: typed.id, locale: 'en', import_id: IMPORT_ID }]);
    expect(notificationStore.get()?.title).toBe('E-mails sent to 8 recipients');
  });

  it('survives a reload on step 3: the same recipients, the right count, the same send', async () => {
    const first = renderWizard(`/credentials/create?schema=${typed.id}&step=2`);
    await first.user.type(await screen.findByTestId('credential-name'), 'Gold membership');
    await first.user.click(screen.getByTestId('recipient-add'));
    await fillRecipient(first.user, valid);
    await first.user.click(screen.getByTestId('recipient-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await importCsv(first.user);
    await first.user.click(screen.getByTestId('wizard-next'));
    await first.user.type(await screen.findByTestId('email-message'), 'See you');
    expect(await screen.findByText('9 recipients will receive “Gold membership” by e-mail.')).toBeTruthy();
    const url = `${first.router.state.location.pathname}${first.router.state.location.search}`;
    expect(url).toBe(`/credentials/create?schema=${typed.id}&step=3`);

    // The page reloads: the memory is gone, the tab's session storage and the API are not.
    cleanup();
    const second = renderWizard(url);
    expect(await screen.findByText('9 recipients will receive “Gold membership” by e-mail.')).toBeTruthy();
    expect((screen.getByTestId('email-message') as HTMLTextAreaElement).value).toBe('See you');
    await second.user.click(screen.getByTestId('wizard-back'));
    expect((await screen.findByTestId('recipient-row-0')).textContent).toContain('ada@example.com');
    await waitFor(() => expect(screen.getByTestId('imported-recipients-0').getAttribute('data-total')).toBe('8'));
    await second.user.click(screen.getByTestId('wizard-next'));
    queuedAnswer = (body) => (body.credential_ids ? 1 : 8);
    await second.user.click(await screen.findByTestId('wizard-send'));
    await waitFor(() => expect(second.router.state.location.pathname).toBe(`/credentials/${organization.id}`));
    const notified = calls.filter((c) => c.url.pathname === '/api/credentials/notify/via-schema');
    expect(notified).toHaveLength(2);
    expect(notified[0]!.body).toMatchObject({ message: 'See you', credential_ids: [expect.any(String)] });
    expect(notified[1]!.body).toMatchObject({ message: 'See you', import_id: IMPORT_ID });
    expect(notificationStore.get()?.title).toBe('E-mails sent to 9 recipients');
    // Sent: the draft is gone, a new wizard starts empty.
    expect(Object.keys(window.sessionStorage)).toEqual([]);
  });

  it('writes counts with the plural forms of each language', async () => {
    for (const [language, one, other] of [
      ['en', '1 recipient will receive “Membership” by e-mail.', '2 recipients will receive “Membership” by e-mail.'],
      [
        'es',
        '1 destinatario recibirá «Membership» por correo electrónico.',
        '2 destinatarios recibirán «Membership» por correo electrónico.',
      ],
      [
        'ko',
        '수신자 1명에게 “Membership”을(를) 이메일로 보냅니다.',
        '수신자 2명에게 “Membership”을(를) 이메일로 보냅니다.',
      ],
    ] as const) {
      i18n.changeLanguage(language);
      expect(i18n.t('issuing.wizard.summary', { count: 1, name: 'Membership' })).toBe(one);
      expect(i18n.t('issuing.wizard.summary', { count: 2, name: 'Membership' })).toBe(other);
    }
    i18n.changeLanguage('en');
    expect(i18n.t('issuing.csv.counts', { count: 1, processed: 1, succeeded: 1, failed: 0 })).toBe(
      '1 of 1 row processed: 1 succeeded, 0 failed',
    );
    expect(i18n.t('issuing.recipients.imported', { count: 1 })).toBe('Imported from a CSV file: 1 recipient');
    i18n.changeLanguage('es');
    expect(i18n.t('issuing.wizard.sent', { count: 1 })).toBe('Correo enviado a 1 destinatario');
    expect(i18n.t('issuing.csv.imported', { count: 1 })).toBe('1 destinatario importado de un archivo CSV');
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

  it('stops an unverified organization before step 1, saying why and how to apply', async () => {
    for (const status of ['UNDEFINED', 'PENDING', 'REJECTED'] as const) {
      const unverified = { ...organization, verified: false, verification_status: status };
      const { user } = renderWizard(`/credentials/create?schema=${typed.id}&step=3`, unverified);
      const gate = await screen.findByTestId('issuing-gate');
      expect(gate.getAttribute('data-status')).toBe(status);
      expect(gate.textContent).toContain('Your organization cannot issue credentials yet');
      expect(screen.queryByTestId('wizard-next')).toBeNull();
      expect(screen.queryByTestId('wizard-send')).toBeNull();
      expect(screen.queryByTestId(`wizard-schema-${typed.id}`)).toBeNull();
      if (status === 'PENDING') {
        expect(gate.textContent).toContain('as soon as your verification is approved');
        expect(screen.queryByTestId('kyb-apply-button')).toBeNull();
      } else {
        await user.click(screen.getByTestId('kyb-apply-button'));
        expect(await screen.findByRole('dialog')).toBeTruthy();
      }
      cleanup();
    }
  });
});

async function importCsv(user: User) {
  await user.click(await screen.findByTestId('csv-import-button'));
  fireEvent.change(screen.getByTestId('csv-file-input'), {
    target: { files: [new File(['a,b'], 'people.csv', { type: 'text/csv' })] },
  });
  await user.click(screen.getByTestId('csv-import-submit'));
  await waitFor(() => expect(screen.getByTestId('csv-import-status').getAttribute('data-status')).toBe('COMPLETED'));
  await user.click(screen.getByTestId('csv-import-done'));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}
