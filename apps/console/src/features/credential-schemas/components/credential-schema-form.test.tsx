import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  CredentialSchemaForm,
  type CredentialSchemaFormValues,
  emptyCredentialSchemaForm,
} from './credential-schema-form.tsx';

function renderForm(defaultValues: CredentialSchemaFormValues = emptyCredentialSchemaForm()) {
  const onPublish = vi.fn(async () => {});
  const onCancel = vi.fn();
  render(<CredentialSchemaForm defaultValues={defaultValues} onPublish={onPublish} onCancel={onCancel} />);
  return { onPublish, onCancel, user: userEvent.setup() };
}

/** Typing letter by letter is slow in jsdom; a change event is what the form reacts to. */
const fill = (testId: string, value: string) => {
  const input = screen.getByTestId(testId);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

const helperOf = (testId: string) =>
  screen.getByTestId(testId).closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent;

// MUI renders slowly in jsdom on a busy machine: generous time per test.
describe('CredentialSchemaForm', { timeout: 30_000 }, () => {
  it("shows 'This field is required' for an empty name and attribute name, and does not publish", async () => {
    const { onPublish, user } = renderForm();
    await user.click(screen.getByTestId('schema-publish'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(helperOf('schema-name')).toBe('This field is required');
    expect(helperOf('attribute-name-0')).toBe('This field is required');
    expect(screen.queryByTestId('schema-publish-confirm')).toBeNull();
    expect(onPublish).not.toHaveBeenCalled();
  });

  it('explains invalid, reserved and duplicate attribute names', async () => {
    const { onPublish, user } = renderForm();
    fill('schema-name', 'Membership');
    await user.click(screen.getByTestId('attribute-add'));
    await user.click(screen.getByTestId('attribute-add'));
    fill('attribute-name-0', '1st name');
    fill('attribute-name-1', 'iss');
    fill('attribute-name-2', 'ISS');
    await user.click(screen.getByTestId('schema-publish'));
    await waitFor(() => expect(helperOf('attribute-name-0')).toMatch(/^Start with a letter/));
    expect(helperOf('attribute-name-1')).toBe('“iss” is reserved by the credential format. Choose another name.');
    expect(helperOf('attribute-name-2')).toBe('“ISS” is reserved by the credential format. Choose another name.');

    fill('attribute-name-0', 'email');
    fill('attribute-name-1', 'Email');
    fill('attribute-name-2', 'phone');
    await user.click(screen.getByTestId('schema-publish'));
    await waitFor(() => expect(helperOf('attribute-name-1')).toBe('Each attribute needs a different name.'));
    expect(helperOf('attribute-name-0')).toBeUndefined();
    expect(onPublish).not.toHaveBeenCalled();
  });

  it('adds and removes attribute rows, never fewer than one', async () => {
    const { user } = renderForm();
    expect((screen.getByTestId('attribute-remove-0') as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId('attribute-add'));
    await user.click(screen.getByTestId('attribute-add'));
    fill('attribute-name-0', 'first');
    fill('attribute-name-1', 'second');
    fill('attribute-name-2', 'third');
    await user.click(screen.getByTestId('attribute-remove-1'));
    expect(screen.queryByTestId('attribute-name-2')).toBeNull();
    expect((screen.getByTestId('attribute-name-0') as HTMLInputElement).value).toBe('first');
    expect((screen.getByTestId('attribute-name-1') as HTMLInputElement).value).toBe('third');
  });

  it("offers every attribute type, DATETIME shown as 'Date / Time'", () => {
    renderForm();
    const select = screen.getByTestId('attribute-type-0') as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['TEXT', 'Text'],
      ['NUMBER', 'Number'],
      ['BOOLEAN', 'Yes / No'],
      ['URL', 'Web address (URL)'],
      ['DATETIME', 'Date / Time'],
      ['EMAIL', 'Email'],
    ]);
    expect(select.value).toBe('TEXT');
  });

  it('asks for confirmation that a published schema cannot be edited, then publishes the trimmed request', async () => {
    const { onPublish, user } = renderForm();
    fill('schema-name', '  Membership Card ');
    fill('attribute-name-0', 'member_id');
    fill('attribute-description-0', ' Card number ');
    await user.click(screen.getByTestId('attribute-add'));
    fill('attribute-name-1', 'valid_until');
    fireEvent.change(screen.getByTestId('attribute-type-1'), { target: { value: 'DATETIME' } });
    await user.click(screen.getByTestId('schema-publish'));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/A published schema cannot be edited/)).toBeTruthy();
    expect(onPublish).not.toHaveBeenCalled();
    await user.click(within(dialog).getByTestId('schema-publish-confirm'));
    await waitFor(() => expect(onPublish).toHaveBeenCalledTimes(1));
    expect(onPublish).toHaveBeenCalledWith({
      name: 'Membership Card',
      attributes: [
        { name: 'member_id', type: 'TEXT', description: 'Card number' },
        { name: 'valid_until', type: 'DATETIME' },
      ],
    });
  });

  it('starts from the given values (duplicate)', () => {
    renderForm({
      name: 'Copy of Diploma',
      description: 'Degree',
      attributes: [
        { name: 'grade', type: 'NUMBER', description: '' },
        { name: 'awarded_at', type: 'DATETIME', description: 'Day of the ceremony' },
      ],
    });
    expect((screen.getByTestId('schema-name') as HTMLInputElement).value).toBe('Copy of Diploma');
    expect((screen.getByTestId('attribute-type-0') as HTMLSelectElement).value).toBe('NUMBER');
    expect((screen.getByTestId('attribute-name-1') as HTMLInputElement).value).toBe('awarded_at');
    expect((screen.getByTestId('attribute-description-1') as HTMLInputElement).value).toBe('Day of the ceremony');
  });
});
