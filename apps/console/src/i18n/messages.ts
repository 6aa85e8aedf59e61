import type { SupportedLanguage } from './detect-language.ts';

export type MessageTree = { [key: string]: string | MessageTree };

/**
 * Each language is one tree: the shared messages plus each feature's own `features/<feature>/locales/<lang>.json`,
 * under the feature's own top-level key. Every language is its own chunk (`bundles/<lang>.ts`), so the first
 * screen downloads only the language it shows.
 */
const bundles: Record<SupportedLanguage, () => Promise<{ messages: MessageTree }>> = {
  en: () => import('./bundles/en.ts'),
  ja: () => import('./bundles/ja.ts'),
  es: () => import('./bundles/es.ts'),
  ko: () => import('./bundles/ko.ts'),
};

/** Downloads the messages of one language. */
export async function loadMessages(language: SupportedLanguage): Promise<MessageTree> {
  return (await bundles[language]()).messages;
}

function merge(target: MessageTree, source: MessageTree): MessageTree {
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
