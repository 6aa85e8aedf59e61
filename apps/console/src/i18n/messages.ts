import type { SupportedLanguage } from './detect-language.ts';

export type MessageTree = { [key: string]: string | MessageTree };

/**
 * Each language is one tree: the shared messages plus each feature's own `features/<feature>/locales/<lang>.json`,
 * under the feature's own top-level key. It comes in two chunks per language, so the first screen downloads only the
 * language it shows, and a signed-out visitor only what the public pages need (issue 8):
 * - `bundles/<lang>.ts`: the shared messages and the public holder pages' (`connect`);
 * - `bundles/<lang>-workspace.ts`: every other feature's, for the signed-in pages (loaded with the app shell).
 */
export type MessagePart = 'base' | 'workspace';

const bundles: Record<MessagePart, Record<SupportedLanguage, () => Promise<{ messages: MessageTree }>>> = {
  base: {
    en: () => import('./bundles/en.ts'),
    ja: () => import('./bundles/ja.ts'),
    es: () => import('./bundles/es.ts'),
    ko: () => import('./bundles/ko.ts'),
  },
  workspace: {
    en: () => import('./bundles/en-workspace.ts'),
    ja: () => import('./bundles/ja-workspace.ts'),
    es: () => import('./bundles/es-workspace.ts'),
    ko: () => import('./bundles/ko-workspace.ts'),
  },
};

/** Downloads one part of a language's messages. */
export async function loadMessages(language: SupportedLanguage, part: MessagePart = 'base'): Promise<MessageTree> {
  return (await bundles[part][language]()).messages;
}

/** Deep-merges `source` into `target` (copying its subtrees) and returns `target`. */
export function merge(target: MessageTree, source: MessageTree): MessageTree {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') merge(existing, value);
    else target[key] = typeof value === 'object' ? merge({}, value) : value;
  }
  return target;
}

/** The shared messages with every feature's messages merged in (features in path order, as the glob lists them). */
export function mergeMessages(base: MessageTree, features: Record<string, MessageTree>): MessageTree {
  const tree = merge({}, base);
  for (const messages of Object.values(features)) merge(tree, messages);
  return tree;
}
