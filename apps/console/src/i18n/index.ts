import {
  applyDocumentLanguage,
  DEFAULT_LANGUAGE,
  detectLanguage,
  LANG_STORAGE_KEY,
  type SupportedLanguage,
  toSupportedLanguage,
} from './detect-language.ts';
import { loadMessages, type MessagePart } from './messages.ts';
import { bindTranslator } from './react.tsx';
import { createTranslator } from './translator.ts';

function readStored(): string | null {
  try {
    return window.localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    return null;
  }
}

function persist(language: SupportedLanguage): void {
  try {
    window.localStorage.setItem(LANG_STORAGE_KEY, language);
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this page only.
  }
}

const initialLanguage = detectLanguage({
  search: window.location.search,
  stored: readStored(),
  browser: window.navigator.languages ?? [window.navigator.language],
});
// A valid ?lang= becomes the stored choice, so it survives the sign-in round trip.
if (toSupportedLanguage(new URLSearchParams(window.location.search).get('lang'))) persist(initialLanguage);

// Messages are added per language as they are downloaded (`loadLanguage`); none is bundled up front.
export const i18n = createTranslator({ language: initialLanguage, fallbackLanguage: DEFAULT_LANGUAGE });
export const { useTranslation, Trans } = bindTranslator(i18n);

const loadedParts = new Set<string>();
/** Parts beyond `base` wanted so far (a signed-in screen, a public holder page): every language comes with them. */
const wantedParts = new Set<MessagePart>();

async function loadPart(language: SupportedLanguage, part: MessagePart): Promise<void> {
  const key = `${part}:${language}`;
  if (loadedParts.has(key)) return;
  i18n.addResourceBundle(language, await loadMessages(language, part));
  loadedParts.add(key);
}

/** Downloads a language's messages once (with the other parts wanted so far) and adds them to `i18n`. */
export async function loadLanguage(language: SupportedLanguage): Promise<void> {
  await Promise.all([loadPart(language, 'base'), ...[...wantedParts].map((part) => loadPart(language, part))]);
}

/** Downloads one more part of the messages in the language shown (and, from now on, in any language switched to). */
async function loadMessagePart(part: MessagePart): Promise<void> {
  wantedParts.add(part);
  const language = toSupportedLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
  try {
    await loadPart(language, part);
  } catch {
    // As for the first language: English is better than raw keys, and the page still renders.
    if (language !== DEFAULT_LANGUAGE) await loadPart(DEFAULT_LANGUAGE, part).catch(() => undefined);
  }
}

/**
 * Downloads the signed-in pages' messages. The app shell's route and the no-organization page load it with their
 * code, so they never render raw keys.
 */
export const loadWorkspaceMessages = (): Promise<void> => loadMessagePart('workspace');

/**
 * Downloads the messages of the signed-in pages beyond what the credential list shows at first paint (with the shell's,
 * which they need too): each of those routes and of the list's dialogs loads it with its code, and the shell once the
 * first page has painted.
 */
export const loadWorkspacePagesMessages = (): Promise<void> =>
  Promise.all([loadMessagePart('workspace'), loadMessagePart('workspacePages')]).then(() => undefined);

/** Downloads the public holder pages' messages (/connect/…), with their code. */
export const loadConnectMessages = (): Promise<void> => loadMessagePart('connect');

async function loadInitialLanguage(): Promise<void> {
  try {
    await loadLanguage(initialLanguage);
  } catch {
    // The chunk could not be fetched: English is better than raw keys.
    if (initialLanguage !== DEFAULT_LANGUAGE) await loadLanguage(DEFAULT_LANGUAGE).catch(() => undefined);
  }
  applyDocumentLanguage(initialLanguage, document, i18n.t('app.name'));
}

/**
 * Settles once the detected language's messages are loaded. Render after it: the first paint is then in the
 * right language, with no flash of English or of raw keys.
 */
export const i18nReady: Promise<void> = loadInitialLanguage();

/** Switches the language (downloading its messages first), stores the choice and updates `<html lang dir>`. */
export async function changeLanguage(value: string): Promise<void> {
  const language = toSupportedLanguage(value);
  if (!language) return;
  await loadLanguage(language);
  persist(language);
  i18n.changeLanguage(language);
  applyDocumentLanguage(language, document, i18n.t('app.name'));
}

export { SUPPORTED_LANGUAGES, type SupportedLanguage } from './detect-language.ts';
export type { TFunction, TranslateOptions, Translator } from './translator.ts';
