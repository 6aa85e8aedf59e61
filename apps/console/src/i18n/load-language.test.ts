import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages as es } from './bundles/es.ts';
import { messages as ja } from './bundles/ja.ts';
import { LANG_STORAGE_KEY } from './detect-language.ts';

/** A fresh `i18n/index.ts`, as the app starts it (the test setup's shared instance has every language loaded). */
async function startI18n() {
  vi.resetModules();
  return import('./index.ts');
}

const appName = (tree: typeof ja) => (tree.app as { name: string }).name;

afterEach(() => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('language loading', () => {
  it('loads only the detected language, then sets <html lang> and the title in it', async () => {
    window.localStorage.setItem(LANG_STORAGE_KEY, 'ja');
    const { i18n, i18nReady } = await startI18n();
    expect(i18n.hasResourceBundle('ja')).toBe(false);

    await i18nReady;
    expect(i18n.language).toBe('ja');
    expect(i18n.t('app.name')).toBe(appName(ja));
    expect(['en', 'es', 'ko'].filter((language) => i18n.hasResourceBundle(language))).toEqual([]);
    expect(document.documentElement.lang).toBe('ja');
    expect(document.title).toBe(appName(ja));
  });

  it('downloads a language before switching to it and remembers the choice', async () => {
    const { i18n, i18nReady, changeLanguage } = await startI18n();
    await i18nReady;
    expect(i18n.language).toBe('en');
    expect(i18n.hasResourceBundle('es')).toBe(false);

    await changeLanguage('es');
    expect(i18n.hasResourceBundle('es')).toBe(true);
    expect(i18n.language).toBe('es');
    expect(i18n.t('app.name')).toBe(appName(es));
    expect(window.localStorage.getItem(LANG_STORAGE_KEY)).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('ignores an unsupported language without downloading anything', async () => {
    const { i18n, i18nReady, changeLanguage } = await startI18n();
    await i18nReady;
    await changeLanguage('<script>');
    await changeLanguage('fr');
    expect(i18n.language).toBe('en');
    expect(window.localStorage.getItem(LANG_STORAGE_KEY)).toBeNull();
    expect(['ja', 'es', 'ko'].filter((language) => i18n.hasResourceBundle(language))).toEqual([]);
  });

  it("leaves the signed-in pages' messages out until they are wanted, then keeps them with every language", async () => {
    const { i18n, i18nReady, changeLanguage, loadWorkspaceMessages } = await startI18n();
    await i18nReady;
    // The public pages' messages are in; the credentials feature's (a signed-in page) are not.
    expect(i18n.exists('intro.signIn')).toBe(true);
    expect(Object.keys(i18n.getResourceBundle('en') ?? {})).toContain('connect');
    expect(Object.keys(i18n.getResourceBundle('en') ?? {})).not.toContain('issuing');

    await loadWorkspaceMessages();
    expect(Object.keys(i18n.getResourceBundle('en') ?? {})).toEqual(expect.arrayContaining(['issuing', 'kyb']));

    await changeLanguage('ja');
    expect(Object.keys(i18n.getResourceBundle('ja') ?? {})).toEqual(
      expect.arrayContaining(['app', 'connect', 'issuing', 'verifications']),
    );
  });
});
