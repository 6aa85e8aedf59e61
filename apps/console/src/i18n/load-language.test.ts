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
    const { i18n, i18nReady, changeLanguage, loadWorkspaceMessages, loadWorkspacePagesMessages } = await startI18n();
    await i18nReady;
    const parts = (language: string) => Object.keys(i18n.getResourceBundle(language) ?? {});
    // The shared messages are in; the public holder pages' and the signed-in pages' are not.
    expect(i18n.exists('intro.signIn')).toBe(true);
    expect(parts('en')).not.toContain('connect');
    expect(parts('en')).not.toContain('issuing');
    expect(parts('en')).not.toContain('nav');

    // With the shell: the shell's own and the credential list's, not yet the other pages'.
    await loadWorkspaceMessages();
    expect(parts('en')).toEqual(expect.arrayContaining(['nav', 'issuing', 'kyb']));
    expect(parts('en')).not.toContain('verifications');
    expect(i18n.exists('members.nav')).toBe(true); // the menu's label of a page whose messages come later
    expect(i18n.exists('members.invite.title')).toBe(false);

    await loadWorkspacePagesMessages();
    expect(parts('en')).toEqual(expect.arrayContaining(['verifications', 'members', 'integrations']));

    await changeLanguage('ja');
    expect(parts('ja')).toEqual(expect.arrayContaining(['app', 'nav', 'issuing', 'verifications']));
    expect(parts('ja')).not.toContain('connect');
  });

  it("loads the public holder pages' messages with them, and with every language from then on", async () => {
    const { i18n, i18nReady, changeLanguage, loadConnectMessages } = await startI18n();
    await i18nReady;
    await loadConnectMessages();
    expect(Object.keys(i18n.getResourceBundle('en') ?? {})).toContain('connect');
    expect(Object.keys(i18n.getResourceBundle('en') ?? {})).not.toContain('issuing');
    await changeLanguage('ko');
    expect(Object.keys(i18n.getResourceBundle('ko') ?? {})).toContain('connect');
  });
});
