import type { SupportedLanguage } from './detect-language.ts';
import type { MessageTree } from './message-tree.ts';

/**
 * Each language is one tree: the shared messages plus each feature's own `features/<feature>/locales/<lang>.json`,
 * under the feature's own top-level key. It comes in four chunks per language, so the first screen downloads only the
 * language it shows, and a signed-out visitor only what the public pages need (issue 8):
 * - `bundles/<lang>.ts`: the shared messages;
 * - `bundles/<lang>-connect.ts`: the public holder pages' (`connect`, loaded with their code; issue 16);
 * - `bundles/<lang>-workspace.ts`: what a signed-in user's first page (the credential list) shows, loaded with the
 *   shell: the shell's and each feature's `locales/first-page/<lang>.json`;
 * - `bundles/<lang>-workspace-pages.ts`: the rest of the signed-in pages' (loaded with them and with the dialogs the
 *   list opens, or once the shell is idle).
 */
export type MessagePart = 'base' | 'connect' | 'workspace' | 'workspacePages';

const bundles: Record<MessagePart, Record<SupportedLanguage, () => Promise<{ messages: MessageTree }>>> = {
  base: {
    en: () => import('./bundles/en.ts'),
    ja: () => import('./bundles/ja.ts'),
    es: () => import('./bundles/es.ts'),
    ko: () => import('./bundles/ko.ts'),
  },
  connect: {
    en: () => import('./bundles/en-connect.ts'),
    ja: () => import('./bundles/ja-connect.ts'),
    es: () => import('./bundles/es-connect.ts'),
    ko: () => import('./bundles/ko-connect.ts'),
  },
  workspace: {
    en: () => import('./bundles/en-workspace.ts'),
    ja: () => import('./bundles/ja-workspace.ts'),
    es: () => import('./bundles/es-workspace.ts'),
    ko: () => import('./bundles/ko-workspace.ts'),
  },
  workspacePages: {
    en: () => import('./bundles/en-workspace-pages.ts'),
    ja: () => import('./bundles/ja-workspace-pages.ts'),
    es: () => import('./bundles/es-workspace-pages.ts'),
    ko: () => import('./bundles/ko-workspace-pages.ts'),
  },
};

/** Downloads one part of a language's messages. */
export async function loadMessages(language: SupportedLanguage, part: MessagePart = 'base'): Promise<MessageTree> {
  return (await bundles[part][language]()).messages;
}
