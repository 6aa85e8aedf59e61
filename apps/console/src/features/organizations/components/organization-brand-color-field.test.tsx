import { type Organization, zOrganization } from '@cp/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, i18n } from '../../../i18n/index.ts';
import { notificationStore } from '../../../lib/notifications.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { OrganizationBrandColorField, parseColorInput } from './organization-brand-color-field.tsx';

const organization = (extra: Partial<Organization> = {}): Organization =>
  zOrganization.parse({
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Acme University',
    description: null,
    did: null,
    logo: null,
    brand_color: null,
    verified: true,
    verification_status: 'APPROVED',
    require_two_factor: false,
    created_at: '2026-11-01T10:00:00Z',
    ...extra,
  });

let puts: { url: string; body: string; identity: string | null }[];
let answer: (body: Record<string, unknown>) => { status: number; body: unknown };

beforeEach(() => {
  puts = [];
  answer = (body) => ({ status: 200, body: organization({ brand_color: body.brand_color as string | null }) });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      if (init.method === 'PUT') {
        puts.push({
          url: input,
          body: String(init.body),
          identity: new Headers(init.headers).get('CurrentIdentity'),
        });
        const reply = answer(JSON.parse(String(init.body)));
        return Response.json(reply.body, { status: reply.status });
      }
      return Response.json({ results: [organization()] });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  notificationStore.dismiss();
  i18n.changeLanguage('en');
});

function renderField(props: Partial<Organization> = {}, onOuterSubmit = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      {/* The field lives inside the profile form. */}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onOuterSubmit();
        }}
      >
        <OrganizationBrandColorField organization={organization(props)} />
      </form>
    </QueryClientProvider>,
  );
  return { onOuterSubmit };
}

const hexField = () => screen.getByTestId('organization-brand-color') as HTMLInputElement;
const contrast = () => screen.getByTestId('organization-brand-color-contrast');
const previewHeader = () => screen.getByTestId('organization-brand-color-preview-header-band');

describe('OrganizationBrandColorField', () => {
  it('reads pasted colours leniently and refuses what is not one', () => {
    expect(parseColorInput('#1A73E8')).toBe('#1a73e8');
    expect(parseColorInput(' 1a73e8 ')).toBe('#1a73e8');
    expect(parseColorInput('#fc0')).toBe('#ffcc00');
    expect(parseColorInput('')).toBe('');
    expect(parseColorInput('red')).toBeNull();
    expect(parseColorInput('#1a73e')).toBeNull();
  });

  it('says holders see the default colours while there is no brand colour', () => {
    renderField();
    expect(hexField().value).toBe('');
    expect(contrast().textContent).toContain('No brand color yet');
    expect(previewHeader().getAttribute('data-brand-color')).toBe('');
    expect(screen.queryByTestId('organization-brand-color-reset')).toBeNull();
    expect(screen.getByTestId('organization-brand-color-save')).toHaveProperty('disabled', true);
  });

  it('previews the band and the button live, with white text on a dark colour', async () => {
    const user = userEvent.setup({ delay: null });
    renderField();
    await user.type(hexField(), '#003366');
    expect(previewHeader().getAttribute('data-brand-color')).toBe('#003366');
    expect(getComputedStyle(previewHeader()).backgroundColor).toBe('rgb(0, 51, 102)');
    expect(getComputedStyle(previewHeader()).color).toBe('rgb(255, 255, 255)');
    const button = screen.getByTestId('organization-brand-color-preview-button');
    expect(getComputedStyle(button).backgroundColor).toBe('rgb(0, 51, 102)');
    expect(getComputedStyle(button).color).toBe('rgb(255, 255, 255)');
    expect(contrast().getAttribute('data-level')).toBe('white');
    expect(contrast().textContent).toContain('12.6:1');
    expect((screen.getByTestId('organization-brand-color-picker') as HTMLInputElement).value).toBe('#003366');
  });

  it('warns when white text would fall below 4.5:1, and says near-black text is used instead', async () => {
    const user = userEvent.setup({ delay: null });
    renderField();
    await user.type(hexField(), '#FFCC00');
    expect(contrast().getAttribute('data-level')).toBe('dark');
    expect(contrast().textContent).toContain('White text would be hard to read');
    // 1.51:1 is shown rounded down, never up into a pass.
    expect(contrast().textContent).toContain('1.5:1');
    expect(contrast().textContent).toContain('below the 4.5:1');
    expect(contrast().textContent).toContain('near-black text');
    expect(getComputedStyle(previewHeader()).color).toBe('rgb(17, 17, 17)');
  });

  it('warns that neither text colour reads well on a mid-tone', async () => {
    const user = userEvent.setup({ delay: null });
    renderField();
    await user.type(hexField(), '#787878');
    expect(contrast().getAttribute('data-level')).toBe('low');
    expect(contrast().textContent).toContain('a darker or lighter shade');
  });

  it('warns in the page language', async () => {
    await changeLanguage('ja');
    const user = userEvent.setup({ delay: null });
    renderField();
    await user.type(hexField(), '#ffcc00');
    expect(contrast().textContent).toContain('白い文字が読みにくく');
    expect(contrast().textContent).toContain('黒に近い文字色');
  });

  it('shows a field error for what is not a colour and will not save it', async () => {
    const user = userEvent.setup({ delay: null });
    renderField({ brand_color: '#004a46' });
    await user.clear(hexField());
    await user.type(hexField(), 'teal');
    expect(screen.getByText('Enter a color as #rrggbb, for example #1a73e8')).toBeTruthy();
    expect(hexField().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('organization-brand-color-save')).toHaveProperty('disabled', true);
    // The preview keeps the saved colour meanwhile.
    expect(previewHeader().getAttribute('data-brand-color')).toBe('#004a46');
  });

  it('saves the colour from the picker as #rrggbb for this organization', async () => {
    const user = userEvent.setup({ delay: null });
    renderField();
    fireEvent.input(screen.getByTestId('organization-brand-color-picker'), { target: { value: '#1a73e8' } });
    expect(hexField().value).toBe('#1a73e8');
    await user.click(screen.getByTestId('organization-brand-color-save'));
    await waitFor(() => expect(puts).toHaveLength(1));
    await waitFor(() => expect(notificationStore.get()?.title).toBe('Your Organization updated successfully!'));
    expect(puts[0]?.url).toBe('/api/organizations/11111111-1111-4111-8111-111111111111');
    expect(JSON.parse(puts[0]!.body)).toEqual({ brand_color: '#1a73e8' });
    expect(puts[0]?.identity).toBe('11111111-1111-4111-8111-111111111111');
  });

  it('goes back to the default colours by sending null (not dropped from the body)', async () => {
    const user = userEvent.setup({ delay: null });
    renderField({ brand_color: '#004a46' });
    expect(hexField().value).toBe('#004a46');
    await user.click(screen.getByTestId('organization-brand-color-reset'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.body).toBe('{"brand_color":null}');
  });

  it('saves on Enter without submitting the profile form around it', async () => {
    const user = userEvent.setup({ delay: null });
    const { onOuterSubmit } = renderField();
    await user.type(hexField(), '#00aa55{Enter}');
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(JSON.parse(puts[0]!.body)).toEqual({ brand_color: '#00aa55' });
    expect(onOuterSubmit).not.toHaveBeenCalled();
  });

  it('says so when the API refuses the colour', async () => {
    answer = () => ({
      status: 400,
      body: { type: 'x', title: 'Bad Request', status: 400, code: 'REQUEST_INVALID', errors: [] },
    });
    const user = userEvent.setup({ delay: null });
    renderField();
    await user.type(hexField(), '#00aa55');
    await user.click(screen.getByTestId('organization-brand-color-save'));
    await waitFor(() => expect(puts).toHaveLength(1));
    await waitFor(() => expect(notificationStore.get()?.severity).toBe('error'));
    expect(notificationStore.get()?.title).toBe('Your Organization update failed. Please try again.');
    // Nothing lost: the typed colour stays for another try.
    expect(hexField().value).toBe('#00aa55');
    expect(screen.getByTestId('organization-brand-color-save')).toHaveProperty('disabled', false);
  });
});
