import type { Verification } from '@cp/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import {
  ageAttribute,
  kyc,
  memberAttribute,
  membership,
  nameAttribute,
  organization,
  renderRoutes,
  verification,
  workCertificateReference,
} from './test-fixtures.tsx';
import { VerificationFormPage } from './verification-form-page.tsx';

const existing = verification('55555555-5555-4555-8555-555555555555', {
  trust_policy: 'NAMED_ISSUERS',
  trusted_issuers: ['did:web:issuer.example.com'],
});

let calls: { method: string; url: URL; headers: Headers; body: unknown }[];
let saveAnswer: { status: number; body: unknown };
/** Resolves the GET of the edited verification when the test says so. */
let releaseVerification: (verification: Verification) => void;
let verificationAnswer: Promise<Verification>;

beforeEach(() => {
  calls = [];
  saveAnswer = { status: 201, body: existing };
  verificationAnswer = new Promise((resolve) => {
    releaseVerification = resolve;
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({
        method,
        url,
        headers: new Headers(init.headers),
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (method === 'GET' && url.pathname === '/api/schemas') {
        return Response.json({ results: [membership, kyc], total: 2, page: 1, limit: 100 });
      }
      if (method === 'GET' && url.pathname === `/api/verifications/${existing.id}`) {
        return Response.json(await verificationAnswer);
      }
      if ((method === 'POST' && url.pathname === '/api/verifications') || method === 'PUT') {
        return Response.json(saveAnswer.body, { status: saveAnswer.status });
      }
      return Response.json({ status: 404, code: 'NOT_FOUND' }, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderForm = (entry: string) =>
  renderRoutes(
    [
      { path: '/verifications', element: <p>verification list</p> },
      { path: '/verifications/create', element: <VerificationFormPage /> },
      { path: '/verifications/edit/:id', element: <VerificationFormPage /> },
    ],
    entry,
  );

/** Pastes instead of typing key by key: the same change events, far fewer renders on a busy machine. */
async function fill(user: ReturnType<typeof renderForm>['user'], element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

/** Name, the Membership schema and one rule "age greater than {value}". */
async function startAgeRule(user: ReturnType<typeof renderForm>['user'], name: string, value: string) {
  await fill(user, await screen.findByTestId('verification-name'), name);
  const schemaSelect = screen.getByTestId('verification-schema');
  await waitFor(() => expect(within(schemaSelect).getByRole('option', { name: 'Membership' })).toBeTruthy());
  await user.selectOptions(schemaSelect, membership.id);
  await user.click(screen.getByTestId('rule-add'));
  await user.selectOptions(screen.getByTestId('rule-attribute-0'), ageAttribute.id);
  await user.selectOptions(screen.getByTestId('rule-operator-0'), 'BIGGER');
  await fill(user, screen.getByTestId('rule-value-0'), value);
}

const saves = () => calls.filter((c) => c.method === 'POST' || c.method === 'PUT');

describe('VerificationFormPage', { timeout: 60_000 }, () => {
  it('offers the organization and platform schemas, verify-only ones included', async () => {
    renderForm('/verifications/create');
    const select = await screen.findByTestId('verification-schema');
    await waitFor(() => expect(within(select).getByRole('option', { name: 'KYC (verification only)' })).toBeTruthy());
    expect(within(select).getByRole('option', { name: 'Membership' })).toBeTruthy();
    const schemaCall = calls.find((c) => c.url.pathname === '/api/schemas');
    expect(schemaCall?.headers.get('CurrentIdentity')).toBe(organization.id);
  });

  it("checks a NUMBER rule value client-side with 'Must be a numeric value' and sends nothing", async () => {
    const { user } = renderForm('/verifications/create');
    await startAgeRule(user, 'Age check', '18 years');
    await user.click(screen.getByTestId('verification-save'));
    const row = screen.getByTestId('rule-row-0');
    expect(await within(row).findByText('Must be a numeric value')).toBeTruthy();
    expect(saves()).toHaveLength(0);
    // Fixed, the message goes as the user types.
    await user.clear(screen.getByTestId('rule-value-0'));
    await user.type(screen.getByTestId('rule-value-0'), '18');
    await waitFor(() => expect(within(row).queryByText('Must be a numeric value')).toBeNull());
    expect(saves()).toHaveLength(0);
  });

  it('posts the verification with its rule, trusted issuer and wanted claims', async () => {
    const { user, router } = renderForm('/verifications/create');
    await startAgeRule(user, 'Age check', '18');
    await user.click(screen.getByTestId('verification-type-SINGLE'));
    // The rule's attribute is always asked for: shown ticked and locked.
    const ageClaim = screen.getByTestId('claim-age') as HTMLInputElement;
    expect(ageClaim.checked).toBe(true);
    expect(ageClaim.disabled).toBe(true);
    // Only the name is wanted besides the rule's attribute.
    await user.click(screen.getByTestId('claim-is_member'));
    const preview = screen.getByTestId('verification-preview');
    expect(preview.textContent).toContain('A single-use link that asks for a “Membership” credential.');
    expect(preview.textContent).toContain('age must be greater than 18');
    expect(preview.textContent).toContain('You will see: age and full_name.');
    expect(preview.textContent).toContain('Only from organizations verified on this platform.');

    // Naming issuers starts with one issuer field.
    await user.click(screen.getByTestId('trust-policy-NAMED_ISSUERS'));
    await fill(user, screen.getByTestId('trusted-issuer-0'), 'not an issuer');
    await user.click(screen.getByTestId('verification-save'));
    expect(await screen.findByText('Must be a DID (did:web:…) or an https issuer URL')).toBeTruthy();
    expect(saves()).toHaveLength(0);
    await user.clear(screen.getByTestId('trusted-issuer-0'));
    await fill(user, screen.getByTestId('trusted-issuer-0'), 'https://issuer.example.com');
    await user.click(screen.getByTestId('verification-save'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
    const [post] = saves();
    expect(post?.method).toBe('POST');
    expect(post?.url.pathname).toBe('/api/verifications');
    expect(post?.headers.get('CurrentIdentity')).toBe(organization.id);
    expect(post?.body).toEqual({
      name: 'Age check',
      schema_id: membership.id,
      type: 'SINGLE',
      attributes: [{ attribute_id: ageAttribute.id, operator: 'BIGGER', value: '18', type: 'NUMBER' }],
      trust_policy: 'NAMED_ISSUERS',
      trusted_issuers: ['https://issuer.example.com'],
      client_id_scheme: 'x509_hash',
      requested_attribute_ids: [ageAttribute.id, nameAttribute.id],
    });
    expect(notificationStore.get()?.title).toBe('Verification created');
  });

  it('asks for the schema as an ISO mdoc when that format is chosen', async () => {
    const { user, router } = renderForm('/verifications/create');
    await startAgeRule(user, 'Age check (mdoc)', '18');
    const format = screen.getByTestId('verification-format') as HTMLSelectElement;
    expect(format.value).toBe('dc+sd-jwt');
    expect(within(format).getByRole('option', { name: 'ISO mdoc (mso_mdoc)' })).toBeTruthy();
    await user.selectOptions(format, 'mso_mdoc');
    await user.click(screen.getByTestId('verification-save'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
    expect(saves()[0]?.body).toMatchObject({ schema_id: membership.id, format: 'mso_mdoc' });
  });

  it('shows a 422 field error on its rule and keeps what was typed', async () => {
    saveAnswer = {
      status: 422,
      body: {
        type: 'about:blank',
        title: 'Validation failed',
        status: 422,
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'attributes.1.value', message: 'Must be a valid Email' }],
      },
    };
    const { user, router } = renderForm('/verifications/create');
    await fill(user, await screen.findByTestId('verification-name'), 'Members');
    const schemaSelect = screen.getByTestId('verification-schema');
    await waitFor(() => expect(within(schemaSelect).getByRole('option', { name: 'Membership' })).toBeTruthy());
    await user.selectOptions(schemaSelect, membership.id);
    await user.click(screen.getByTestId('rule-add'));
    await user.selectOptions(screen.getByTestId('rule-attribute-0'), memberAttribute.id);
    // A yes / no attribute gets a yes / no value.
    expect((screen.getByTestId('rule-value-0') as HTMLSelectElement).value).toBe('true');
    await user.click(screen.getByTestId('rule-add'));
    await user.selectOptions(screen.getByTestId('rule-attribute-1'), nameAttribute.id);
    await user.type(screen.getByTestId('rule-value-1'), 'Ada');
    await user.click(screen.getByTestId('verification-save'));

    const row = await screen.findByTestId('rule-row-1');
    expect(await within(row).findByText('Must be a valid Email')).toBeTruthy();
    expect(within(screen.getByTestId('rule-row-0')).queryByText('Must be a valid Email')).toBeNull();
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Error in create verification API call'));
    expect(router.state.location.pathname).toBe('/verifications/create');
    expect((screen.getByTestId('verification-name') as HTMLInputElement).value).toBe('Members');
    expect((screen.getByTestId('rule-value-1') as HTMLInputElement).value).toBe('Ada');
    expect(saves()[0]?.body).toMatchObject({
      attributes: [
        { attribute_id: memberAttribute.id, operator: 'EQUAL', value: 'true', type: 'BOOLEAN' },
        { attribute_id: nameAttribute.id, operator: 'EQUAL', value: 'Ada', type: 'TEXT' },
      ],
    });
  });

  it('loads the verification before showing the edit form, then saves it with PUT', async () => {
    saveAnswer = { status: 200, body: existing };
    const { user, router } = renderForm(`/verifications/edit/${existing.id}`);
    expect(await screen.findByTestId('verification-form-loading')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url.pathname === `/api/verifications/${existing.id}`)).toBe(true));
    expect(screen.queryByTestId('verification-form')).toBeNull();

    releaseVerification(existing);
    const name = (await screen.findByTestId('verification-name')) as HTMLInputElement;
    expect(name.value).toBe('Age check');
    expect((screen.getByTestId('verification-schema') as HTMLSelectElement).value).toBe(membership.id);
    expect((screen.getByTestId('rule-attribute-0') as HTMLSelectElement).value).toBe(ageAttribute.id);
    expect((screen.getByTestId('rule-operator-0') as HTMLSelectElement).value).toBe('BIGGER');
    expect((screen.getByTestId('rule-value-0') as HTMLInputElement).value).toBe('18');
    expect(screen.getByTestId('trust-policy-NAMED_ISSUERS').getAttribute('data-selected')).toBe('true');
    expect((screen.getByTestId('trusted-issuer-0') as HTMLInputElement).value).toBe('did:web:issuer.example.com');
    expect((screen.getByTestId('claim-full_name') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('claim-is_member') as HTMLInputElement).checked).toBe(false);
    expect(screen.getByTestId('verification-type-MULTI').getAttribute('data-selected')).toBe('true');

    await user.clear(name);
    await fill(user, name, 'Age check at the door');
    await user.clear(screen.getByTestId('rule-value-0'));
    await user.type(screen.getByTestId('rule-value-0'), '21');
    await user.click(screen.getByTestId('verification-save'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
    const [put] = saves();
    expect(put?.method).toBe('PUT');
    expect(put?.url.pathname).toBe(`/api/verifications/${existing.id}`);
    expect(put?.body).toEqual({
      name: 'Age check at the door',
      description: 'Entrance',
      schema_id: membership.id,
      type: 'MULTI',
      attributes: [{ attribute_id: ageAttribute.id, operator: 'BIGGER', value: '21', type: 'NUMBER' }],
      trust_policy: 'NAMED_ISSUERS',
      trusted_issuers: ['did:web:issuer.example.com'],
      client_id_scheme: 'x509_hash',
      requested_attribute_ids: [ageAttribute.id, nameAttribute.id],
    });
    expect(notificationStore.get()?.title).toBe('Verification updated');
  });

  it("names platform schemas in the user's language, the edited verification's own schema too (ja)", async () => {
    // The edited verification asks for a platform schema the loaded schema list does not hold.
    releaseVerification(verification(existing.id, { schema: workCertificateReference, attributes: [] }));
    i18n.changeLanguage('ja');
    try {
      renderForm(`/verifications/edit/${existing.id}`);
      const select = (await screen.findByTestId('verification-schema')) as HTMLSelectElement;
      await waitFor(() => expect(select.value).toBe(workCertificateReference.id));
      expect(select.selectedOptions[0]?.textContent).toBe('在職証明書');
      expect(within(select).getByRole('option', { name: '本人確認（KYC）（検証専用）' })).toBeTruthy();
      expect(within(select).getByRole('option', { name: 'Membership' })).toBeTruthy();
      expect(within(select).queryByRole('option', { name: 'Work Certificate' })).toBeNull();
      expect(screen.getByTestId('verification-form').textContent).toContain('「在職証明書」の資格情報を求める');
    } finally {
      i18n.changeLanguage('en');
    }
  });

  it("says 'Error in update verification API call' and stays when the update fails", async () => {
    saveAnswer = { status: 500, body: { type: 'about:blank', title: 'Internal', status: 500, code: 'INTERNAL' } };
    releaseVerification(existing);
    const { user, router } = renderForm(`/verifications/edit/${existing.id}`);
    const name = (await screen.findByTestId('verification-name')) as HTMLInputElement;
    await user.type(name, ' 2');
    await user.click(screen.getByTestId('verification-save'));
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Error in update verification API call'));
    expect(router.state.location.pathname).toBe(`/verifications/edit/${existing.id}`);
    expect(name.value).toBe('Age check 2');
  });
  describe('a verification that cannot be loaded', () => {
    const gone = '99999999-9999-4999-8999-999999999999';
    const problem = (status: number, code: string) => ({ type: 'about:blank', title: code, status, code });

    it('says a deleted verification no longer exists, with the way back and no "Try again" (404)', async () => {
      notificationStore.dismiss();
      const { user, router } = renderForm(`/verifications/edit/${gone}`);
      const card = await screen.findByTestId('verification-form-error-not-found');
      expect(card.textContent).toContain('This verification no longer exists');
      expect(card.textContent).not.toContain('error in get verifications API call');
      expect(within(card).queryByRole('button', { name: 'Try again' })).toBeNull();
      expect(screen.queryByTestId('verification-form')).toBeNull();
      // No catalogue notification on top of it.
      expect(notificationStore.get()).toBeNull();
      await user.click(within(card).getByTestId('verification-form-error-back'));
      expect(router.state.location.pathname).toBe('/verifications');
    });

    it('says the same of an id no verification can have (the API refuses it with 400 on the path)', async () => {
      vi.mocked(fetch).mockImplementation(async () =>
        Response.json(
          { ...problem(400, 'REQUEST_INVALID'), errors: [{ path: 'params.id', message: 'Invalid UUID' }] },
          { status: 400 },
        ),
      );
      renderForm('/verifications/edit/not-an-id');
      expect((await screen.findByTestId('verification-form-error-not-found')).textContent).toContain(
        'This verification no longer exists',
      );
    });

    it('keeps the catalogue message and a retry for any other failure', async () => {
      let failing = true;
      const answer = vi.mocked(fetch).getMockImplementation()!;
      vi.mocked(fetch).mockImplementation(async (input, init) => {
        if (failing && String(input).includes(`/api/verifications/${existing.id}`)) {
          return Response.json(problem(500, 'INTERNAL'), { status: 500 });
        }
        return answer(input, init);
      });
      releaseVerification(existing);
      const { user } = renderForm(`/verifications/edit/${existing.id}`);
      const card = await screen.findByTestId('verification-form-error', {}, { timeout: 15_000 });
      expect(card.textContent).toContain('error in get verifications API call');
      failing = false;
      await user.click(within(card).getByRole('button', { name: 'Try again' }));
      expect(await screen.findByTestId('verification-name')).toBeTruthy();
    });

    it('speaks Japanese', async () => {
      i18n.changeLanguage('ja');
      try {
        renderForm(`/verifications/edit/${gone}`);
        const card = await screen.findByTestId('verification-form-error-not-found');
        expect(card.textContent).toContain('この検証はもう存在しません');
        expect(within(card).getByTestId('verification-form-error-back').textContent).toBe('検証一覧に戻る');
      } finally {
        i18n.changeLanguage('en');
      }
    });

    it('says so when the verification was deleted while it was being edited', async () => {
      saveAnswer = { status: 404, body: problem(404, 'VERIFICATION_NOT_FOUND') };
      releaseVerification(existing);
      const { user } = renderForm(`/verifications/edit/${existing.id}`);
      await user.click(await screen.findByTestId('verification-save'));
      await waitFor(() => expect(notificationStore.get()?.title).toBe('This verification no longer exists'));
    });
  });

  describe('verifier identifier (client_id_scheme)', () => {
    it('sends x509_hash by default and x509_san_dns when chosen', async () => {
      const { user, router } = renderForm('/verifications/create');
      await startAgeRule(user, 'Age check', '18');
      const select = screen.getByTestId('verification-client-id-scheme') as HTMLSelectElement;
      expect(select.value).toBe('x509_hash');
      expect([...select.options].map((o) => o.textContent)).toEqual([
        'Certificate hash (x509_hash)',
        'Domain name (x509_san_dns)',
      ]);
      await user.selectOptions(select, 'x509_san_dns');
      await user.click(screen.getByTestId('verification-save'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
      expect(saves()[0]?.body).toMatchObject({ client_id_scheme: 'x509_san_dns' });
    });

    it('shows the saved identifier when editing', async () => {
      const dns = verification(existing.id, { client_id_scheme: 'x509_san_dns' });
      releaseVerification(dns);
      renderForm(`/verifications/edit/${existing.id}`);
      await waitFor(() =>
        expect((screen.getByTestId('verification-client-id-scheme') as HTMLSelectElement).value).toBe('x509_san_dns'),
      );
    });
  });

  describe('trust policy', () => {
    it('sends PLATFORM_VERIFIED by default, with no issuer list', async () => {
      const { user, router } = renderForm('/verifications/create');
      await startAgeRule(user, 'Age check', '18');
      expect(screen.getByTestId('trust-policy-PLATFORM_VERIFIED').getAttribute('data-selected')).toBe('true');
      await user.click(screen.getByTestId('verification-save'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
      expect(saves()[0]?.body).toMatchObject({ trust_policy: 'PLATFORM_VERIFIED', trusted_issuers: [] });
    });

    it('saves ANY_ISSUER only after the warning is confirmed', async () => {
      const { user, router } = renderForm('/verifications/create');
      await startAgeRule(user, 'Age check', '18');
      expect(screen.queryByTestId('any-issuer-warning')).toBeNull();
      await user.click(screen.getByTestId('trust-policy-ANY_ISSUER'));
      const warning = screen.getByTestId('any-issuer-warning');
      expect(warning.textContent).toContain('The result will not say who the issuer is');
      expect(warning.textContent).toContain('proves only that whoever is named in the credential signed it');
      expect(screen.getByTestId('verification-preview').textContent).toContain(
        'From any issuer: the result proves only who signed the credential.',
      );

      await user.click(screen.getByTestId('verification-save'));
      expect((await screen.findByTestId('any-issuer-confirm-error')).textContent).toBe(
        'Confirm that you understand what “Any issuer” means',
      );
      expect(saves()).toHaveLength(0);

      await user.click(screen.getByTestId('any-issuer-confirm'));
      await waitFor(() => expect(screen.queryByTestId('any-issuer-confirm-error')).toBeNull());
      await user.click(screen.getByTestId('verification-save'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
      expect(saves()).toHaveLength(1);
      expect(saves()[0]?.body).toMatchObject({ trust_policy: 'ANY_ISSUER', trusted_issuers: [] });
    });

    it('needs at least one issuer for NAMED_ISSUERS', async () => {
      const { user, router } = renderForm('/verifications/create');
      await startAgeRule(user, 'Age check', '18');
      await user.click(screen.getByTestId('trust-policy-NAMED_ISSUERS'));
      await user.click(screen.getByTestId('trusted-issuer-remove-0'));
      await user.click(screen.getByTestId('verification-save'));
      expect((await screen.findByTestId('trust-policy-error')).textContent).toBe('Name at least one issuer');
      expect(saves()).toHaveLength(0);

      await user.click(screen.getByTestId('trusted-issuer-add'));
      await waitFor(() => expect(screen.queryByTestId('trust-policy-error')).toBeNull());
      await fill(user, screen.getByTestId('trusted-issuer-0'), 'did:web:issuer.example.com');
      await user.click(screen.getByTestId('verification-save'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
      expect(saves()[0]?.body).toMatchObject({
        trust_policy: 'NAMED_ISSUERS',
        trusted_issuers: ['did:web:issuer.example.com'],
      });
    });

    it('points TRUST_ANCHORS to the trust anchors page', async () => {
      const { user } = renderForm('/verifications/create');
      await user.click(await screen.findByTestId('trust-policy-TRUST_ANCHORS'));
      expect(screen.getByTestId('trust-anchors-link').getAttribute('href')).toBe('/trust-anchors');
    });
  });

  describe('a credential from another issuer', () => {
    it('posts its type, its claims with their paths, a rule on a claim and the claims to see', async () => {
      const { user, router } = renderForm('/verifications/create');
      await fill(user, await screen.findByTestId('verification-name'), 'Residence');
      await user.click(screen.getByTestId('verification-source-EXTERNAL'));
      expect(screen.queryByTestId('verification-schema')).toBeNull();
      await fill(user, screen.getByTestId('vct-value-0'), 'urn:eudi:pid:1');
      await fill(user, screen.getByTestId('external-claim-name-0'), 'country');
      await fill(user, screen.getByTestId('external-claim-path-0'), 'address.country');
      await user.click(screen.getByTestId('external-claim-add'));
      await fill(user, screen.getByTestId('external-claim-name-1'), 'nationality');
      await fill(user, screen.getByTestId('external-claim-path-1'), 'nationalities.0');
      await user.click(screen.getByTestId('external-claim-add'));
      await fill(user, screen.getByTestId('external-claim-name-2'), 'age');
      await fill(user, screen.getByTestId('external-claim-path-2'), 'age_in_years');
      await user.selectOptions(screen.getByTestId('external-claim-type-2'), 'NUMBER');

      // The rule names a claim, and its value is checked against the claim's type.
      await user.click(screen.getByTestId('rule-add'));
      const claimSelect = screen.getByTestId('rule-attribute-0');
      expect(
        within(claimSelect)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Choose a claim', 'country', 'nationality', 'age']);
      await user.selectOptions(claimSelect, 'age');
      await user.selectOptions(screen.getByTestId('rule-operator-0'), 'BIGGER');
      await fill(user, screen.getByTestId('rule-value-0'), 'eighteen');
      await user.click(screen.getByTestId('verification-save'));
      expect(await within(screen.getByTestId('rule-row-0')).findByText('Must be a numeric value')).toBeTruthy();
      expect(saves()).toHaveLength(0);
      await user.clear(screen.getByTestId('rule-value-0'));
      await fill(user, screen.getByTestId('rule-value-0'), '17');

      // Every claim is shown by default; the nationality is not wanted.
      expect((screen.getByTestId('claim-country') as HTMLInputElement).checked).toBe(true);
      expect((screen.getByTestId('claim-age') as HTMLInputElement).disabled).toBe(true);
      await user.click(screen.getByTestId('claim-nationality'));
      expect(screen.getByTestId('verification-preview').textContent).toContain(
        'A reusable link that asks for a “urn:eudi:pid:1” credential.',
      );
      await user.click(screen.getByTestId('verification-save'));

      await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
      expect(saves()[0]?.body).toEqual({
        name: 'Residence',
        type: 'MULTI',
        trust_policy: 'PLATFORM_VERIFIED',
        trusted_issuers: [],
        client_id_scheme: 'x509_hash',
        credential: {
          format: 'dc+sd-jwt',
          vct_values: ['urn:eudi:pid:1'],
          claims: [
            { name: 'country', path: ['address', 'country'], type: 'TEXT' },
            { name: 'nationality', path: ['nationalities', 0], type: 'TEXT' },
            { name: 'age', path: ['age_in_years'], type: 'NUMBER' },
          ],
        },
        attributes: [{ claim: 'age', operator: 'BIGGER', value: '17', type: 'NUMBER' }],
        requested_claims: ['country', 'age'],
      });
    });

    it('asks for an mdoc by doctype, with namespace.element paths', async () => {
      const { user, router } = renderForm('/verifications/create');
      await fill(user, await screen.findByTestId('verification-name'), 'Driving licence');
      await user.click(screen.getByTestId('verification-source-EXTERNAL'));
      await user.selectOptions(screen.getByTestId('verification-format'), 'mso_mdoc');
      expect(screen.queryByTestId('vct-value-0')).toBeNull();
      await fill(user, screen.getByTestId('doctype-value'), 'org.iso.18013.5.1.mDL');
      await fill(user, screen.getByTestId('external-claim-name-0'), 'family_name');
      await fill(user, screen.getByTestId('external-claim-path-0'), 'family_name');
      await user.click(screen.getByTestId('verification-save'));
      expect(
        await screen.findByText('Must be a namespace and an element, e.g. org.iso.18013.5.1.family_name'),
      ).toBeTruthy();
      expect(saves()).toHaveLength(0);
      await user.clear(screen.getByTestId('external-claim-path-0'));
      await fill(user, screen.getByTestId('external-claim-path-0'), 'org.iso.18013.5.1.family_name');
      expect(screen.getByTestId('verification-preview').textContent).toContain('“org.iso.18013.5.1.mDL”');
      await user.click(screen.getByTestId('verification-save'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/verifications'));
      expect(saves()[0]?.body).toMatchObject({
        credential: {
          format: 'mso_mdoc',
          doctype_value: 'org.iso.18013.5.1.mDL',
          claims: [{ name: 'family_name', path: ['org.iso.18013.5.1', 'family_name'], type: 'TEXT' }],
        },
      });
    });

    it('checks the type URI, the claim names and the paths before sending', async () => {
      const { user } = renderForm('/verifications/create');
      await fill(user, await screen.findByTestId('verification-name'), 'Residence');
      await user.click(screen.getByTestId('verification-source-EXTERNAL'));
      await fill(user, screen.getByTestId('vct-value-0'), 'pid');
      await fill(user, screen.getByTestId('external-claim-name-0'), 'country');
      await fill(user, screen.getByTestId('external-claim-path-0'), 'address..country');
      await user.click(screen.getByTestId('external-claim-add'));
      await fill(user, screen.getByTestId('external-claim-name-1'), 'country');
      await fill(user, screen.getByTestId('external-claim-path-1'), 'country');
      await user.click(screen.getByTestId('verification-save'));
      expect(await screen.findByText('Must be a URI (https://… or urn:…)')).toBeTruthy();
      expect(
        screen.getByText('Must be a dotted path that starts with a claim name, e.g. address.country'),
      ).toBeTruthy();
      expect(screen.getByText('Another claim already has this name')).toBeTruthy();
      expect(saves()).toHaveLength(0);
    });

    it('prefills a verification of another issuer’s type for editing', async () => {
      releaseVerification(
        verification(existing.id, {
          schema: null,
          credential: {
            format: 'dc+sd-jwt',
            vct_values: ['https://issuer.example.com/pid'],
            claims: [{ name: 'country', path: ['address', 'country'], type: 'TEXT' }],
          },
          attributes: [{ attribute_id: null, name: 'country', operator: 'EQUAL', value: 'JP', type: 'TEXT' }],
          requested_claims: ['country'],
          requested_attribute_ids: [],
          trust_policy: 'TRUST_ANCHORS',
        }),
      );
      renderForm(`/verifications/edit/${existing.id}`);
      expect(((await screen.findByTestId('vct-value-0')) as HTMLInputElement).value).toBe(
        'https://issuer.example.com/pid',
      );
      expect(screen.getByTestId('verification-source-EXTERNAL').getAttribute('aria-pressed')).toBe('true');
      expect((screen.getByTestId('external-claim-path-0') as HTMLInputElement).value).toBe('address.country');
      expect((screen.getByTestId('rule-attribute-0') as HTMLSelectElement).value).toBe('country');
      expect((screen.getByTestId('rule-value-0') as HTMLInputElement).value).toBe('JP');
      expect(screen.getByTestId('trust-policy-TRUST_ANCHORS').getAttribute('data-selected')).toBe('true');
    });
  });
});
