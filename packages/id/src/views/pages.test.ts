import { describe, expect, it } from 'vitest';
import { LOCALES, translator } from './i18n.ts';
import { signInPage, signUpPage } from './pages.ts';

const page = (locale: (typeof LOCALES)[number] = 'en') => ({ locale, t: translator(locale), currentUrl: '/x' });

/** The first element a keyboard reaches in the body (links, buttons, fields). */
function firstFocusable(markup: string): string {
  const body = markup.slice(markup.indexOf('<body>'));
  return /<(a|button|input(?![^>]*type="hidden")|select|textarea)\b[^>]*>/.exec(body)?.[0] ?? '';
}

describe('account center pages: structure for assistive technologies', () => {
  it.each(LOCALES)('%s: a skip link comes first and leads to the main landmark', (locale) => {
    const markup = signInPage(page(locale), { action: '/x', csrf: 'c', signUpUrl: '/y' });
    expect(firstFocusable(markup)).toBe('<a class="skip-link" href="#main">');
    expect(markup).toContain(`>${translator(locale)('skipToContent')}</a>`);
    expect(markup).toMatch(/<main class="card" id="main" tabindex="-1">[\s\S]*<form[\s\S]*<\/main>/);
    expect(markup).toMatch(/<header class="brand">/);
    expect(markup).toMatch(/<footer class="footer">\s*<nav aria-label="[^"]+">/);
  });

  it('marks a field in error as invalid with a valid ARIA value, described by its message', () => {
    const markup = signUpPage(page(), {
      action: '/x',
      csrf: 'c',
      values: {},
      errors: { firstName: 'errRequired' },
      signInUrl: '/y',
    });
    const input = /<input id="field-firstName"[^>]*>/.exec(markup)?.[0] ?? '';
    expect(input).toContain(' aria-invalid="true"');
    expect(input).toContain(' aria-describedby="field-firstName-error"');
    expect(markup).toContain('<p class="field-error" id="field-firstName-error">This field is required</p>');
    // Fields without an error are not marked.
    expect(/<input id="field-lastName"[^>]*>/.exec(markup)?.[0]).not.toContain('aria-invalid');
  });
});
