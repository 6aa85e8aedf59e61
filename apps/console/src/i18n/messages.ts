import en from './locales/en.json';
import es from './locales/es.json';
import ja from './locales/ja.json';
import ko from './locales/ko.json';

export type MessageTree = { [key: string]: string | MessageTree };
type Language = 'en' | 'ja' | 'es' | 'ko';

/**
 * The shared messages plus each feature's own `features/<feature>/locales/<lang>.json`, merged into one
 * tree per language. Features keep their texts next to their code, under their own top-level key.
 */
const featureFiles = import.meta.glob<MessageTree>('../features/*/locales/*.json', { eager: true, import: 'default' });

function merge(target: MessageTree, source: MessageTree): MessageTree {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') merge(existing, value);
    else target[key] = typeof value === 'object' ? merge({}, value) : value;
  }
  return target;
}

function build(language: Language, base: MessageTree): MessageTree {
  const tree = merge({}, base);
  for (const [file, messages] of Object.entries(featureFiles)) {
    if (file.endsWith(`/locales/${language}.json`)) merge(tree, messages);
  }
  return tree;
}

export const messages: Record<Language, MessageTree> = {
  en: build('en', en as MessageTree),
  ja: build('ja', ja as MessageTree),
  es: build('es', es as MessageTree),
  ko: build('ko', ko as MessageTree),
};
