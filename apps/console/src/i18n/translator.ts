import { type MessageTree, merge } from './message-tree.ts';

/**
 * The console's translator: the part of i18next the console uses, and nothing more (issue 8: i18next's core,
 * ≈ 17 KB gzip, was part of every first screen). It keeps i18next's message format, so the message files are
 * unchanged:
 * - keys are paths in a nested tree (`intro.signIn`);
 * - `{{name}}` is replaced by the option `name` (React escapes what it renders, so values are not HTML-escaped);
 *   a placeholder without an option is left as written, an option that is null or undefined becomes '';
 * - with a numeric `count`, `key_<category>` is looked up first, the category being the language's CLDR plural
 *   category (`Intl.PluralRules`: `one`, `other`, … as i18next's `_one`/`_other` suffixes);
 * - a message missing in the language comes from the fallback language, and failing that the key itself is shown.
 */
export type TranslateOptions = { count?: number } & Record<string, unknown>;
export type TFunction = (key: string, options?: TranslateOptions) => string;

export interface Translator {
  /** The language shown. */
  readonly language: string;
  /** Translates into the language shown. A new function after every change of language or of messages it uses. */
  readonly t: TFunction;
  /** Translates into `language` whatever the language shown. */
  getFixedT(language: string): TFunction;
  /** Whether `language` itself (not its fallback) has a message for `key`. */
  exists(key: string, language?: string): boolean;
  changeLanguage(language: string): void;
  /** Deep-merges messages into a language's (later ones win). */
  addResourceBundle(language: string, messages: MessageTree): void;
  hasResourceBundle(language: string): boolean;
  getResourceBundle(language: string): MessageTree | undefined;
  /** Called when `t` changes (language, or messages of the language shown or its fallback); returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

const PLACEHOLDER = /{{\s*(\w+)\s*}}/g;

/** Replaces `{{name}}` placeholders by `values.name` (one pass: a value's own braces are kept as written). */
export function interpolate(message: string, values: Record<string, unknown>): string {
  return message.replace(PLACEHOLDER, (placeholder, name: string) =>
    Object.hasOwn(values, name) ? String(values[name] ?? '') : placeholder,
  );
}

function find(tree: MessageTree | undefined, key: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function createTranslator({ language, fallbackLanguage }: { language: string; fallbackLanguage: string }) {
  const resources = new Map<string, MessageTree>();
  const listeners = new Set<() => void>();
  const pluralRules = new Map<string, Intl.PluralRules>();
  let current = language;

  function pluralCategory(lng: string, count: number): string {
    let rules = pluralRules.get(lng);
    if (!rules) {
      rules = new Intl.PluralRules(lng);
      pluralRules.set(lng, rules);
    }
    return rules.select(count);
  }

  function resolve(lng: string, key: string, count: unknown): string | undefined {
    const tree = resources.get(lng);
    if (typeof count !== 'number') return find(tree, key);
    // `_other` before the bare key: a category the messages do not spell out (Spanish `many`, for a million) reads
    // better as the language's own `_other` than as the fallback language's (where i18next would go).
    return find(tree, `${key}_${pluralCategory(lng, count)}`) ?? find(tree, `${key}_other`) ?? find(tree, key);
  }

  function translate(lng: string, key: string, options?: TranslateOptions): string {
    const chain = lng === fallbackLanguage ? [lng] : [lng, fallbackLanguage];
    for (const candidate of chain) {
      const message = resolve(candidate, key, options?.count);
      if (message !== undefined) return options ? interpolate(message, options) : message;
    }
    return key;
  }

  const getFixedT =
    (lng: string): TFunction =>
    (key, options) =>
      translate(lng, key, options);
  let t = getFixedT(current);

  function changed(): void {
    t = getFixedT(current);
    for (const listener of [...listeners]) listener();
  }

  const translator: Translator = {
    get language() {
      return current;
    },
    get t() {
      return t;
    },
    getFixedT,
    exists: (key, lng = current) => find(resources.get(lng), key) !== undefined,
    changeLanguage(lng) {
      if (lng === current) return;
      current = lng;
      changed();
    },
    addResourceBundle(lng, messages) {
      resources.set(lng, merge(resources.get(lng) ?? {}, messages));
      // Only messages that can show now change `t`: effects that depend on it should not re-run for a language
      // being downloaded before a switch.
      if (lng === current || lng === fallbackLanguage) changed();
    },
    hasResourceBundle: (lng) => resources.has(lng),
    getResourceBundle: (lng) => resources.get(lng),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return translator;
}
