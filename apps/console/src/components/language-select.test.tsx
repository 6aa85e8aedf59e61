import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { LanguageSelect } from './language-select.tsx';

afterEach(async () => {
  i18n.changeLanguage('en');
});

const renderSelect = (props: Parameters<typeof LanguageSelect>[0] = {}) => render(<LanguageSelect {...props} />);

describe('LanguageSelect', () => {
  it('is a labelled native select listing each language in its own name', () => {
    renderSelect({ helperText: 'Shown on this device' });
    const select = screen.getByLabelText('Language');
    expect(select.tagName).toBe('SELECT');
    expect(select).toBe(screen.getByTestId('language-select'));
    expect((select as HTMLSelectElement).value).toBe('en');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'English',
      '日本語',
      'Español',
      '한국어',
    ]);
    const helper = document.getElementById(select.getAttribute('aria-describedby') ?? '');
    expect(helper?.textContent).toBe('Shown on this device');
  });

  it('switches the language, stores it and tells the caller', async () => {
    let changed = 0;
    renderSelect({ testId: 'claim-language', onChanged: () => changed++ });
    await userEvent.selectOptions(screen.getByTestId('claim-language'), 'ja');
    expect(i18n.language).toBe('ja');
    expect(window.localStorage.getItem('lang')).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(changed).toBe(1);
    expect(await screen.findByLabelText('表示言語')).toBe(screen.getByTestId('claim-language'));
  });
});
