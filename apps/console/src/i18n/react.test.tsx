import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bindTranslator, renderMarkup } from './react.tsx';
import { createTranslator } from './translator.ts';

function setup() {
  const i18n = createTranslator({ language: 'en', fallbackLanguage: 'en' });
  i18n.addResourceBundle('en', {
    title: 'Language',
    terms: 'By continuing you agree to the <terms>Terms of Use</terms> and <privacy>Privacy Policy</privacy>.',
    code: '<code>v1,</code> then <code>{id}</code><br/><b>bold</b>',
  });
  i18n.addResourceBundle('ja', {
    title: '表示言語',
    terms: '続行すると<terms>利用規約</terms>と<privacy>プライバシーポリシー</privacy>に同意したことになります。',
  });
  return { i18n, ...bindTranslator(i18n) };
}

describe('React binding', () => {
  it('re-renders on a language change', () => {
    const { i18n, useTranslation } = setup();
    let renders = 0;
    function Title() {
      const { t } = useTranslation();
      renders++;
      return <h1>{t('title')}</h1>;
    }
    render(<Title />);
    expect(screen.getByRole('heading').textContent).toBe('Language');
    act(() => i18n.changeLanguage('ja'));
    expect(screen.getByRole('heading').textContent).toBe('表示言語');
    expect(renders).toBeGreaterThan(1);
  });

  it('renders <Trans> markup with the given components, in the language shown', () => {
    const { i18n, Trans } = setup();
    render(
      <p data-testid="terms">
        {/* biome-ignore lint/a11y/useAnchorContent: <Trans> gives the links their text. */}
        <Trans i18nKey="terms" components={{ terms: <a href="/terms" />, privacy: <a href="/privacy" /> }} />
      </p>,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Terms of Use', '/terms'],
      ['Privacy Policy', '/privacy'],
    ]);
    expect(screen.getByTestId('terms').textContent).toBe(
      'By continuing you agree to the Terms of Use and Privacy Policy.',
    );
    act(() => i18n.changeLanguage('ja'));
    expect(screen.getByRole('link', { name: '利用規約' }).getAttribute('href')).toBe('/terms');
  });

  it('keeps the text of tags without a component and never parses HTML', () => {
    const { Trans } = setup();
    const { container } = render(<Trans i18nKey="code" components={{ code: <code /> }} />);
    expect(Array.from(container.querySelectorAll('code'), (node) => node.textContent)).toEqual(['v1,', '{id}']);
    expect(container.querySelector('b, br')).toBeNull();
    expect(container.textContent).toBe('v1, then {id}bold');
  });

  it('treats stray closing tags as text and closes unclosed ones', () => {
    const { container } = render(renderMarkup('a </x> <em>b', { em: <em /> }));
    expect(container.innerHTML).toBe('a &lt;/x&gt; <em>b</em>');
  });
});
