import { describe, expect, it } from 'vitest';
import { messages as enBase } from './bundles/en.ts';
import { messages as enWorkspace } from './bundles/en-workspace.ts';
import { messages as esBase } from './bundles/es.ts';
import { messages as esWorkspace } from './bundles/es-workspace.ts';
import { messages as jaBase } from './bundles/ja.ts';
import { messages as jaWorkspace } from './bundles/ja-workspace.ts';
import { messages as koBase } from './bundles/ko.ts';
import { messages as koWorkspace } from './bundles/ko-workspace.ts';
import { mergeMessages } from './messages.ts';

// A language's messages come in two chunks (shared + public, signed-in pages); together they are the whole language.
const en = mergeMessages(enBase, { workspace: enWorkspace });
const es = mergeMessages(esBase, { workspace: esWorkspace });
const ja = mergeMessages(jaBase, { workspace: jaWorkspace });
const ko = mergeMessages(koBase, { workspace: koWorkspace });

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

/** Values that are the same in every language on purpose: each language's own name, and bare placeholders. */
const SAME_EVERYWHERE = new Set(['languages.en', 'languages.ja', 'languages.es', 'languages.ko']);

const base = flatten(en as Tree);
/** A value made only of placeholders and punctuation (e.g. `{{count}}/{{max}}`) may legitimately stay the same. */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/{{\s*\w+\s*}}/g, ''));
const placeholders = (text: string) => (text.match(/{{\s*\w+\s*}}|<\/?\w+>/g) ?? []).sort();

describe.each([
  ['ja', ja],
  ['es', es],
  ['ko', ko],
])('%s translation', (_, locale) => {
  const translated = flatten(locale as Tree);

  it('has every key of en and no extra key', () => {
    expect(Object.keys(translated).sort()).toEqual(Object.keys(base).sort());
  });

  it('translates every value (no English left)', () => {
    const untranslated = Object.keys(base).filter(
      (key) => !SAME_EVERYWHERE.has(key) && translated[key] === base[key] && hasWords(base[key] ?? ''),
    );
    expect(untranslated).toEqual([]);
  });

  it('keeps the interpolation placeholders and markup tags of en', () => {
    for (const [key, value] of Object.entries(base)) {
      expect(placeholders(translated[key] ?? ''), key).toEqual(placeholders(value));
    }
  });

  it('has no empty value', () => {
    expect(Object.entries(translated).filter(([, value]) => value.trim() === '')).toEqual([]);
  });
});
