/** A language's messages: nested keys down to translated strings (the bundles build them, the translator reads them). */
export type MessageTree = { [key: string]: string | MessageTree };

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
