import { cloneElement, type ReactElement, type ReactNode, useSyncExternalStore } from 'react';
import type { TFunction, Translator } from './translator.ts';

const TAG = /<(\/?)(\w+)\s*(\/?)>/g;

interface Element {
  name: string;
  children: ReactNode[];
}

/**
 * Renders a message's markup with the given elements: `<terms>Terms of Use</terms>` becomes `components.terms` with
 * the text as its children, `<code/>` the element as it is. Only tag names are markup (no attributes); a tag without
 * a component keeps its content and loses the tag. The message is never parsed as HTML.
 */
export function renderMarkup(message: string, components: Record<string, ReactElement>): ReactNode[] {
  const root: Element = { name: '', children: [] };
  const stack: Element[] = [root];
  let key = 0;
  const top = () => stack[stack.length - 1] ?? root;
  const close = (element: Element) => {
    const component = components[element.name];
    const parent = top();
    if (!component) parent.children.push(...element.children);
    else if (element.children.length === 0) parent.children.push(cloneElement(component, { key: key++ }));
    else parent.children.push(cloneElement(component, { key: key++ }, ...element.children));
  };
  let last = 0;
  for (const match of message.matchAll(TAG)) {
    const [tag, closing, name = '', selfClosing] = match;
    if (match.index > last) top().children.push(message.slice(last, match.index));
    last = match.index + tag.length;
    if (selfClosing) close({ name, children: [] });
    else if (!closing) stack.push({ name, children: [] });
    else if (stack.length > 1 && top().name === name) close(stack.pop() ?? root);
    else top().children.push(tag); // A stray closing tag is text.
  }
  if (last < message.length) top().children.push(message.slice(last));
  while (stack.length > 1) close(stack.pop() ?? root);
  return root.children;
}

/** The React side of a translator: components re-render when its language or messages change. */
export function bindTranslator(translator: Translator) {
  const getT = () => translator.t;

  function useTranslation(): { t: TFunction; i18n: Translator } {
    const t = useSyncExternalStore(translator.subscribe, getT, getT);
    return { t, i18n: translator };
  }

  /** A message with markup (`<terms>…</terms>`) rendered with React elements, as react-i18next's `<Trans>`. */
  function Trans({ i18nKey, components = {} }: { i18nKey: string; components?: Record<string, ReactElement> }) {
    const { t } = useTranslation();
    return <>{renderMarkup(t(i18nKey), components)}</>;
  }

  return { useTranslation, Trans };
}
